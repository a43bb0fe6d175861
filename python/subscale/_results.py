"""Clusters as Python objects, the quality measures and run folders."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _subscale

Cluster = Tuple[np.ndarray, np.ndarray]


class Clusters(list):
    """A list of subspace clusters, each a tuple ``(dimensions, point_ids)`` of uint32 arrays.

    ``dimension_names`` (when the data had column names) names the dimensions.

    >>> clusters = subscale.SubspaceClustering(epsilon=0.004, min_points=4).fit(X).clusters_  # doctest: +SKIP
    >>> dims, points = clusters[0]                                                          # doctest: +SKIP
    >>> clusters.to_frame().head()                                                          # doctest: +SKIP
    """

    def __init__(self, clusters: Iterable[Cluster] = (), dimension_names: Sequence[str] = ()):
        super().__init__(clusters)
        self.dimension_names: List[str] = list(dimension_names)

    def sizes(self) -> np.ndarray:
        """Points per cluster."""
        return np.array([len(points) for _, points in self], dtype=np.int64)

    def interest(self) -> np.ndarray:
        """Points x dimensions per cluster: the order consolidation gives its clusters."""
        return np.array([len(points) * len(dims) for dims, points in self], dtype=np.float64)

    def labels(self, points: int) -> np.ndarray:
        """For each of ``points`` points the index of the strongest cluster holding it (the one of
        the highest interest, the first on ties), or -1 when none holds it."""
        labels = np.full(points, -1, dtype=np.int64)
        order = np.argsort(-self.interest(), kind="stable")
        for index in order[::-1]:  # the strongest written last
            labels[self[index][1]] = index
        return labels

    def to_frame(self):
        """One row per cluster: its dimensions (and their names), its point ids and the counts.

        >>> frame = clusters.to_frame()                       # doctest: +SKIP
        >>> frame[["n_dimensions", "n_points"]].describe()    # doctest: +SKIP
        """
        import pandas as pd

        rows: Dict[str, List[Any]] = {"dimensions": [], "points": [], "n_dimensions": [], "n_points": []}
        if self.dimension_names:
            rows["dimension_names"] = []
        for dims, points in self:
            rows["dimensions"].append(tuple(int(d) for d in dims))
            rows["points"].append(points)
            rows["n_dimensions"].append(len(dims))
            rows["n_points"].append(len(points))
            if self.dimension_names:
                rows["dimension_names"].append(tuple(self.dimension_names[d] for d in dims))
        frame = pd.DataFrame(rows)
        frame.index.name = "cluster"
        return frame

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

    ``found``: a fitted :class:`SubspaceClustering`, a list of ``(dimensions, point_ids)``, a
    clusters file or a run folder. ``truth``: a list of the same form or an OpenSubspace ``.true``
    file. ``points`` and ``dimensions`` default to the fitted data's shape, else the largest ids + 1
    (a ``.true`` file's ``DIM=``). Higher is better for F1, E4SC and coverage; lower for RNIA and CE.

    >>> subscale.evaluate(model, "datasets/quickstart.true")["f1"]   # doctest: +SKIP
    1.0
    """
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


class RunResult:
    """A run folder (``subscale run``'s output) read back into the fitted attributes of
    :class:`SubspaceClustering`: ``clusters_``, ``raw_clusters_``, ``subspaces_``, ``scores_``,
    ``labels_``, ``timings_``, ``summary_`` and ``config_`` (the resolved config.yaml's text)."""

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
        lists = {}
        for group in ("clusters", "raw_clusters", "subspaces"):
            found = _subscale.read_cluster_list(str(results), group) if results.is_file() else None
            if found is None and group != "subspaces":
                text = folder / ("clusters.txt" if group == "clusters" else "clusters_raw.txt")
                found = _subscale.read_cluster_text(str(text)) if text.is_file() else None
            lists[group] = Clusters(found or [])
        self.clusters_: Clusters = lists["clusters"]
        self.raw_clusters_: Clusters = lists["raw_clusters"]
        self.subspaces_: Clusters = lists["subspaces"]
        self.scores_ = self.clusters_.interest()
        # Point ids are rows of the input as loaded: input_rows of them when join or filter dropped rows.
        self.labels_ = self.clusters_.labels(int(self.summary_.get("input_rows", self.n_samples_)))

    def __repr__(self) -> str:
        return f"RunResult({str(self.folder)!r}: {len(self.clusters_)} clusters)"


def read_run(folder: Union[str, os.PathLike]) -> RunResult:
    """Reads a run folder written by ``subscale run`` into the same objects a fit gives.

    >>> run = subscale.read_run("runs/try1")      # doctest: +SKIP
    >>> run.clusters_.to_frame()                  # doctest: +SKIP
    """
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"{folder}: not a folder; give a run folder written by `subscale run`")
    return RunResult(path)
