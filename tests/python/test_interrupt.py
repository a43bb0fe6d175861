"""Ctrl-C during a fit stops it within a second and leaves the interpreter usable."""
import os
import signal
import threading
import time

import numpy as np
import pytest

from subscale import SubspaceClustering, plan


@pytest.fixture(scope="module")
def slow():
    """Data and settings whose dense_units stage takes well over a second on two cores."""
    rng = np.random.default_rng(5)
    X = rng.uniform(size=(3000, 24))
    params = dict(epsilon=0.04, min_points=3, consolidate=False, merge=False)
    return X, params


@pytest.fixture
def default_sigint():
    """Python's own Ctrl-C handler, which a shell does not give a job it starts in the background
    (SIGINT ignored from the start: Python then leaves it ignored and no KeyboardInterrupt comes)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_the_run(slow, default_sigint):
    X, params = slow
    assert plan(X, **params)["total_units"] > 3 * 10**8  # several seconds of work on two cores
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    model = SubspaceClustering(**params, progress=False)
    with pytest.raises(KeyboardInterrupt):
        model.fit(X)
    stopped = time.monotonic() - start - 0.5
    timer.join()
    assert stopped < 1.0, f"the run took {stopped:.2f} s to stop after Ctrl-C"
    assert not hasattr(model, "clusters_")
    small = SubspaceClustering(epsilon=0.05, min_points=3, progress=False).fit(X[:200, :5])
    assert small.n_samples_ == 200  # the interpreter and the library still work


def test_an_exception_in_the_progress_callback_stops_the_run(slow):
    X, params = slow

    class Stop(Exception):
        pass

    seen = []

    def progress(stage, done, total):
        seen.append((stage, done, total))
        if stage == "dense_units" and done > 0:
            assert 0 < done <= total
            raise Stop

    start = time.monotonic()
    with pytest.raises(Stop):
        SubspaceClustering(**params, progress=progress).fit(X)
    assert time.monotonic() - start < 5.0
    assert seen[0][0] in ("density1d", "plan", "dense_units")
