"""Per-point tables of clusters (memberships.csv, ``to_frame(kind="points")``) and scoring clusters
against class labels (``subscale.evaluate(found, y)``)."""
from __future__ import annotations

import numbers
from pathlib import Path
from typing import Any, Dict, Optional, Sequence

import numpy as np

from . import _subscale


def strongest(members: Sequence, interest: np.ndarray, points: int) -> np.ndarray:
    """For each of ``points`` points the index of the strongest cluster holding it (the one of the
    highest ``interest``, the first on ties), -1 for none; ``members[c]``: cluster c's point ids."""
    labels = np.full(points, -1, dtype=np.int64)
    order = np.argsort(-np.asarray(interest, dtype=np.float64), kind="stable")
    for index in order[::-1]:  # the strongest written last
        labels[members[index]] = index
    return labels


def point_table(clusters: Sequence, point_ids: np.ndarray):
    """One row per point id (the index ``row``): ``strongest`` (the index of its strongest cluster,
    the one of the highest interest, first on ties; -1 for none), ``clusters`` (a tuple of the
    indices of every cluster holding it, ascending) and ``n_clusters``."""
    import pandas as pd

    ids = np.asarray(point_ids, dtype=np.int64)
    size = int(max(ids.max(initial=-1), max((int(p.max()) for _, p in clusters if len(p)), default=-1))) + 1
    strongest = clusters.labels(size) if size else np.empty(0, np.int64)
    members = [np.asarray(p, dtype=np.int64) for _, p in clusters]
    flat = np.concatenate(members) if members else np.empty(0, np.int64)
    owner = np.repeat(np.arange(len(members), dtype=np.int64), [len(m) for m in members])
    order = np.lexsort((owner, flat))  # by point, then cluster: each point's list ascending
    flat, owner = flat[order], owner[order]
    begin = np.searchsorted(flat, ids, side="left")
    end = np.searchsorted(flat, ids, side="right")
    lists = [tuple(int(c) for c in owner[b:e]) for b, e in zip(begin, end)]
    frame = pd.DataFrame({"strongest": strongest[ids] if size else np.empty(0, np.int64), "clusters": lists,
                          "n_clusters": (end - begin).astype(np.int64)},
                         index=pd.Index(ids, name="row"))
    return frame


def read_point_table(path: Path):
    """memberships.csv as :func:`point_table` gives it."""
    import pandas as pd

    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    if list(raw.columns) != ["row", "strongest", "clusters"]:
        raise ValueError(f"{path}: the header is {','.join(raw.columns)}, not row,strongest,clusters: not a run's "
                         "memberships.csv")
    lists = [tuple(int(c) for c in cell.split(";")) if cell else () for cell in raw["clusters"]]
    strongest = np.array([int(s) if s else -1 for s in raw["strongest"]], dtype=np.int64)
    return pd.DataFrame({"strongest": strongest, "clusters": lists,
                         "n_clusters": np.array([len(c) for c in lists], dtype=np.int64)},
                        index=pd.Index(raw["row"].astype(np.int64).to_numpy(), name="row"))


def is_labels(truth: Any) -> bool:
    """Whether ``truth`` is a 1-D sequence of class labels (not hidden clusters, not a file)."""
    if isinstance(truth, (str, bytes)) or hasattr(truth, "__fspath__"):
        return False
    if hasattr(truth, "dtype") and hasattr(truth, "ndim"):  # numpy arrays, pandas Series
        return truth.ndim == 1 and not (len(truth) and isinstance(np.asarray(truth)[0], (tuple, list, np.ndarray)))
    if isinstance(truth, (list, tuple)) and truth:
        return all(_is_scalar(v) for v in truth)
    return False


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (numbers.Number, str, np.generic)) or _is_missing(value)


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and np.isnan(value):
        return True
    return type(value).__name__ in ("NAType", "NaTType")


def class_codes(y: Any) -> np.ndarray:
    """Labels as int64 class codes, as the command line reads a label column: integers are the
    classes themselves (-1: no class), other labels are numbered in the sorted order of their text;
    None, NaN and pandas' NA are in no class."""
    if hasattr(y, "to_numpy"):
        values = y.to_numpy()
    elif hasattr(y, "dtype"):
        values = np.asarray(y)
    else:
        values = np.array(list(y), dtype=object)
    if values.ndim != 1:
        raise ValueError(f"y has shape {values.shape}: give one class label per point, a 1-D sequence")
    if values.dtype.kind in "iub":
        return values.astype(np.int64)
    cells = values.tolist()
    missing = np.array([_is_missing(v) for v in cells], dtype=bool)
    present = [v for v, gone in zip(cells, missing) if not gone]
    codes = np.full(len(cells), -1, dtype=np.int64)
    # Whole numbers stored as floats (an integer column with NaN in it) are integers still.
    if all(isinstance(v, numbers.Integral) or (isinstance(v, float) and v.is_integer()) for v in present):
        codes[~missing] = np.array(present, dtype=np.float64).astype(np.int64)
        return codes
    _, inverse = np.unique(np.array([str(v) for v in present], dtype=object), return_inverse=True)
    codes[~missing] = inverse
    return codes


def evaluate_classes(clusters: Sequence, y: Any, dimensions: Optional[int], point_ids: Optional[np.ndarray],
                     rows: Optional[int], what: str) -> Dict[str, float]:
    """F1 and E4SC of the clusters against the classes of ``y`` (each class a hidden cluster in
    every dimension). ``rows``: how many labels ``y`` must hold (one per input row); ``point_ids``:
    the rows that were clustered, when not all were, whose labels are the classes."""
    codes = class_codes(y)
    if rows is not None and len(codes) != rows:
        raise ValueError(f"y has {len(codes)} labels, but {what} has {rows} rows: give one label per row, in order")
    if dimensions is None:
        raise ValueError("evaluate against labels needs the number of dimensions (every class is a cluster in all "
                         "of them): pass dimensions=, or a fitted model or run")
    found = list(clusters)
    if point_ids is not None:
        ids = np.asarray(point_ids, dtype=np.int64)
        codes = codes[ids]
        positioned = []
        for index, (dims, points) in enumerate(found):
            at = np.searchsorted(ids, np.asarray(points, dtype=np.int64))
            if len(points) and (at.max() >= len(ids) or np.any(ids[at] != points)):
                raise ValueError(f"found[{index}] holds a point id the run did not cluster: are these its clusters?")
            positioned.append((dims, at.astype(np.uint32)))
        found = positioned
    return dict(_subscale.evaluate_classes(found, codes, int(dimensions)))
