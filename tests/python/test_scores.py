"""One name per quantity: ``scores_`` is the significance score (-log10 of the corrected p-value) that
the report shows and results.h5 holds as /clusters/score; ``interest_`` is points x dimensions."""
import numpy as np
import pytest

import subscale
from subscale import Clusters, SubspaceClustering

from conftest import QUICKSTART, QUICKSTART_PARAMS


@pytest.fixture(scope="module")
def fitted():
    return SubspaceClustering(**QUICKSTART_PARAMS, progress=False).fit(subscale.load(QUICKSTART))


def h5_scores(folder, group):
    h5py = pytest.importorskip("h5py")
    with h5py.File(folder / "results.h5", "r") as f:
        return f[f"/{group}/score"][()]


def test_scores_are_the_significance_scores_results_h5_holds(fitted, quickstart_run):
    np.testing.assert_array_equal(fitted.scores_, h5_scores(quickstart_run, "clusters"))
    np.testing.assert_array_equal(fitted.raw_clusters_.scores, h5_scores(quickstart_run, "raw_clusters"))
    assert fitted.scores_.dtype == np.float64 and np.all(np.diff(fitted.scores_) <= 0)  # strongest first


def test_read_run_gives_the_same_scores(fitted, quickstart_run):
    run = subscale.read_run(quickstart_run)
    np.testing.assert_array_equal(run.scores_, fitted.scores_)
    np.testing.assert_array_equal(run.interest_, fitted.interest_)


def test_interest_is_points_times_dimensions(fitted):
    assert fitted.interest_.tolist() == [len(p) * len(d) for d, p in fitted.clusters_]
    assert not np.array_equal(fitted.interest_, fitted.scores_)


def test_without_significance_there_are_no_scores():
    X = subscale.load(QUICKSTART).values
    model = SubspaceClustering(**QUICKSTART_PARAMS, significance=False, progress=False).fit(X)
    assert len(model.clusters_) > 0 and np.isnan(model.scores_).all()
    assert model.interest_.tolist() == [len(p) * len(d) for d, p in model.clusters_]


def test_without_consolidation_the_scores_are_merges(fitted):
    X = subscale.load(QUICKSTART).values
    model = SubspaceClustering(**QUICKSTART_PARAMS, consolidate=False, progress=False).fit(X)
    assert len(model.scores_) == len(model.clusters_) == len(fitted.raw_clusters_)
    np.testing.assert_array_equal(model.scores_, fitted.raw_clusters_.scores)


def test_to_frame_carries_score_and_interest(fitted):
    pytest.importorskip("pandas")
    frame = fitted.clusters_.to_frame()
    np.testing.assert_array_equal(frame["score"], fitted.scores_)
    np.testing.assert_array_equal(frame["interest"], fitted.interest_)
    assert np.isnan(Clusters([([0], [1, 2])]).to_frame()["score"]).all()


def test_clusters_refuse_a_score_count_that_differs():
    with pytest.raises(ValueError, match="one score a cluster"):
        Clusters([([0], [1, 2])], scores=[1.0, 2.0])
