"""SubspaceClustering: the library's run as a scikit-learn style estimator."""
from __future__ import annotations

import inspect
import json
import warnings
from typing import Any, Dict, Optional

import numpy as np

from . import _config, _subscale
from ._data import as_matrix
from ._progress import make_progress
from ._results import Clusters

# Keywords of the estimator that are not config keys.
_OWN_PARAMS = {"progress": "auto"}


def _parameters() -> Dict[str, Any]:
    params = _config.parameter_defaults()
    params.update(_OWN_PARAMS)
    return params


def _truth_clusters(truth: Any, points: int, dimensions: int):
    if truth is None:
        return None
    if isinstance(truth, (str, bytes)) or hasattr(truth, "__fspath__"):
        return _subscale.read_ground_truth(str(truth), dimensions, points)[1]
    return list(truth)


class SubspaceClustering:
    """Density-based subspace clustering (SUBSCALE): every subspace in which groups of points are
    dense, and the clusters in each, found without enumerating the 2^d subspaces.

    Every key of the command line's config is a keyword, its dots written as double underscores:
    ``merge__min_points=20`` is ``merge.min_points: 20``. ``threads=None`` uses every core;
    ``consolidate=False`` keeps merge's clusters; ``progress`` is ``"auto"`` (a tqdm bar for runs
    longer than a second, when tqdm is installed), ``False``, or a callable
    ``f(stage, done, total)``. The defaults are the command line's.

    Fitted attributes:

    - ``clusters_``: :class:`Clusters`, a list of ``(dimensions, point_ids)`` uint32 arrays, the
      run's clusters (consolidated, by interest, unless ``consolidate=False``)
    - ``raw_clusters_``: merge's clusters before consolidation (empty when it did not run)
    - ``subspaces_``: the subspaces stage's ``(dimensions, point_ids)``
    - ``scores_``: each cluster's interest, points x dimensions (the order of consolidation)
    - ``labels_``: per point the index of its strongest cluster in ``clusters_``, -1 for noise
    - ``timings_``: seconds per stage; ``plan_``: the dense units and the walk's plan
    - ``summary_``: what the command line writes to summary.json; ``log_``: what log.txt would
      hold (workload warnings are also raised as RuntimeWarning); ``n_features_in_``,
      ``n_samples_``, ``feature_names_in_`` (for a DataFrame), ``input_copied_``

    The result equals ``subscale run`` with the same settings, bit for bit.

    >>> import subscale
    >>> data = subscale.load("datasets/quickstart.h5")                                   # doctest: +SKIP
    >>> model = subscale.SubspaceClustering(epsilon=0.004, min_points=4,
    ...                                     merge__epsilon=0.02, merge__min_points=20)   # doctest: +SKIP
    >>> model.fit(data.values).clusters_                                                # doctest: +SKIP
    Clusters(5 clusters)
    """

    def __init__(self, **params: Any):
        known = _parameters()
        for name in params:
            if name not in known:
                raise TypeError(f"SubspaceClustering() got an unexpected keyword '{name}'"
                                f"{_config.suggest(name, known)}")
        for name, default in known.items():
            setattr(self, name, params.get(name, default))

    # -- scikit-learn's parameter protocol -------------------------------------------------
    @classmethod
    def _get_param_names(cls):
        return sorted(_parameters())

    def get_params(self, deep: bool = True) -> Dict[str, Any]:
        """The estimator's parameters (every keyword of the constructor)."""
        return {name: getattr(self, name) for name in _parameters()}

    def set_params(self, **params: Any) -> "SubspaceClustering":
        """Sets parameters by keyword (``merge__min_points=20`` sets ``merge.min_points``)."""
        known = _parameters()
        for name, value in params.items():
            if name not in known:
                raise ValueError(f"Invalid parameter '{name}' for estimator {type(self).__name__}"
                                 f"{_config.suggest(name, known)}")
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        defaults = _parameters()
        changed = []
        for name, default in defaults.items():
            value = getattr(self, name)
            # A value equal to its default by == but of another type (1 for 1.0) still shows.
            if not (type(value) is type(default) and value == default):
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    def _more_tags(self) -> Dict[str, Any]:
        return {"X_types": ["2darray"], "allow_nan": False, "requires_y": False, "non_deterministic": False}

    # -- fitting -----------------------------------------------------------------------------
    def _library_overrides(self):
        config = {name: value for name, value in self.get_params().items() if name not in _OWN_PARAMS}
        return _config.overrides(config)

    def fit(self, X: Any, y: Any = None, *, truth: Any = None) -> "SubspaceClustering":
        """Runs the pipeline on X (points x dimensions) and returns self.

        X: a 2-D numpy array (float64 or float32, any order: read in place without a copy; other
        dtypes are converted, which copies, and ``input_copied_`` says so), a pandas DataFrame
        (its column names name the dimensions) or :class:`subscale.Data`. ``y`` is ignored.
        ``truth``: hidden clusters (a ``.true`` file or a list of ``(dimensions, point_ids)``) to
        evaluate against; the measures land in ``summary_["evaluation"]``.

        NaN or Inf raise ValueError naming the row and column. Ctrl-C stops the run within about a
        second (KeyboardInterrupt: dense_units, merge and consolidation stop where they next count
        progress, the other stages when they end) and leaves the estimator unfitted.
        """
        # A fit that fails or is interrupted must not leave the previous fit's results beside the new
        # parameters, as if they were this fit's.
        self._clear_fitted()
        matrix = as_matrix(X)
        overrides = self._library_overrides()
        n, d = matrix.values.shape if matrix.values.ndim == 2 else (0, 0)
        progress = make_progress(self.progress)
        try:
            out = _subscale.run(matrix.values, overrides, matrix.columns,
                                _truth_clusters(truth, n, d), progress)
        finally:
            if progress is not None and hasattr(progress, "close"):
                progress.close()
        self._set_fitted(out, matrix)
        return self

    def fit_predict(self, X: Any, y: Any = None, **fit_params: Any) -> np.ndarray:
        """fit(X) and return ``labels_``."""
        return self.fit(X, y, **fit_params).labels_

    def _clear_fitted(self) -> None:
        """Removes the fitted attributes (scikit-learn's names ending in "_"): unfitted again."""
        for name in [name for name in vars(self) if name.endswith("_") and not name.startswith("_")]:
            delattr(self, name)

    def _set_fitted(self, out: Dict[str, Any], matrix) -> None:
        names = matrix.columns
        self.clusters_ = Clusters(out["clusters"], names)
        self.raw_clusters_ = Clusters(out["raw_clusters"] or [], names)
        self.subspaces_ = Clusters(out["subspaces"], names)
        self.n_samples_, self.n_features_in_ = (int(v) for v in matrix.values.shape)
        if names:
            self.feature_names_in_ = np.asarray(names, dtype=object)
        self.scores_ = self.clusters_.interest()
        self.labels_ = self.clusters_.labels(self.n_samples_)
        self.timings_ = dict(out["timings"])
        self.plan_ = dict(out["plan"])
        self.summary_ = json.loads(out["summary"])
        self.config_ = out["config"]
        self.log_ = out["log"]
        self.input_copied_ = matrix.copied
        for warning in out["warnings"]:
            warnings.warn(warning, RuntimeWarning, stacklevel=3)


def plan(X: Any, **params: Any) -> Dict[str, Any]:
    """The cost of a fit before running it: dense units (in all and per dimension), the largest
    window and, in direct mode, the walk's estimated nodes and memory (``subscale plan``).

    >>> subscale.plan(data.values, epsilon=0.004, min_points=4)["total_units"]   # doctest: +SKIP
    8347934
    """
    model = SubspaceClustering(**params)
    matrix = as_matrix(X)
    return dict(_subscale.plan(matrix.values, model._library_overrides(), matrix.columns))


def _signature() -> inspect.Signature:
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    parameters += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
                   for name, default in _parameters().items()]
    return inspect.Signature(parameters)


# scikit-learn (clone, get_params, parameter grids) and help() read the keywords from here.
SubspaceClustering.__init__.__signature__ = _signature()  # type: ignore[attr-defined]
