"""A fit that fails leaves no results behind, and the errors a Python user meets name what is
wrong in their terms: the DataFrame cell (row and column) that is not a number, the model that is
not fitted, the parameters (not a command line)."""
import numpy as np
import pytest

import subscale
from subscale import SubspaceClustering

SMALL = dict(epsilon=0.02, min_points=3, merge__min_points=10, progress=False)
FITTED = ("clusters_", "raw_clusters_", "subspaces_", "scores_", "labels_", "timings_", "plan_", "summary_",
          "config_", "log_", "n_samples_", "n_features_in_", "input_copied_", "feature_names_in_")


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(300, 6))
    X[:60, [1, 4]] = 0.3 + 0.01 * rng.uniform(size=(60, 2))  # one hidden cluster in {1, 4}
    return X


def assert_unfitted(model):
    left = [name for name in FITTED if hasattr(model, name)]
    assert not left, f"a failed fit kept {left}"


def test_a_refit_that_fails_leaves_the_model_unfitted(blobs):
    pd = pytest.importorskip("pandas")
    model = SubspaceClustering(**SMALL).fit(pd.DataFrame(blobs, columns=[f"c{j}" for j in range(6)]))
    assert len(model.clusters_) > 0 and hasattr(model, "feature_names_in_")
    model.set_params(epsilon=-1.0)
    with pytest.raises(ValueError, match="epsilon"):
        model.fit(blobs)
    assert model.get_params()["epsilon"] == -1.0
    assert_unfitted(model)


def test_a_refit_on_bad_data_leaves_the_model_unfitted(blobs):
    model = SubspaceClustering(**SMALL).fit(blobs)
    bad = blobs.copy()
    bad[7, 1] = np.nan
    with pytest.raises(ValueError, match=r"row 8 \(index 7\), column 2"):
        model.fit(bad)
    assert_unfitted(model)


def test_an_interrupted_refit_leaves_the_model_unfitted(blobs):
    model = SubspaceClustering(**SMALL).fit(blobs)

    class Stop(Exception):
        pass

    def progress(stage, done, total):
        raise Stop

    model.set_params(progress=progress)
    with pytest.raises(Stop):
        model.fit(blobs)
    assert_unfitted(model)
    model.set_params(progress=False)
    assert len(model.fit(blobs).clusters_) > 0  # and it fits again


def test_evaluate_of_an_unfitted_model_says_so(blobs):
    with pytest.raises(ValueError, match="not fitted.*call fit"):
        subscale.evaluate(SubspaceClustering(**SMALL), [([1, 4], list(range(60)))])


def test_parameter_errors_do_not_speak_of_a_command_line(blobs):
    with pytest.raises(ValueError) as error:
        SubspaceClustering(**dict(SMALL, epsilon=-1.0)).fit(blobs)
    assert not str(error.value).startswith("command line"), str(error.value)
    assert "'epsilon'" in str(error.value)


def frame_with(pd, blobs, column, values):
    frame = pd.DataFrame(blobs[:5, :3], columns=["a", "b", "c"])
    frame[column] = values
    return frame


@pytest.mark.parametrize("make,says", [
    (lambda pd: pd.array([1.0, 2.0, pd.NA, 4.0, 5.0], dtype="Float64"), r"the value is missing \(pd\.NA\)"),
    (lambda pd: pd.array([1, 2, pd.NA, 4, 5], dtype="Int64"), r"the value is missing \(pd\.NA\)"),
    (lambda pd: [1.0, 2.0, None, "x", 5.0], r"the value is missing \(None\)"),
    (lambda pd: ["1", "2", "three", "4", "5"], r"'three' is not a number"),
])
def test_dataframe_cell_that_is_not_a_number_is_named_by_row_and_column(blobs, make, says):
    pd = pytest.importorskip("pandas")
    frame = frame_with(pd, blobs, "b", make(pd))
    with pytest.raises(ValueError, match=r"X, row 3 \(index 2\), column 2 \(b\): " + says):
        SubspaceClustering(**SMALL).fit(frame)


@pytest.mark.parametrize("only", [False, True])
def test_dataframe_datetime_column_is_named_not_read_as_nanoseconds(blobs, only):
    pd = pytest.importorskip("pandas")
    when = pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-03", "2020-01-04", "2020-01-05"])
    frame = pd.DataFrame({"when": when}) if only else frame_with(pd, blobs, "c", when)
    column = "1 (when)" if only else "3 (c)"
    with pytest.raises(ValueError, match=rf"X, row 1 \(index 0\), column {re_escape(column)}: .*date or a time"):
        SubspaceClustering(**SMALL).fit(frame)


def test_dataframe_error_names_a_row_label_that_differs_from_the_position(blobs):
    pd = pytest.importorskip("pandas")
    frame = frame_with(pd, blobs, "a", ["1", "2", "3", "x", "5"])
    frame.index = ["p", "q", "r", "s", "t"]
    with pytest.raises(ValueError, match=r"row 4 \(index 3, label 's'\), column 1 \(a\): 'x' is not a number"):
        SubspaceClustering(**SMALL).fit(frame)


def re_escape(text):
    import re

    return re.escape(text)
