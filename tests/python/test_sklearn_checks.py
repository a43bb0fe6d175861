"""SubspaceClustering is a scikit-learn clusterer: scikit-learn's own estimator checks, its repr and
HTML repr, tags, clone, Pipeline and GridSearchCV; and without scikit-learn the package still
works, with the same parameter protocol."""
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("sklearn", reason="scikit-learn is optional; these tests check the estimator against it")

import sklearn  # noqa: E402
from sklearn.base import BaseEstimator, ClusterMixin, clone  # noqa: E402
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

import subscale  # noqa: E402
from subscale import SubspaceClustering  # noqa: E402

# The checks fit tiny random data (tens of points); epsilon and min_points are given because their
# automatic choice aims at real data sets. Both sides of the significance test are checked.
WITH_TEST = SubspaceClustering(epsilon=0.1, min_points=2, progress=False)
WITHOUT_TEST = SubspaceClustering(epsilon=0.1, min_points=2, significance=False, progress=False)

# (significance on?, check) -> why it does not apply.
SKIPPED = {
    (True, "check_clustering"):
        "the check's 50 points (3 blobs in 2-D) are too few for the significance test: even the best case "
        "of their one subspace scores 0, so no cluster is reported and labels_ is all -1; the same check "
        "runs and passes with significance=False",
}


def check_name(check):
    name = getattr(check, "func", check).__name__
    keywords = getattr(check, "keywords", {})
    return name + "".join(f"[{k}={v}]" for k, v in sorted(keywords.items()))


@parametrize_with_checks([WITH_TEST, WITHOUT_TEST])
def test_scikit_learn_estimator_checks(estimator, check):
    reason = SKIPPED.get((bool(estimator.significance), getattr(check, "func", check).__name__))
    if reason:
        pytest.skip(reason)
    check(estimator)


def test_every_skipped_check_is_one_scikit_learn_generates():
    from sklearn.utils.estimator_checks import _yield_all_checks

    names = {getattr(c, "func", c).__name__ for c in _yield_all_checks(WITH_TEST)}
    assert {name for _, name in SKIPPED} <= names


def test_is_a_scikit_learn_clusterer():
    model = SubspaceClustering()
    assert isinstance(model, BaseEstimator) and isinstance(model, ClusterMixin)
    try:
        from sklearn.utils import get_tags  # scikit-learn 1.6 and later
    except ImportError:
        tags = model._get_tags()
        assert model._estimator_type == "clusterer"
        assert tags["allow_nan"] is False and tags["requires_y"] is False and tags["non_deterministic"] is False
        assert "2darray" in tags["X_types"]
    else:
        tags = get_tags(model)
        assert tags.estimator_type == "clusterer" and not tags.input_tags.allow_nan
        assert not tags.target_tags.required and not tags.non_deterministic


def test_init_stores_the_keywords_as_given():
    """No logic in __init__: even a value fit will refuse is stored unchanged, and only fit refuses it."""
    model = SubspaceClustering(epsilon=-1.0, mode="fast", merge__min_points="x")
    assert (model.epsilon, model.mode, model.merge__min_points) == (-1.0, "fast", "x")
    assert set(vars(model)) == set(model.get_params())
    with pytest.raises(ValueError, match="epsilon"):
        model.fit(np.random.default_rng(0).uniform(size=(20, 3)))


def test_signature_lists_every_keyword():
    import inspect

    signature = inspect.signature(SubspaceClustering)
    assert set(signature.parameters) == set(SubspaceClustering().get_params())
    assert signature.parameters["merge__min_points"].default == "auto"
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in signature.parameters.values())


def test_repr_shows_the_changed_parameters():
    assert repr(SubspaceClustering()) == "SubspaceClustering()"
    assert repr(SubspaceClustering(epsilon=0.004, merge__min_points=20)) == \
        "SubspaceClustering(epsilon=0.004, merge__min_points=20)"


def test_html_repr_for_jupyter():
    from sklearn.utils import estimator_html_repr

    html = estimator_html_repr(SubspaceClustering(epsilon=0.004, merge__min_points=20))
    assert "SubspaceClustering" in html and "merge__min_points=20" in html
    assert "SubspaceClustering" in SubspaceClustering()._repr_html_()


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(300, 6))
    X[:60, [1, 4]] = 0.3 + 0.01 * rng.uniform(size=(60, 2))  # one hidden cluster in {1, 4}
    return X


HIDDEN = [([1, 4], list(range(60)))]
SMALL = dict(epsilon=0.02, min_points=3, merge__min_points=10, progress=False)


def test_clone_keeps_parameters_not_results(blobs):
    model = SubspaceClustering(**SMALL).fit(blobs)
    copy = clone(model)
    assert copy.get_params() == model.get_params() and not hasattr(copy, "clusters_")


def test_pickle_keeps_the_fit(blobs):
    model = SubspaceClustering(**SMALL).fit(blobs)
    back = pickle.loads(pickle.dumps(model))
    assert back.get_params() == model.get_params()
    np.testing.assert_array_equal(back.scores_, model.scores_)
    np.testing.assert_array_equal(back.labels_, model.labels_)


def test_pipeline_and_grid_search_reach_the_nested_keywords(blobs):
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MinMaxScaler

    pipeline = make_pipeline(MinMaxScaler(), SubspaceClustering(**SMALL))
    assert pipeline.get_params()["subspaceclustering__merge__min_points"] == 10
    pipeline.set_params(subspaceclustering__merge__min_points=12)
    assert pipeline[-1].merge__min_points == 12

    def e4sc(estimator, X, y=None):
        return subscale.evaluate(estimator[-1], HIDDEN)["e4sc"]

    everything = np.arange(len(blobs))
    search = GridSearchCV(pipeline, {"subspaceclustering__merge__min_points": [5, 10, 80]}, scoring=e4sc,
                          cv=[(everything, everything)])  # one split: clustering sees every point
    search.fit(blobs)
    assert search.best_params_["subspaceclustering__merge__min_points"] in (5, 10)
    assert search.cv_results_["mean_test_score"][2] < search.best_score_  # 80 > the cluster's 60 points
    assert len(search.best_estimator_[-1].clusters_) >= 1


def test_without_scikit_learn_the_parameter_protocol_stays():
    """A child process in which scikit-learn cannot be imported gets the stand-in base."""
    code = textwrap.dedent("""
        import sys

        class NoScikitLearn:
            def find_spec(self, name, path=None, target=None):
                if name == "sklearn" or name.startswith("sklearn."):
                    raise ModuleNotFoundError(f"No module named {name!r}")

        sys.meta_path.insert(0, NoScikitLearn())
        import pickle
        import numpy as np
        import subscale
        from subscale import SubspaceClustering

        assert "sklearn" not in sys.modules
        assert all(c.__module__.startswith(("subscale", "builtins")) for c in SubspaceClustering.__mro__)
        model = SubspaceClustering(epsilon=0.02, min_points=3, merge__min_points=10, progress=False)
        assert repr(model) == "SubspaceClustering(epsilon=0.02, merge__min_points=10, min_points=3, progress=False)"
        assert model.get_params()["merge__min_points"] == 10 and model.get_params()["mode"] == "auto"
        assert model.set_params(merge__min_points=8) is model and model.merge__min_points == 8
        try:
            model.set_params(epsilom=0.1)
        except ValueError as error:
            assert "did you mean 'epsilon'" in str(error)
        else:
            raise AssertionError("set_params took an unknown keyword")
        rebuilt = type(model)(**model.get_params())
        assert rebuilt.get_params() == model.get_params()
        X = np.random.default_rng(3).uniform(size=(300, 6))
        X[:60, [1, 4]] = 0.3 + 0.01 * np.random.default_rng(4).uniform(size=(60, 2))
        labels = model.fit_predict(X)
        assert labels.shape == (300,) and model.clusters_[0][0].tolist() == [1, 4]
        assert pickle.loads(pickle.dumps(model)).scores_.tolist() == model.scores_.tolist()
        print("ok")
    """)
    package = os.path.dirname(os.path.dirname(subscale.__file__))
    env = dict(os.environ, PYTHONPATH=package + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
    assert sklearn.__version__  # the parent process has it; only the child goes without
