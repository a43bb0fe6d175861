"""The in-memory input: dtypes, layouts, DataFrames, and the errors of bad input."""
import re

import numpy as np
import pytest

import subscale
from subscale import _subscale
from subscale._data import as_matrix

from conftest import QUICKSTART


def reference_minmax(X):
    X = np.asarray(X, dtype=np.float64)
    low, high = X.min(axis=0), X.max(axis=0)
    out = np.zeros_like(X)
    moving = high > low
    out[:, moving] = (X[:, moving] - low[moving]) / (high[moving] - low[moving])
    return out


@pytest.fixture
def X():
    rng = np.random.default_rng(7)
    return rng.normal(size=(300, 9)) * rng.uniform(0.5, 100, size=9)


def test_load_reads_what_the_command_line_reads():
    data = subscale.load(QUICKSTART)
    assert data.shape == (1000, 20)
    assert data.values.dtype == np.float64 and data.values.flags.f_contiguous
    assert np.isfinite(data.values).all()


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_layouts_and_dtypes_normalise_alike(X, layout, dtype):
    X = X.astype(dtype)
    if layout == "C":
        view = np.ascontiguousarray(X)
    elif layout == "F":
        view = np.asfortranarray(X)
    elif layout == "strided":
        wide = np.zeros((X.shape[0] * 2, X.shape[1] * 3), dtype=dtype)
        wide[::2, ::3] = X
        view = wide[::2, ::3]
    else:
        raise AssertionError(layout)
    matrix = as_matrix(view)
    assert matrix.values is view and not matrix.copied  # read in place
    held = _subscale.normalized(matrix.values)
    assert held.flags.f_contiguous
    np.testing.assert_array_equal(held, reference_minmax(X))  # bit for bit


def test_negative_strides_are_read_in_place(X):
    view = X[::-1, ::-1]
    np.testing.assert_array_equal(_subscale.normalized(view), reference_minmax(np.ascontiguousarray(view)))


def test_normalize_none_keeps_values(X):
    np.testing.assert_array_equal(_subscale.normalized(X, "none"), X)


def test_constant_dimension_maps_to_zero(X):
    X[:, 3] = 5.0
    assert not _subscale.normalized(X)[:, 3].any()


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.bool_, np.float16])
def test_other_dtypes_are_converted_and_say_so(X, dtype):
    matrix = as_matrix((X > 0).astype(dtype) if dtype == np.bool_ else X.astype(dtype))
    assert matrix.copied and matrix.values.dtype == np.float64


def test_big_endian_is_converted(X):
    matrix = as_matrix(X.astype(">f8"))
    assert matrix.copied and matrix.values.dtype.isnative
    np.testing.assert_array_equal(matrix.values, X)


def test_list_input(X):
    matrix = as_matrix(X.tolist())
    np.testing.assert_array_equal(matrix.values, X)


@pytest.mark.parametrize("bad,word", [(np.nan, "NaN"), (np.inf, "+Inf"), (-np.inf, "-Inf")])
def test_nan_and_inf_name_the_row_and_column(X, bad, word):
    X[41, 5] = bad
    X[77, 2] = bad  # a later row: the first in row order is named
    with pytest.raises(ValueError, match=rf"row 42 \(index 41\), column 6: the value is {re.escape(word)}"):
        _subscale.normalized(X)


def test_nan_in_float32_and_c_order(X):
    X = np.ascontiguousarray(X.astype(np.float32))
    X[3, 0] = np.nan
    X[3, 8] = np.nan
    with pytest.raises(ValueError, match=r"row 4 \(index 3\), column 1: the value is NaN"):
        _subscale.normalized(X)


def test_nan_names_the_dataframe_column(X):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(X, columns=[f"gene{j}" for j in range(X.shape[1])])
    frame.iloc[10, 4] = np.nan
    matrix = as_matrix(frame)
    with pytest.raises(ValueError, match=r"row 11 \(index 10\), column 5 \(gene4\): the value is NaN"):
        _subscale.normalized(matrix.values, "minmax", "X", matrix.columns)


@pytest.mark.parametrize("shape", [(0, 4), (5, 0), (0, 0)])
def test_empty_input_is_refused(shape):
    with pytest.raises(ValueError, match="empty"):
        _subscale.normalized(np.zeros(shape))


@pytest.mark.parametrize("shape", [(5,), (2, 3, 4), ()])
def test_not_2d_is_refused(shape):
    with pytest.raises(ValueError, match="expected a 2-D array"):
        _subscale.normalized(np.zeros(shape))


def test_complex_and_sparse_are_refused(X):
    with pytest.raises(ValueError, match="Complex data not supported"):
        as_matrix(X.astype(np.complex128))

    class Sparse:  # what scipy.sparse looks like to the check
        nnz = 3

        def toarray(self):
            return X

    with pytest.raises(TypeError, match="sparse"):
        as_matrix(Sparse())


def test_dataframe_gives_names_and_reads_one_block_in_place(X):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])])
    matrix = as_matrix(frame)
    assert matrix.columns == [f"c{j}" for j in range(X.shape[1])]
    assert not matrix.copied
    mixed = frame.assign(c0=frame["c0"].astype(np.float32))
    assert as_matrix(mixed).copied


def test_data_round_trip_to_frame():
    pytest.importorskip("pandas")
    data = subscale.load(QUICKSTART)
    frame = data.to_frame()
    assert frame.shape == (1000, 20)
    np.testing.assert_array_equal(frame.to_numpy(), data.values)


def test_load_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n3,nan\n")
    with pytest.raises(ValueError, match=r"bad.csv, line 3, column 2 \(b\): the value is NaN"):
        subscale.load(bad)
    with pytest.raises(ValueError, match="missing.csv"):
        subscale.load(tmp_path / "missing.csv")
