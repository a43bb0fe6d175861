"""Progress of a fit: a callback, a tqdm bar, or nothing."""
from __future__ import annotations

from typing import Any, Callable, Optional

ProgressCallback = Callable[[str, int, int], None]


class _TqdmProgress:
    """A tqdm bar per counted stage (dense_units counts units), shown only when the stage lasts
    longer than a second, so that short fits print nothing."""

    def __init__(self, tqdm: Any):
        self._tqdm = tqdm
        self._bar = None
        self._stage = ""

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self._stage:
            self.close()
            self._stage = stage
            if total > 0:
                self._bar = self._tqdm(total=total, desc=stage, unit=" units", unit_scale=True, delay=1.0,
                                       leave=False)
        if self._bar is not None:
            self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def make_progress(progress: Any) -> Optional[ProgressCallback]:
    """progress: "auto" (tqdm when it is installed), False/None (nothing), or a callable
    ``f(stage, done, total)`` called from the thread that called fit, about ten times a second."""
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress
    if progress in ("auto", True, "tqdm"):
        try:
            from tqdm.auto import tqdm
        except ImportError:
            if progress == "tqdm":
                raise
            return None
        return _TqdmProgress(tqdm)
    raise ValueError(f"progress={progress!r}: use 'auto', False, or a callable f(stage, done, total)")
