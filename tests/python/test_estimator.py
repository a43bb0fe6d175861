"""SubspaceClustering's parameters and scikit-learn's conventions."""
import pathlib
import pickle
import warnings

import numpy as np
import pytest

import subscale
from subscale import SubspaceClustering, _config

SMALL = dict(epsilon=0.02, min_points=3, merge__min_points=10)


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(300, 6))
    X[:60, [1, 4]] = 0.3 + 0.01 * rng.uniform(size=(60, 2))  # one hidden cluster in {1, 4}
    return X


def test_every_command_line_key_is_a_keyword():
    params = SubspaceClustering().get_params()
    for path, key in _config.SCHEMA.items():
        if _config._exposed(path):
            assert _config.keyword(path) in params, path
    assert {"epsilon", "min_points", "mode", "backend", "significance", "consolidate", "threads",
            "merge__epsilon", "merge__min_points", "normalize", "input__precision",
            "consolidate__overlap", "signature__bits", "progress"} <= set(params)
    assert "input__path" not in params and "output__gzip" not in params


def test_defaults_follow_the_library():
    params = SubspaceClustering().get_params()
    assert params["mode"] == "auto" and params["backend"] == "auto" and params["threads"] is None
    assert params["consolidate"] is True and params["consolidate__overlap"] == 0.5
    assert params["signature__bits"] == 128 and params["normalize"] == "minmax"


def test_overrides_leave_defaults_out():
    model = SubspaceClustering(epsilon=0.01, min_points=4, merge__min_points=20, consolidate=False,
                               normalize="minmax", threads=2)
    overrides = model._library_overrides()
    assert "epsilon=0.01" in overrides and "min_points=4" in overrides
    assert "merge.min_points=20" in overrides and "consolidate.enabled=false" in overrides
    assert "threads=2" in overrides
    assert not any(o.startswith("normalize=") for o in overrides)


def test_unknown_keywords_are_refused_with_a_suggestion():
    with pytest.raises(TypeError, match="did you mean 'merge__min_points'"):
        SubspaceClustering(merge__min_point=3)
    with pytest.raises(ValueError, match="did you mean 'epsilon'"):
        SubspaceClustering().set_params(epsilom=0.1)


def test_bad_values_are_refused_by_the_config_layer(blobs):
    with pytest.raises(ValueError, match="mode"):
        SubspaceClustering(**SMALL, mode="fast").fit(blobs)
    with pytest.raises(ValueError, match="min_points"):
        SubspaceClustering(epsilon=0.02, min_points=1).fit(blobs)
    with pytest.raises(ValueError, match="sweep"):
        SubspaceClustering(epsilon=[0.1, 0.2], min_points=3).fit(blobs)


def test_clone_and_parameter_grid(blobs):
    sklearn = pytest.importorskip("sklearn")
    from sklearn.base import clone
    from sklearn.model_selection import ParameterGrid

    model = SubspaceClustering(**SMALL, consolidate=False)
    copy = clone(model)
    assert copy.get_params() == model.get_params() and copy is not model
    counts = []
    for params in ParameterGrid({"merge__min_points": [5, 10], "epsilon": [0.02, 0.03]}):
        fitted = clone(model).set_params(**params).fit(blobs)
        assert fitted.get_params()["merge__min_points"] == params["merge__min_points"]
        counts.append(len(fitted.clusters_))
    assert len(counts) == 4
    assert sklearn.__version__


def test_fitted_attributes(blobs):
    model = SubspaceClustering(**SMALL)
    assert model.fit(blobs) is model
    assert model.n_features_in_ == 6 and model.n_samples_ == 300
    assert isinstance(model.clusters_, subscale.Clusters) and len(model.clusters_) >= 1
    dims, points = model.clusters_[0]
    assert dims.dtype == np.uint32 and points.dtype == np.uint32
    assert list(dims) == [1, 4] and points.tolist() == list(range(60))
    assert model.labels_.shape == (300,) and model.labels_[:60].tolist() == [0] * 60
    assert model.interest_[0] == len(points) * 2
    assert {"density1d", "dense_units", "subspaces", "merge", "consolidate"} <= set(model.timings_)
    assert model.plan_["total_units"] == model.summary_["counts"]["dense_units"]
    assert model.summary_["points"] == 300
    assert not model.input_copied_
    np.testing.assert_array_equal(model.fit_predict(blobs), model.labels_)


def test_pickle_round_trip(blobs):
    model = SubspaceClustering(**SMALL).fit(blobs)
    back = pickle.loads(pickle.dumps(model))
    assert back.get_params() == model.get_params()
    for (a, b), (c, d) in zip(back.clusters_, model.clusters_):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


def test_dataframe_round_trip(blobs):
    pd = pytest.importorskip("pandas")
    names = [f"feature_{j}" for j in range(blobs.shape[1])]
    frame = pd.DataFrame(blobs, columns=names)
    model = SubspaceClustering(**SMALL).fit(frame)
    plain = SubspaceClustering(**SMALL).fit(blobs)
    assert list(model.feature_names_in_) == names
    assert model.clusters_.dimension_names == names
    table = model.clusters_.to_frame()
    assert table["dimension_names"][0] == ("feature_1", "feature_4")
    assert len(table) == len(plain.clusters_)
    for (a, b), (c, d) in zip(model.clusters_, plain.clusters_):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    assert not model.input_copied_


@pytest.mark.parametrize("make", [np.ascontiguousarray, np.asfortranarray,
                                  lambda X: X.astype(np.float32), lambda X: (X * 1000).astype(np.int64)])
def test_layouts_and_dtypes_give_the_same_clusters(blobs, make):
    X = make(blobs)
    reference = SubspaceClustering(**SMALL).fit(np.asarray(X, dtype=np.float64))
    model = SubspaceClustering(**SMALL).fit(X)
    assert model.input_copied_ == (X.dtype not in (np.float64, np.float32))
    assert [(a.tolist(), b.tolist()) for a, b in model.clusters_] == \
        [(a.tolist(), b.tolist()) for a, b in reference.clusters_]


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_fit_refuses_nan_and_inf(blobs, bad):
    X = blobs.copy()
    X[5, 2] = bad
    with pytest.raises(ValueError, match=r"row 6 \(index 5\), column 3"):
        SubspaceClustering(**SMALL).fit(X)


@pytest.mark.parametrize("X", [np.zeros((0, 3)), np.zeros(5), np.zeros((2, 2, 2))])
def test_fit_refuses_empty_and_not_2d(X):
    with pytest.raises(ValueError):
        SubspaceClustering(**SMALL).fit(X)


def test_a_single_point_is_refused_in_scikit_learns_words():
    with pytest.raises(ValueError, match=r"Found array with 1 sample\(s\) \(shape=\(1, 4\)\) while a minimum of 2"):
        SubspaceClustering(**SMALL).fit(np.random.default_rng(0).uniform(size=(1, 4)))


def test_plan_counts_before_running(blobs):
    plan = subscale.plan(blobs, **SMALL)
    model = SubspaceClustering(**SMALL).fit(blobs)
    assert plan["total_units"] == model.summary_["counts"]["dense_units"]
    assert plan["units_per_dimension"] == model.summary_["counts"]["dense_units_per_dimension"]
    assert plan["mode"] == "direct" and plan["points"] == 300 and plan["dimensions"] == 6


def test_progress_callback_ends_with_done(blobs):
    import threading

    seen = []

    def progress(stage, done, total):
        seen.append((stage, done, total, threading.current_thread() is threading.main_thread()))

    SubspaceClustering(**SMALL, progress=progress).fit(blobs)
    assert seen[-1] == ("done", 1, 1, True)  # a fast run ends before the first report of a stage


@pytest.mark.parametrize("make", [np.ascontiguousarray, np.asfortranarray, lambda X: X.astype(np.float32)])
def test_the_array_is_not_copied(make):
    """numpy reports its allocations to tracemalloc: a copy of X would show as a peak of its size."""
    import tracemalloc

    X = make(np.random.default_rng(0).uniform(size=(10000, 40)))
    model = SubspaceClustering(epsilon=0.0001, min_points=3, progress=False)  # few subspaces: few results
    tracemalloc.start()
    model.fit(X)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < X.nbytes / 10, peak
    assert not model.input_copied_


def test_workload_warnings_are_python_warnings(blobs):
    X = blobs.copy()
    X[:, 2] = 0.5  # every point is dense in a constant column
    model = SubspaceClustering(**SMALL, consolidate=False, significance=False)  # on: kept out, no warning
    with pytest.warns(RuntimeWarning, match=r"1 column holds a single value"):
        model.fit(X)
    assert "holds a single value" in model.log_
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SubspaceClustering(**SMALL).fit(blobs)  # nothing to warn about


def test_the_keys_without_a_keyword_are_the_documented_ones():
    """docs/python.md names every config key that is not a keyword; the estimator refuses each."""
    from subscale import _config
    docs = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md").read_text()
    for key in _config._FILE_KEYS:
        assert f"`{key}`" in docs, key
    for section in _config._FILE_SECTIONS:
        assert f"`{section}*`" in docs, section
    for key in ("input.path", "ground_truth.path", "report", "output.file", "checkpoint.dir"):
        with pytest.raises((TypeError, ValueError)):
            subscale.SubspaceClustering(**{key.replace(".", "__"): "x"})
