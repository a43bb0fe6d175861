from os import PathLike
from typing import Any, Callable, Dict, Iterable, List, Literal, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

Cluster = Tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]
ProgressCallback = Callable[[str, int, int], None]
ClusterSource = Union["SubspaceClustering", "RunResult", Sequence[Cluster], str, PathLike[str]]

class Clusters(List[Cluster]):
    dimension_names: List[str]
    scores: npt.NDArray[np.float64]
    point_ids: Optional[npt.NDArray[np.int64]]
    def __init__(self, clusters: Iterable[Cluster] = ..., dimension_names: Sequence[str] = ...,
                 scores: Optional[Sequence[float]] = ...) -> None: ...
    def sizes(self) -> npt.NDArray[np.int64]: ...
    def interest(self) -> npt.NDArray[np.float64]: ...
    def labels(self, points: int) -> npt.NDArray[np.int64]: ...
    def to_frame(self, kind: Literal["clusters", "points"] = ...,
                 points: Union[None, int, Sequence[int]] = ...) -> Any: ...  # pandas.DataFrame

class Data:
    values: npt.NDArray[np.float64]
    columns: List[str]
    labels: Optional[npt.NDArray[np.int64]]
    ids: Optional[npt.NDArray[np.uint64]]
    source: str
    @property
    def shape(self) -> Tuple[int, int]: ...
    def __array__(self, dtype: Any = ...) -> npt.NDArray[Any]: ...
    def to_frame(self) -> Any: ...  # pandas.DataFrame

class _FittedAttributes:  # typing only: the attributes a fit and a run folder share
    clusters_: Clusters
    raw_clusters_: Clusters
    subspaces_: Clusters
    scores_: npt.NDArray[np.float64]
    interest_: npt.NDArray[np.float64]
    labels_: npt.NDArray[np.int64]
    timings_: Dict[str, float]
    summary_: Dict[str, Any]
    config_: str
    n_samples_: int
    n_features_in_: int

class RunResult(_FittedAttributes):
    memberships_: Any  # pandas.DataFrame
    def to_frame(self, kind: Literal["clusters", "points"] = ...) -> Any: ...  # pandas.DataFrame

class SubspaceClustering(_FittedAttributes):
    plan_: Dict[str, Any]
    log_: str
    feature_names_in_: npt.NDArray[np.object_]
    input_copied_: bool
    def __init__(
        self,
        *,
        epsilon: Union[float, Literal["auto"]] = ...,
        min_points: Union[int, Literal["auto"]] = ...,
        mode: Literal["auto", "direct", "signature", "exact"] = ...,
        backend: Literal["auto", "cpu", "cuda"] = ...,
        significance: bool = ...,
        consolidate: Union[bool, str] = ...,
        threads: Optional[int] = ...,
        normalize: Literal["minmax", "none"] = ...,
        input__precision: Literal["float64", "float32"] = ...,
        merge__epsilon: Union[float, Literal["auto"]] = ...,
        merge__min_points: Union[int, Literal["auto"]] = ...,
        progress: Union[Literal["auto"], bool, ProgressCallback, None] = ...,
        **config: Any,
    ) -> None: ...
    def get_params(self, deep: bool = ...) -> Dict[str, Any]: ...
    def set_params(self, **params: Any) -> "SubspaceClustering": ...
    def fit(self, X: Any, y: Any = ..., *, truth: Any = ...) -> "SubspaceClustering": ...
    def fit_predict(self, X: Any, y: Any = ..., **fit_params: Any) -> npt.NDArray[np.int64]: ...
    def predict(self, X: Any) -> npt.NDArray[np.int64]: ...
    def predict_memberships(self, X: Any) -> npt.NDArray[np.bool_]: ...

def load(path: Union[str, PathLike[str]], format: str = ..., dataset: str = ...,
         label_column: Optional[str] = ...) -> Data: ...
def plan(X: Any, **params: Any) -> Dict[str, Any]: ...
def evaluate(found: ClusterSource, truth: Union[Sequence[Cluster], str, PathLike[str], npt.ArrayLike],
             points: Optional[int] = ..., dimensions: Optional[int] = ...) -> Dict[str, float]: ...
def read_run(folder: Union[str, PathLike[str]]) -> RunResult: ...
def significance(X: npt.ArrayLike, clusters: Union[Sequence[Cluster], npt.ArrayLike], alpha: float = ...,
                 correction: str = ..., background_share: float = ...) -> Any: ...
