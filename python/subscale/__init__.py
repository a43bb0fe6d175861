"""subscale: density-based subspace clustering (SUBSCALE) for high-dimensional data.

>>> import subscale
>>> model = subscale.SubspaceClustering(epsilon=0.004, min_points=4).fit(X)   # doctest: +SKIP
>>> model.clusters_.to_frame()                                               # doctest: +SKIP

The work runs in the library itself (no subprocess, no files); the result equals the command
line's ``subscale run`` with the same settings, bit for bit.
"""
from ._subscale import __version__
from ._data import Data, load
from ._results import Clusters, RunResult, evaluate, read_run
from ._estimator import SubspaceClustering, plan
from ._significance import significance

__all__ = ["SubspaceClustering", "Clusters", "Data", "RunResult", "load", "plan", "evaluate", "read_run",
           "significance", "__version__"]
