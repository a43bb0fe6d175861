"""The significance test of a run, applied to clusters the caller gives: a known group, or the
classes of labelled data (is this group what the test calls a subspace cluster?)."""
from typing import Any, Optional

import numpy as np

from . import _memberships
from . import _subscale
from ._data import as_matrix


def significance(X: Any, clusters: Any, alpha: float = 0.01, correction: str = "bonferroni",
                 background_share: float = 0.5):
    """Scores given clusters with the test a run applies to those it finds.

    The test (docs/significance.md) prices a cluster's box, per dimension the interval of its
    points' values, under independent dimensions each distributed as X's own column, corrected for
    every box a search could have drawn. A cluster whose box holds more than ``background_share``
    of all points in all but one of its dimensions does not gather and never passes. A cluster of
    two dimensions is also priced by a rectangle turned to its own axis, and scored by the better
    of the two shapes, as the clusters a run reports are. The box's score depends on the points'
    ranks only and the rectangle's on each column up to shift and scale, so the score is the same
    on X as given and as a run normalises it.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The data the clusters are of.
    clusters : list of (dimensions, point_ids), or array-like of labels
        The clusters to score, as :func:`evaluate` takes them: a list of ``(dimensions,
        point_ids)``, or class labels ``y`` (one per row; -1, None and NaN in no class), each class
        then a cluster of its points in every dimension, as the OpenSubspace study scores them.
    alpha : float, default=0.01
        The level, as the run's ``significance.alpha``.
    correction : {'bonferroni', 'fdr'}, default='bonferroni'
        As the run's ``significance.correction``; ``"fdr"`` steps up over the given clusters.
    background_share : float, default=0.5
        As the run's ``significance.background_share``: a cluster gathers in a dimension where its
        interval holds at most this share of all points.

    Returns
    -------
    scores : pandas.DataFrame
        One row per cluster (per class, indexed by the class, for labels): ``points``,
        ``dimensions`` (their number), ``log10_p0`` (the box's mass under the null),
        ``log10_p`` (the raw p-value), ``log10_search`` (the family the test is corrected for),
        ``score`` (-log10 of the corrected p-value, 0 at most 1), ``turned`` (the mass and family
        are those of the turned rectangle), ``gathering_dimensions`` and ``significant``.

    Raises
    ------
    ValueError
        For values that are not finite numbers, clusters outside X, or labels not one per row.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> X = rng.uniform(size=(500, 6))
    >>> X[:40, :2] = 0.5 + 0.01 * rng.uniform(size=(40, 2))
    >>> scores = subscale.significance(X, [([0, 1], range(40)), ([0, 1], range(300, 340))])
    >>> scores["significant"].tolist()
    [True, False]
    """
    import pandas as pd

    values = as_matrix(X).values
    index: Optional[Any] = None
    if _memberships.is_labels(clusters):
        codes = _memberships.class_codes(clusters)
        if len(codes) != values.shape[0]:
            raise ValueError(f"y has {len(codes)} labels, but X has {values.shape[0]} rows: give one label per row")
        classes = np.unique(codes[codes >= 0])
        every_dimension = np.arange(values.shape[1], dtype=np.uint32)
        index = pd.Index(_class_names(clusters, codes, classes), name="class")
        clusters = [(every_dimension, np.flatnonzero(codes == c)) for c in classes]
    listed = list(clusters)
    out = _subscale.significance_scores(values, listed, float(alpha), str(correction), float(background_share))
    frame = pd.DataFrame({
        "points": np.asarray(out["points"], dtype=np.int64),
        "dimensions": np.array([len(dims) for dims, _ in listed], dtype=np.int64),
        "log10_p0": out["log10_p0"],
        "log10_p": out["log10_p"],
        "log10_search": out["log10_search"],
        "score": out["score"],
        "turned": np.asarray(out["turned"], dtype=bool),
        "gathering_dimensions": np.asarray(out["gathering_dimensions"], dtype=np.int64),
        "significant": np.asarray(out["significant"], dtype=bool),
    })
    if index is not None:
        frame.index = index
    return frame


def _class_names(y: Any, codes: np.ndarray, classes: np.ndarray) -> list:
    """Each class code's label: the integer itself, or the text that class_codes numbered."""
    values = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y, dtype=object)
    names = []
    for c in classes:
        first = values[int(np.flatnonzero(codes == c)[0])]
        names.append(first.item() if isinstance(first, np.generic) else first)
    return names
