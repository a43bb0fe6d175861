"""Input data: numpy arrays, pandas DataFrames and the files the command line reads."""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple

import numpy as np

from . import _subscale


@dataclass
class Data:
    """A data file as the command line reads it (see :func:`load`).

    Attributes
    ----------
    values : ndarray of shape (n_points, n_dimensions)
        The float64 matrix, in Fortran order (one dimension's values contiguous, as the library
        holds them).
    columns : list of str
        The dimensions' names; empty when the file has none.
    labels : ndarray of shape (n_points,) or None
        The per-point labels, when the file has them.
    ids : ndarray of shape (n_points,) or None
        The per-point ids, when the file has them.
    source : str
        The file the values came from.

    Examples
    --------
    >>> data = subscale.load("datasets/quickstart.h5")
    >>> data.values.dtype, data.values.flags.f_contiguous
    (dtype('float64'), True)
    """

    values: np.ndarray
    columns: List[str] = field(default_factory=list)
    labels: Optional[np.ndarray] = None
    ids: Optional[np.ndarray] = None
    source: str = ""

    @property
    def shape(self) -> Tuple[int, int]:
        return self.values.shape  # type: ignore[return-value]

    def __array__(self, dtype: Any = None) -> np.ndarray:
        return self.values if dtype is None else self.values.astype(dtype)

    def to_frame(self):
        """The values as a pandas DataFrame, with the file's column names."""
        import pandas as pd

        columns = self.columns or None
        return pd.DataFrame(self.values, columns=columns, index=self.ids)


def load(path, format: str = "auto", dataset: str = "/data", label_column: Optional[str] = None) -> Data:
    """Reads a data file (HDF5, CSV or ARFF) with the command line's own readers.

    Parameters
    ----------
    path : str or path
        The file.
    format : {'auto', 'hdf5', 'csv', 'arff'}, default='auto'
        The file's format; ``'auto'``: from its extension.
    dataset : str, default='/data'
        HDF5: the path of the 2-D dataset (points x dimensions).
    label_column : str, optional
        CSV: the column (name or 1-based number) or ARFF attribute that holds labels.

    Returns
    -------
    data : Data
        ``values`` (float64, points x dimensions), ``columns``, ``labels`` and ``ids``.

    Raises
    ------
    ValueError
        As the command line refuses: NaN, Inf, ragged rows or a damaged file, naming the file,
        row and column.

    Examples
    --------
    >>> data = subscale.load("datasets/quickstart.h5")
    >>> data.shape
    (1000, 20)
    """
    out = _subscale.load(str(path), format, dataset, label_column or "")
    return Data(values=out["values"], columns=list(out["column_names"]), labels=out["labels"],
                ids=out["ids"], source=out["source"])


@dataclass
class Matrix:
    """What a fit reads: a 2-D float64 or float32 array, read in place by the library."""

    values: np.ndarray
    columns: List[str]
    copied: bool  # True when the input had to be converted (dtype, strides, mixed DataFrame)


def _is_dataframe(X: Any) -> bool:
    return type(X).__module__.startswith("pandas") and hasattr(X, "columns") and hasattr(X, "to_numpy")


def as_matrix(X: Any, least: int = 2) -> Matrix:
    """The input as an array the library reads without a copy where its layout allows.

    float64 and float32 arrays of any order and any strides are read in place. Other dtypes
    (integers, booleans, float16, a DataFrame whose columns have different dtypes or live in
    several blocks) are converted to float64 first: that is a copy, and ``copied`` says so.
    ``least``: the fewest points taken (2 to fit: one point forms no cluster; 1 to predict).
    """
    columns: List[str] = []
    if isinstance(X, Data):
        columns = list(X.columns)
        X = X.values
    elif _is_dataframe(X):
        columns = [str(c) for c in X.columns]
        frame = X
        # Datetime and timedelta columns alone convert to numbers (nanoseconds) without an error.
        if any(getattr(dtype, "kind", "") in ("M", "m") for dtype in frame.dtypes):
            _refuse_bad_cell(frame, columns)
        X = frame.to_numpy(copy=False)
        # A frame of one float block hands out a view of it; anything else is a new array.
        shared = (X.ndim == 2 and X.shape[1] > 0 and X.shape[0] > 0
                  and np.shares_memory(X, frame.iloc[:, 0].to_numpy(copy=False)))
        try:
            matrix = _as_float_array(X, least)
        except (TypeError, ValueError):
            _refuse_bad_cell(frame, columns)  # numpy's message names neither the row nor the column
            raise
        return Matrix(matrix.values, columns, matrix.copied or not shared)
    if hasattr(X, "toarray") and hasattr(X, "nnz"):
        raise TypeError("sparse matrices are not supported: subspace clustering reads every value; "
                        "pass X.toarray()")
    matrix = _as_float_array(X, least)
    matrix.columns = columns
    return matrix


def _cell_problem(value: Any) -> Optional[Tuple[str, str]]:
    """Why a DataFrame cell is not a number, and what to do; None when float() takes it."""
    import pandas as pd

    if value is None or value is pd.NA or value is pd.NaT:
        shown = "None" if value is None else "pd.NA" if value is pd.NA else "NaT"
        return (f"the value is missing ({shown})",
                "missing values are not supported: fill them in (fillna) or drop the rows (dropna)")
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta, np.datetime64, np.timedelta64,
                          pd.Period)):
        return (f"{value!r} is a date or a time, not a number",
                "convert the column to numbers first (e.g. seconds: "
                "(df[c] - pd.Timestamp(0)).dt.total_seconds()) or drop it")
    try:
        float(value)
        return None
    except (TypeError, ValueError):
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return (f"{shown} is not a number",
                "convert the column to numbers (pd.to_numeric, or category codes: "
                ".astype('category').cat.codes) or drop it")


def _refuse_bad_cell(frame: Any, columns: List[str]) -> None:
    """Raises ValueError naming the first cell (in row order) that is not a number, as the
    library names a NaN: "X, row 3 (index 2), column 2 (name): ..."."""
    found = None  # (row, column, problem, remedy)
    rows = frame.shape[0]
    for j in range(frame.shape[1]):
        column = frame.iloc[:, j]
        if isinstance(column.dtype, np.dtype) and column.dtype.kind in "biuf":
            continue  # numbers: a NaN among them is the library's to report
        values = column.to_numpy(dtype=object)
        for i in range(rows if found is None else found[0]):
            problem = _cell_problem(values[i])
            if problem is not None:
                found = (i, j, *problem)
                break
    if found is None:
        return
    i, j, problem, remedy = found
    label = frame.index[i]
    where = f"index {i}" if label == i else f"index {i}, label {label!r}"
    raise ValueError(f"X, row {i + 1} ({where}), column {j + 1} ({columns[j]}): {problem}; every cell must hold "
                     f"a number: {remedy}")


def _as_float_array(X: Any, least: int = 2) -> Matrix:
    array = np.asarray(X)
    copied = array is not X and not isinstance(X, np.ndarray)
    if array.dtype.kind == "c":
        raise ValueError("Complex data not supported: pass the real part, or both parts as columns")
    native = array.dtype.byteorder in ("=", "|") or array.dtype.isnative
    if array.dtype not in (np.float64, np.float32) or not native:
        array = array.astype(np.float64)  # numpy's own TypeError or ValueError for what is not a number
        copied = True
    if array.ndim == 2 and 0 in array.shape:  # scikit-learn's wording, which its users know
        what = "sample" if array.shape[0] == 0 else "feature"
        raise ValueError(f"Found array with 0 {what}(s) (shape={array.shape}) while a minimum of 1 is required: "
                         "the data matrix is empty")
    if array.ndim == 2 and array.shape[0] == 1 and least > 1:
        raise ValueError(f"Found array with 1 sample(s) (shape={array.shape}) while a minimum of 2 is required: "
                         "one point forms no cluster (min_points is at least 2)")
    if array.ndim == 2 and any(s % array.itemsize for s in array.strides):
        array = np.ascontiguousarray(array)
        copied = True
    return Matrix(array, [], copied)
