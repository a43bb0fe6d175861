"""SubspaceClustering: the library's run as a scikit-learn estimator.

scikit-learn is optional. Where it is installed, the estimator is a ``BaseEstimator`` and a
``ClusterMixin`` (clone, repr, the Jupyter HTML repr, tags and the estimator checks are
scikit-learn's own); without it, :class:`_ParameterProtocol` stands in with the same
``get_params``, ``set_params`` and repr, so the package still works with numpy alone.
"""
from __future__ import annotations

import inspect
import json
import keyword
import textwrap
import warnings
from typing import Any, Dict, List, Tuple

import numpy as np

from . import _config, _subscale
from ._data import as_matrix
from ._memberships import strongest
from ._progress import make_progress
from ._results import Clusters, scores_or_nan

# Keywords of the estimator that are not config keys.
_OWN_PARAMS = {"progress": "auto"}


def _parameters() -> Dict[str, Any]:
    params = _config.parameter_defaults()
    params.update(_OWN_PARAMS)
    return params


class _ParameterProtocol:
    """scikit-learn's parameter protocol where scikit-learn is not installed: the parameters are
    the keywords of ``__init__``, and the repr shows those that differ from their defaults."""

    @classmethod
    def _get_param_names(cls) -> List[str]:
        return sorted(name for name in inspect.signature(cls.__init__).parameters if name != "self")

    def get_params(self, deep: bool = True) -> Dict[str, Any]:
        return {name: getattr(self, name) for name in self._get_param_names()}

    def __repr__(self) -> str:
        defaults = {name: p.default for name, p in inspect.signature(type(self).__init__).parameters.items()}
        changed = [f"{name}={value!r}" for name, value in self.get_params().items()
                   if repr(value) != repr(defaults[name])]
        return f"{type(self).__name__}({', '.join(changed)})"


class _ClusterStandIn:
    _estimator_type = "clusterer"


try:
    from sklearn.base import BaseEstimator as _Base, ClusterMixin as _Cluster
    from sklearn.exceptions import NotFittedError
except ImportError:
    _Base, _Cluster = _ParameterProtocol, _ClusterStandIn

    class NotFittedError(ValueError, AttributeError):  # type: ignore[no-redef]
        """scikit-learn's exception for a model used before fit, where scikit-learn is not installed."""


def _stores_keywords(defaults: Dict[str, Any]):
    """An ``__init__`` with one keyword-only parameter per key, each stored as given.

    Written out (as dataclasses write theirs) rather than taking ``**params``, so that its
    signature, help() and scikit-learn's introspection all see the real keywords and defaults."""
    names = list(defaults)
    bad = [n for n in names if not n.isidentifier() or keyword.iskeyword(n)]
    if bad:
        raise RuntimeError(f"config keys that cannot be keywords: {bad}")
    source = (f"def __init__(self, *, {', '.join(f'{n}=_defaults[{n!r}]' for n in names)}):\n"
              + "".join(f"    self.{n} = {n}\n" for n in names))
    namespace: Dict[str, Any] = {"_defaults": dict(defaults), "__name__": __name__}
    exec(source, namespace)  # noqa: S102 - the names are the schema's keys, checked above
    init = namespace["__init__"]
    init.__qualname__ = "SubspaceClustering.__init__"
    init.__doc__ = "Stores every keyword as given; fit checks them."
    return init


class SubspaceClustering(_Cluster, _Base):
    """Density-based subspace clustering (SUBSCALE).

    Finds every subspace (set of dimensions) in which groups of points are dense, and the clusters
    in each, without enumerating the 2^d subspaces. The work runs in the library itself, on a
    thread of its own; the result equals ``subscale run`` with the same settings, bit for bit.

    Every key of the command line's config is a keyword, its dots written as double underscores
    (``merge__min_points=20`` is ``merge.min_points: 20``); the defaults are the command line's.
    The keys that name a file, a run folder or the command line's display have no keyword.

    Parameters
    ----------
    epsilon : float or 'auto', default='auto'
        1-D density radius on each dimension's [0, 1] scale (strict: ``|x - y| < epsilon``).
        ``'auto'``: from the data's spacing.
    min_points : int or 'auto', default='auto'
        Points in a dense unit (SUBSCALE's tau + 1), at least 2. ``'auto'``: the largest value in
        [2, 4] whose dense units fit the core's work budget.
    mode : {'auto', 'direct', 'signature', 'exact'}, default='auto'
        How dense units find their subspace: ``'direct'`` from the coordinates, ``'signature'``
        the published method's signature table, ``'exact'`` a table keyed by point ids (the
        reference). All three give the same clusters; ``'auto'`` is ``'direct'``.
    backend : {'auto', 'cpu', 'cuda'}, default='auto'
        Where the core runs; ``'auto'``: the GPU when the CUDA backend is built, a GPU is usable
        and the work is large.
    significance : bool, default=True
        Keep only clusters denser than the data's own per-dimension distributions predict,
        strongest first (``significance.enabled``). False keeps every cluster merge and
        consolidation find, and ``scores_`` is NaN.
    consolidate : bool, default=True
        Join the clusters of one hidden cluster's projections into one cluster in the union of
        their subspaces (``consolidate.enabled``); False keeps merge's clusters.
    threads : int or None, default=None
        CPU threads; None uses every core.
    normalize : {'minmax', 'none'}, default='minmax'
        Per-dimension scaling to [0, 1] before clustering.
    input__precision : {'float64', 'float32'}, default='float64'
        Precision the values are held and compared in after normalisation (float32: half the
        memory).
    merge__epsilon : float or 'auto', default='auto'
        DBSCAN radius in each subspace, inclusive; ``'auto'``: 4 x epsilon with significance,
        else epsilon.
    merge__min_points : int or 'auto', default='auto'
        DBSCAN min_points in each subspace, the point itself included; ``'auto'``: min_points.
    progress : 'auto', bool or callable, default='auto'
        ``'auto'`` draws a tqdm bar for fits longer than a second when tqdm is installed; False
        draws none; a callable is called as ``f(stage, done, total)`` about ten times a second,
        from the thread that called fit.

    Attributes
    ----------
    clusters_ : Clusters
        The run's clusters (consolidated unless ``consolidate=False``), strongest first: a list of
        ``(dimensions, point_ids)`` uint32 arrays; ``clusters_.to_frame()`` is a table of them.
    raw_clusters_ : Clusters
        Merge's clusters before consolidation; empty when consolidation did not run.
    subspaces_ : Clusters
        The subspaces stage's ``(dimensions, point_ids)``, before merge.
    scores_ : ndarray of shape (n_clusters,)
        Each cluster's significance score, -log10 of its corrected p-value (higher is stronger): the
        score the run's report shows and results.h5 holds as ``/clusters/score``. NaN when
        ``significance=False``.
    interest_ : ndarray of shape (n_clusters,)
        Each cluster's interest, points x dimensions (the order of consolidation).
    labels_ : ndarray of shape (n_samples,)
        Each point's strongest cluster (its index in ``clusters_``), -1 for none. A point may lie in
        several subspace clusters; ``clusters_`` holds them all.
    timings_ : dict
        Seconds per stage.
    plan_ : dict
        The dense units and the walk's plan.
    summary_ : dict
        What the command line writes to summary.json.
    config_ : str
        The resolved config, as config.yaml would hold it.
    log_ : str
        What log.txt would hold; warnings about the workload are raised as RuntimeWarning too.
    n_samples_ : int
        Number of points seen by fit.
    n_features_in_ : int
        Number of dimensions seen by fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        The DataFrame's column names; set only when X was a DataFrame.
    input_copied_ : bool
        True when X had to be converted (dtype, byte order, strides) before the run read it.

    See Also
    --------
    subscale.plan : the cost of a fit before running it.
    subscale.evaluate : quality measures against hidden clusters.
    subscale.read_run : a run folder of the command line, read into the same attributes.

    Examples
    --------
    >>> import subscale
    >>> data = subscale.load("datasets/quickstart.h5")
    >>> model = subscale.SubspaceClustering(epsilon=0.004, min_points=4,
    ...                                     merge__epsilon=0.02, merge__min_points=20)
    >>> model.fit(data.values).clusters_
    Clusters(5 clusters)
    >>> [len(dims) for dims, points in model.clusters_]
    [6, 5, 4, 3, 2]
    >>> model.clusters_.to_frame()[["n_dimensions", "n_points"]].loc[0].tolist()
    [6, 170]
    >>> bool(model.scores_[0] > 100)
    True
    """

    __init__ = _stores_keywords(_parameters())

    def __new__(cls, *args: Any, **params: Any):
        # An unknown keyword is refused here, before __init__, with the nearest one suggested: with
        # some sixty keywords a typo is likely, and __init__ only stores what it is given (the rule
        # that lets clone and the estimator checks rebuild a model from its parameters).
        known = _parameters()
        for name in params:
            if name not in known:
                raise TypeError(f"{cls.__name__}() got an unexpected keyword '{name}'"
                                f"{_config.suggest(name, known)}")
        return super().__new__(cls)

    def set_params(self, **params: Any) -> "SubspaceClustering":
        """Sets parameters by keyword and returns the estimator.

        Parameters
        ----------
        **params
            Keywords of the constructor: ``merge__min_points=20`` sets ``merge.min_points``.
            (scikit-learn's own set_params would read the double underscore as a nested
            estimator's parameter.)

        Returns
        -------
        self : SubspaceClustering
        """
        known = _parameters()
        for name in params:
            if name not in known:
                raise ValueError(f"Invalid parameter '{name}' for estimator {type(self).__name__}"
                                 f"{_config.suggest(name, known)}")
        for name, value in params.items():
            setattr(self, name, value)
        return self

    # -- fitting -----------------------------------------------------------------------------
    def _library_overrides(self):
        config = {name: getattr(self, name) for name in _parameters() if name not in _OWN_PARAMS}
        return _config.overrides(config)

    def fit(self, X: Any, y: Any = None, *, truth: Any = None) -> "SubspaceClustering":
        """Runs the pipeline on X and returns the fitted estimator.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            A 2-D float64 or float32 array of any order and strides is read in place, without a
            copy; other dtypes are converted (a copy, and ``input_copied_`` says so). A DataFrame's
            column names name the dimensions; :class:`subscale.Data` is read as its values.
        y : None
            Ignored.
        truth : str, path or list of (dimensions, point_ids), optional
            Hidden clusters (a ``.true`` file or a list) to evaluate against; the measures land in
            ``summary_["evaluation"]``.

        Returns
        -------
        self : SubspaceClustering

        Raises
        ------
        ValueError
            For a bad parameter (naming it), NaN or Inf (naming the row and column), or data that
            is not a 2-D matrix of numbers.
        KeyboardInterrupt
            On Ctrl-C, within about a second; the estimator is left unfitted.
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
        """Fits on X and returns ``labels_``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            As for :meth:`fit`.
        y : None
            Ignored.
        **fit_params
            Passed to :meth:`fit` (``truth=``).

        Returns
        -------
        labels : ndarray of shape (n_samples,)
            Each point's strongest cluster, -1 for none.
        """
        return self.fit(X, y, **fit_params).labels_

    def predict(self, X: Any) -> np.ndarray:
        """Each new point's strongest cluster, as ``labels_`` is each fitted point's.

        A point belongs to a cluster when it lies within ``merge.epsilon`` of one of the points the
        cluster was found with, in the cluster's subspace: the rule by which a run on a sample
        extends the sample's clusters to every point (docs/sampling.md §3), in the run's own
        arithmetic. X is first put where the fit put its data: normalised with the fitted data's
        minimum and maximum, held in the fit's precision, repeated columns read once and columns
        on levels scaled as the fit scaled them.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            New points, with the fitted data's columns (a DataFrame's names as in fit). Read as
            :meth:`fit` reads X; a single point is a matrix of one row.

        Returns
        -------
        labels : ndarray of shape (n_samples,)
            The index in ``clusters_`` of each point's strongest cluster (the one of the highest
            ``interest_``, the first on ties, as in ``labels_``), -1 for none. After a fit that
            took a sample, ``predict(X)`` on the fitted X is ``labels_``; after a fit on every
            point, a cluster's points are predicted in it, with some more points near it
            (docs/python.md §5).

        Raises
        ------
        NotFittedError
            Before fit.
        ValueError
            For another number of columns than fit saw, other column names, NaN or Inf (naming
            the row and column), or data that is not a 2-D matrix of numbers.

        Examples
        --------
        >>> data = subscale.load("datasets/quickstart.h5")
        >>> model = subscale.SubspaceClustering(epsilon=0.004, min_points=4, merge__epsilon=0.02,
        ...                                     merge__min_points=20).fit(data.values)
        >>> labels = model.predict(data.values)
        >>> bool((labels[model.labels_ >= 0] >= 0).all())  # every clustered point is in a cluster
        True
        >>> model.predict(data.values[:1] + 10.0).tolist()  # far from every cluster
        [-1]
        """
        members, rows = self._members(X)
        return strongest(members, self.interest_, rows)

    def predict_memberships(self, X: Any) -> np.ndarray:
        """Every cluster each new point belongs to, by the rule of :meth:`predict`.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            As for :meth:`predict`.

        Returns
        -------
        memberships : ndarray of bool, shape (n_samples, n_clusters)
            ``memberships[i, c]``: point i belongs to ``clusters_[c]``. On the fitted X after a
            fit that took a sample, column c is true exactly at ``clusters_[c]``'s points.

        Raises
        ------
        NotFittedError
            Before fit.
        ValueError
            As :meth:`predict` raises.

        Examples
        --------
        >>> data = subscale.load("datasets/quickstart.h5")
        >>> model = subscale.SubspaceClustering(epsilon=0.004, min_points=4, merge__epsilon=0.02,
        ...                                     merge__min_points=20).fit(data.values)
        >>> memberships = model.predict_memberships(data.values)
        >>> memberships.shape
        (1000, 5)
        >>> [bool(memberships[points, c].all()) for c, (dims, points) in enumerate(model.clusters_)]
        [True, True, True, True, True]
        """
        members, rows = self._members(X)
        out = np.zeros((rows, len(members)), dtype=bool)
        for c, points in enumerate(members):
            out[points, c] = True
        return out

    def _members(self, X: Any) -> Tuple[List[np.ndarray], int]:
        """Per cluster the rows of X that belong to it (predict's rule), and the rows of X."""
        model = self._fitted_membership()
        matrix = as_matrix(X, least=1)
        names = self._checked_names(matrix.columns)
        if matrix.values.ndim != 2:
            raise ValueError(f"Expected a 2-D array (points x dimensions), got {matrix.values.ndim}-D: Reshape "
                             "your data with X.reshape(1, -1) for a single point")
        if matrix.values.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {matrix.values.shape[1]} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input")
        backend = str(self.backend).lower()
        if backend == "auto":
            backend = "cuda" if model["backend"] == "cuda" and _subscale.cuda_available() else "cpu"
        threads = self.threads if isinstance(self.threads, (int, np.integer)) and self.threads > 0 else 0
        members = list(_subscale.members(matrix.values, model, backend, int(threads), names))
        return members, int(matrix.values.shape[0])

    def _fitted_membership(self) -> Dict[str, Any]:
        if not hasattr(self, "clusters_"):
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet. Call 'fit' with "
                                 "appropriate arguments before using this estimator.")
        model = getattr(self, "_membership", None)
        if model is None:
            raise ValueError(f"this {type(self).__name__} was fitted by a version of subscale without predict, "
                             "which kept nothing to predict with: fit it again to predict")
        return model

    def _checked_names(self, names: List[str]) -> List[str]:
        """X's column names, checked against the fit's as scikit-learn checks them (the same
        messages; a missing side is a warning, as there); the names to report cells by."""
        fitted = getattr(self, "feature_names_in_", None)
        kind = type(self).__name__
        if fitted is None:
            if names:
                warnings.warn(f"X has feature names, but {kind} was fitted without feature names", UserWarning,
                              stacklevel=3)
            return []
        if not names:
            warnings.warn(f"X does not have valid feature names, but {kind} was fitted with feature names",
                          UserWarning, stacklevel=3)
            return [str(n) for n in fitted]
        if list(fitted) != names:
            unseen = sorted(set(names) - set(fitted))
            missing = sorted(set(fitted) - set(names))

            def listed(values: List[str]) -> str:
                return "".join(f"- {v}\n" for v in values[:5]) + ("- ...\n" if len(values) > 5 else "")

            message = "The feature names should match those that were passed during fit.\n"
            if unseen:
                message += "Feature names unseen at fit time:\n" + listed(unseen)
            if missing:
                message += "Feature names seen at fit time, yet now missing:\n" + listed(missing)
            if not unseen and not missing:
                message += "Feature names must be in the same order as they were in fit.\n"
            raise ValueError(message)
        return names
    def _clear_fitted(self) -> None:
        """Removes the fitted attributes (scikit-learn's names ending in "_", and what predict
        reads): unfitted again."""
        for name in [name for name in vars(self) if name.endswith("_") and not name.startswith("_")]:
            delattr(self, name)
        self.__dict__.pop("_membership", None)

    def _set_fitted(self, out: Dict[str, Any], matrix) -> None:
        names = matrix.columns
        self.clusters_ = Clusters(out["clusters"], names, scores=scores_or_nan(out["scores"], len(out["clusters"])))
        raw = out["raw_clusters"] or []
        self.raw_clusters_ = Clusters(raw, names, scores=scores_or_nan(out["raw_scores"], len(raw)))
        self.subspaces_ = Clusters(out["subspaces"], names)
        self.n_samples_, self.n_features_in_ = (int(v) for v in matrix.values.shape)
        if names:
            self.feature_names_in_ = np.asarray(names, dtype=object)
        self.scores_ = self.clusters_.scores
        self.interest_ = self.clusters_.interest()
        self.labels_ = self.clusters_.labels(self.n_samples_)
        self.clusters_.point_ids = self.n_samples_  # to_frame(kind="points") lists rows 0 to n - 1
        self.timings_ = dict(out["timings"])
        self.plan_ = dict(out["plan"])
        self.summary_ = json.loads(out["summary"])
        self.config_ = out["config"]
        self.log_ = out["log"]
        self.input_copied_ = matrix.copied
        # What predict reads: the fit's map to the searched values and, per cluster, the points it
        # was found with in its subspace (python/src/membership_model.hpp).
        self._membership = out["membership"]
        for warning in out["warnings"]:
            warnings.warn(warning, RuntimeWarning, stacklevel=3)


def _truth_clusters(truth: Any, points: int, dimensions: int):
    if truth is None:
        return None
    if isinstance(truth, (str, bytes)) or hasattr(truth, "__fspath__"):
        return _subscale.read_ground_truth(str(truth), dimensions, points)[1]
    return list(truth)


def _type_words(key: Dict[str, Any]) -> str:
    kind = key["kind"]
    if key["choices"]:
        words = "{" + ", ".join(repr(c if kind == "string" else _config._parse_default(dict(key, default=c)))
                                for c in key["choices"]) + "}"
    else:
        words = {"integer": "int", "number": "float", "boolean": "bool",
                 "bytes": "int or str"}.get(kind, "str")
    if key["allow_auto"] and "'auto'" not in words:
        words += " or 'auto'"
    return words


def _other_parameters(documented: str) -> str:
    """The numpydoc section of the keywords the class docstring leaves out, from the schema's own
    descriptions (those of ``subscale run --help``), so that help() lists every keyword."""
    lines = ["Other Parameters", "----------------"]
    for name, default in _parameters().items():
        if f"\n    {name} : " in documented:
            continue
        path = _config._section_switch(name) or _config.key_path(name)
        key = _config.SCHEMA[path]
        lines.append(f"{name} : {_type_words(key)}, default={default!r}")
        text = f"``{path}`` in a config: {key['help']}."
        lines += textwrap.wrap(text, 92, initial_indent="    ", subsequent_indent="    ", break_on_hyphens=False)
    return textwrap.indent("\n".join(lines), "    ") + "\n\n"


# help() and IDEs show the class's signature from __new__ unless told: the keywords of __init__.
SubspaceClustering.__signature__ = inspect.signature(SubspaceClustering.__init__).replace(  # type: ignore[attr-defined]
    parameters=list(inspect.signature(SubspaceClustering.__init__).parameters.values())[1:])
SubspaceClustering.__doc__ = SubspaceClustering.__doc__.replace(
    "\n    Attributes\n", "\n" + _other_parameters(SubspaceClustering.__doc__) + "    Attributes\n", 1)


def plan(X: Any, **params: Any) -> Dict[str, Any]:
    """The cost of a fit before running it, as ``subscale plan`` prints it.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        The data, as for :meth:`SubspaceClustering.fit`.
    **params
        The keywords of :class:`SubspaceClustering`.

    Returns
    -------
    plan : dict
        ``points``, ``dimensions``, ``mode``, ``total_units`` (dense units in all),
        ``units_per_dimension``, ``largest_window`` and ``held_bytes``; in direct mode also the
        walk's estimated nodes and memory (``walk_nodes``, ``subspaces_at_least``,
        ``table_bytes_at_least``, ...), in the other modes ``partitions`` and
        ``false_match_probability``.

    Examples
    --------
    >>> data = subscale.load("datasets/quickstart.h5")
    >>> cost = subscale.plan(data.values, epsilon=0.004, min_points=4)
    >>> cost["mode"], cost["points"], cost["dimensions"]
    ('direct', 1000, 20)
    """
    model = SubspaceClustering(**params)
    matrix = as_matrix(X)
    return dict(_subscale.plan(matrix.values, model._library_overrides(), matrix.columns))
