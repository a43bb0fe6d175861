"""Clusters as Python objects, the quality measures and run folders."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _memberships, _subscale

Cluster = Tuple[np.ndarray, np.ndarray]


def scores_or_nan(scores: Optional[Sequence[float]], clusters: int) -> np.ndarray:
    """The significance scores as float64, NaN for each cluster when the run did not test."""
    if scores is None:
        return np.full(clusters, np.nan)
    return np.asarray(scores, dtype=np.float64)


class Clusters(list):
    """A list of subspace clusters, each a tuple ``(dimensions, point_ids)`` of uint32 arrays.

    Parameters
    ----------
    clusters : iterable of (dimensions, point_ids)
        The clusters, in their order.
    dimension_names : sequence of str, optional
        The dimensions' names, when the data had column names.
    scores : array-like of shape (n_clusters,), optional
        Each cluster's significance score (-log10 of the corrected p-value); NaN when not given.

    Attributes
    ----------
    dimension_names : list of str
        As given; empty when the data had no column names.
    scores : ndarray of shape (n_clusters,)
        The significance scores, NaN where the run did not test significance.

    Examples
    --------
    >>> clusters = subscale.Clusters([([0, 1], [0, 1, 2]), ([2], [3, 4])], scores=[5.0, 1.5])
    >>> dims, points = clusters[0]
    >>> clusters.to_frame()[["dimensions", "n_points", "score", "interest"]]
            dimensions  n_points  score  interest
    cluster                                      
    0           (0, 1)         3    5.0       6.0
    1             (2,)         2    1.5       2.0
    """

    def __init__(self, clusters: Iterable[Cluster] = (), dimension_names: Sequence[str] = (),
                 scores: Optional[Sequence[float]] = None):
        super().__init__(clusters)
        self.dimension_names: List[str] = list(dimension_names)
        self.scores: np.ndarray = scores_or_nan(scores, len(self))
        # The ids of every point clustered (a run's input rows), when known: to_frame(kind="points")
        # lists them, those in no cluster too.
        self.point_ids: Union[None, int, np.ndarray] = None  # an int n: the points 0 to n - 1
        if self.scores.shape != (len(self),):
            raise ValueError(f"scores has shape {self.scores.shape} for {len(self)} clusters: give one score a cluster")

    def sizes(self) -> np.ndarray:
        """Points per cluster, as int64."""
        return np.array([len(points) for _, points in self], dtype=np.int64)

    def interest(self) -> np.ndarray:
        """Each cluster's interest, points x dimensions (the order consolidation gives its clusters),
        as float64."""
        return np.array([len(points) * len(dims) for dims, points in self], dtype=np.float64)

    def labels(self, points: int) -> np.ndarray:
        """For each of ``points`` points the index of the strongest cluster holding it (the one of
        the highest interest, the first on ties), or -1 when none holds it."""
        return _memberships.strongest([p for _, p in self], self.interest(), points)

    def to_frame(self, kind: str = "clusters", points: Union[None, int, Sequence[int]] = None):
        """One row per cluster, in the list's order (index ``cluster``); or, with
        ``kind="points"``, one row per point: what a run folder's memberships.csv holds.

        Parameters
        ----------
        kind : {'clusters', 'points'}, default='clusters'
        points : int or sequence of int, optional
            ``kind="points"`` only: the number of points (ids 0 to points - 1) or the point ids
            to list. Default: ``point_ids`` (a fit's rows, a run's clustered input rows), else 0
            to the largest id.

        Returns
        -------
        frame : pandas.DataFrame
            ``kind="clusters"``: columns ``dimensions`` (a tuple of ints), ``points`` (the uint32
            point ids), ``n_dimensions``, ``n_points``, ``dimension_names`` (when the dimensions
            have names), ``score`` (the significance score, NaN without the test) and ``interest``
            (points x dimensions). ``kind="points"``: index ``row`` (the point id), columns
            ``strongest`` (the index of its strongest cluster, as ``labels``; -1 for none),
            ``clusters`` (a tuple of the indices of every cluster holding it, ascending) and
            ``n_clusters``.
        """
        if kind == "points":
            return _memberships.point_table(self, self._listed_points(points))
        if kind != "clusters":
            raise ValueError(f"to_frame(kind={kind!r}): kind is 'clusters' (one row per cluster) or 'points' "
                             "(one row per point)")
        import pandas as pd

        rows: Dict[str, Any] = {"dimensions": [], "points": [], "n_dimensions": [], "n_points": []}
        if self.dimension_names:
            rows["dimension_names"] = []
        for dims, points in self:
            rows["dimensions"].append(tuple(int(d) for d in dims))
            rows["points"].append(points)
            rows["n_dimensions"].append(len(dims))
            rows["n_points"].append(len(points))
            if self.dimension_names:
                rows["dimension_names"].append(tuple(self.dimension_names[d] for d in dims))
        rows["score"] = self.scores
        rows["interest"] = self.interest()
        frame = pd.DataFrame(rows)
        frame.index.name = "cluster"
        return frame

    def _listed_points(self, points: Union[None, int, Sequence[int]]) -> np.ndarray:
        if points is None and self.point_ids is not None:
            points = self.point_ids  # a count (a fit's rows 0 to n - 1) or the ids themselves
        if points is None:
            points = max((int(np.max(p)) + 1 for _, p in self if len(p)), default=0)
        if isinstance(points, (int, np.integer)):
            return np.arange(int(points), dtype=np.int64)
        ids = np.asarray(points, dtype=np.int64)
        if ids.ndim != 1 or np.any(ids < 0):
            raise ValueError("to_frame(points=...): give the number of points or a 1-D sequence of point ids >= 0")
        return ids

    def __repr__(self) -> str:
        return f"Clusters({len(self)} clusters)"


def _clusters_of(found: Any, what: str) -> Clusters:
    if isinstance(found, (str, os.PathLike)):
        path = Path(found)
        if path.is_dir():
            path = path / "clusters.txt"
        return Clusters(_subscale.read_cluster_text(str(path)))
    if hasattr(found, "clusters_"):
        return found.clusters_
    if hasattr(found, "fit") and hasattr(found, "get_params"):
        raise ValueError(f"{what}: the {type(found).__name__} is not fitted (it has no clusters_); call "
                         "fit(X) before evaluate, or give the clusters themselves")
    if isinstance(found, Clusters):
        return found
    return Clusters(found)


def evaluate(found: Any, truth: Any, points: Optional[int] = None,
             dimensions: Optional[int] = None) -> Dict[str, float]:
    """Scores found clusters against hidden ones: F1, F1-R, E4SC, RNIA, CE and coverage.

    Parameters
    ----------
    found : SubspaceClustering, RunResult, list of (dimensions, point_ids), str or path
        A fitted estimator, a run read by :func:`read_run`, a list of clusters, a clusters file
        (``{d1, d2}-[p1, p2, ...]``) or a run folder.
    truth : list of (dimensions, point_ids), str, path or array-like of labels
        The hidden clusters: a list of the same form or an OpenSubspace ``.true`` file. Or class
        labels ``y``, one per row of the data (of X for a fitted model, of the run's input for a
        run, also where filter.where clustered only some rows: the labels of those rows are the
        classes): each class is then a hidden cluster of its points in every dimension, as the
        OpenSubspace evaluation study scores labelled data, and the measures are F1 and E4SC.
        Integer labels are the classes themselves; -1, None and NaN are in no class.
    points : int, optional
        Number of points; default: the fitted data's, else the largest point id + 1.
    dimensions : int, optional
        Number of dimensions; default: the fitted data's, else a ``.true`` file's ``DIM=``, else
        the largest dimension + 1.

    Returns
    -------
    measures : dict
        ``f1``, ``f1_recall``, ``e4sc``, ``rnia``, ``ce``, ``coverage``, ``found_clusters`` and
        ``hidden_clusters``. Higher is better for F1, E4SC and coverage; lower for RNIA and CE.
        Against labels: ``f1``, ``e4sc``, ``found_clusters``, ``classes`` and
        ``labelled_points``.

    Raises
    ------
    ValueError
        For an unfitted estimator, clusters that repeat or lie outside the ids, or labels that are
        not one per row.

    Examples
    --------
    >>> measures = subscale.evaluate([([0, 1], [0, 1])], [([0, 1], [0, 1, 2, 3])], points=6, dimensions=3)
    >>> measures["coverage"], measures["found_clusters"]
    (0.3333333333333333, 1)
    >>> subscale.evaluate([([0, 1], [0, 1, 2])], ["a", "a", "a", "b"], dimensions=2)["f1"]
    0.5
    """
    if _memberships.is_labels(truth):
        return _evaluate_labels(found, truth, dimensions)
    if points is None and hasattr(found, "n_samples_"):
        points = int(found.n_samples_)
    if dimensions is None and hasattr(found, "n_features_in_"):
        dimensions = int(found.n_features_in_)
    found_clusters = _clusters_of(found, "found")
    if isinstance(truth, (str, os.PathLike)):
        file_dims, hidden = _subscale.read_ground_truth(str(truth), dimensions, points)
        dimensions = dimensions if dimensions is not None else int(file_dims)
    else:
        hidden = list(truth)

    def largest(clusters: Sequence[Cluster], side: int) -> int:
        return max((int(np.max(c[side])) + 1 for c in clusters if len(c[side])), default=0)

    if points is None:
        points = max(largest(found_clusters, 1), largest(hidden, 1))
    if dimensions is None:
        dimensions = max(largest(found_clusters, 0), largest(hidden, 0))
    return dict(_subscale.evaluate(found_clusters, hidden, int(points), int(dimensions)))


def _evaluate_labels(found: Any, y: Any, dimensions: Optional[int]) -> Dict[str, float]:
    if isinstance(found, (str, os.PathLike)) and Path(found).is_dir():
        found = read_run(found)
    if isinstance(found, RunResult):
        rows = int(found.summary_.get("input_rows", found.n_samples_))
        ids = found.clusters_.point_ids
        return _memberships.evaluate_classes(found.clusters_, y, dimensions or found.n_features_in_,
                                             ids if ids is not None and len(ids) != rows else None, rows,
                                             f"the run's input ({found.folder})")
    rows, what = None, "the data"
    if hasattr(found, "n_samples_"):
        rows, what = int(found.n_samples_), "the data the model was fitted on"
        dimensions = dimensions or int(found.n_features_in_)
    return _memberships.evaluate_classes(_clusters_of(found, "found"), y, dimensions, None, rows, what)


class RunResult:
    """A run folder (``subscale run``'s output) read back into the fitted attributes of
    :class:`SubspaceClustering` (see :func:`read_run`).

    Attributes
    ----------
    folder : pathlib.Path
        The run folder.
    clusters_, raw_clusters_, subspaces_ : Clusters
        The run's clusters, merge's clusters before consolidation (empty without it) and the
        subspaces (empty when results.h5 is missing).
    scores_ : ndarray of shape (n_clusters,)
        The significance scores results.h5 holds (``/clusters/score``); NaN without the test.
    interest_ : ndarray of shape (n_clusters,)
        Points x dimensions per cluster.
    labels_ : ndarray of shape (input_rows,)
        Each input row's strongest cluster, -1 for none.
    timings_ : dict
        Seconds per stage.
    summary_ : dict
        summary.json.
    config_ : str
        The resolved config.yaml's text.
    n_samples_, n_features_in_ : int
        The points and dimensions clustered.
    memberships_ : pandas.DataFrame
        The run's memberships.csv: one row per clustered input row (index ``row``), its
        ``strongest`` cluster (-1 for none), the ``clusters`` holding it and ``n_clusters``; made
        from ``clusters_`` where the run wrote no text files (``output.text: false``).

    Examples
    --------
    >>> run = subscale.read_run("runs/try1")                             # doctest: +SKIP
    >>> run.clusters_.to_frame()[["dimensions", "score", "interest"]]   # doctest: +SKIP
    """

    def __init__(self, folder: Path):
        self.folder = folder
        summary_file = folder / "summary.json"
        if not summary_file.is_file():
            raise ValueError(f"{folder}: no summary.json: not a finished run folder (was the run interrupted?)")
        self.summary_: Dict[str, Any] = json.loads(summary_file.read_text())
        self.config_: str = (folder / "config.yaml").read_text() if (folder / "config.yaml").is_file() else ""
        self.n_samples_ = int(self.summary_.get("points", 0))
        self.n_features_in_ = int(self.summary_.get("dimensions", 0))
        self.timings_: Dict[str, float] = dict(self.summary_.get("timings_seconds", {}))
        results = folder / "results.h5"
        names = _subscale.read_column_names(str(results)) if results.is_file() else []
        # The input rows the run clustered: all of them unless join or filter dropped some.
        rows = _subscale.read_input_rows(str(results)) if results.is_file() else None
        point_ids = np.arange(self.n_samples_, dtype=np.int64) if rows is None else rows.astype(np.int64)
        lists = {}
        for group in ("clusters", "raw_clusters", "subspaces"):
            found = _subscale.read_cluster_list(str(results), group) if results.is_file() else None
            if found is None and group != "subspaces":
                text = folder / ("clusters.txt" if group == "clusters" else "clusters_raw.txt")
                found = _subscale.read_cluster_text(str(text)) if text.is_file() else None
            scores = _subscale.read_scores(str(results), group) if results.is_file() and found else None
            lists[group] = Clusters(found or [], names, scores=scores)
            lists[group].point_ids = point_ids
        self.clusters_: Clusters = lists["clusters"]
        self.raw_clusters_: Clusters = lists["raw_clusters"]
        self.subspaces_: Clusters = lists["subspaces"]
        self.scores_ = self.clusters_.scores
        self.interest_ = self.clusters_.interest()
        # Point ids are rows of the input as loaded: input_rows of them when join or filter dropped rows.
        self.labels_ = self.clusters_.labels(int(self.summary_.get("input_rows", self.n_samples_)))
        table = folder / "memberships.csv"
        self.memberships_ = (_memberships.read_point_table(table) if table.is_file()
                             else self.clusters_.to_frame(kind="points"))

    def to_frame(self, kind: str = "clusters"):
        """``clusters_.to_frame()``, or with ``kind="points"`` the run's per-point table
        (``memberships_``)."""
        return self.memberships_ if kind == "points" else self.clusters_.to_frame(kind=kind)

    def __repr__(self) -> str:
        return f"RunResult({str(self.folder)!r}: {len(self.clusters_)} clusters)"


def read_run(folder: Union[str, os.PathLike]) -> RunResult:
    """Reads a run folder written by ``subscale run`` into the same objects a fit gives.

    Parameters
    ----------
    folder : str or path
        A finished run folder (one with summary.json).

    Returns
    -------
    run : RunResult
        ``clusters_``, ``raw_clusters_``, ``subspaces_``, ``scores_``, ``interest_``,
        ``labels_``, ``timings_``, ``summary_``, ``config_`` and ``memberships_`` (the per-point
        table, also ``run.to_frame(kind="points")``).

    Raises
    ------
    ValueError
        When the folder is missing or is not a finished run.

    Examples
    --------
    >>> run = subscale.read_run("runs/try1")      # doctest: +SKIP
    >>> run.clusters_.to_frame()                  # doctest: +SKIP
    """
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"{folder}: not a folder; give a run folder written by `subscale run`")
    return RunResult(path)
