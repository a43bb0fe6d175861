"""evaluate, read_run and the Clusters type, against the command line's run folder."""
import json

import numpy as np
import pytest

import subscale
from subscale import Clusters

from conftest import QUICKSTART_TRUTH


def test_read_run_gives_the_folders_clusters(quickstart_run):
    run = subscale.read_run(quickstart_run)
    text = subscale._subscale.read_cluster_text(str(quickstart_run / "clusters.txt"))
    assert len(run.clusters_) == len(text) == 5
    for (dims, points), (text_dims, text_points) in zip(run.clusters_, text):
        np.testing.assert_array_equal(dims, text_dims)
        np.testing.assert_array_equal(points, text_points)
        assert dims.dtype == np.uint32 and points.dtype == np.uint32
    assert len(run.raw_clusters_) == 40
    assert len(run.subspaces_) == run.summary_["counts"]["subspaces"]
    assert run.n_samples_ == 1000 and run.n_features_in_ == 20
    assert set(run.timings_) >= {"density1d", "dense_units", "merge", "consolidate"}
    assert "epsilon: 0.004" in run.config_


def test_read_run_refuses_what_is_not_a_finished_run(tmp_path):
    with pytest.raises(ValueError, match="not a folder"):
        subscale.read_run(tmp_path / "nothing")
    with pytest.raises(ValueError, match="no summary.json"):
        subscale.read_run(tmp_path)


def test_evaluate_matches_the_command_lines_evaluation(quickstart_run):
    summary = json.loads((quickstart_run / "summary.json").read_text())
    run = subscale.read_run(quickstart_run)
    for found, key in ((run, "evaluation"), (run.raw_clusters_, "evaluation_raw")):
        measures = subscale.evaluate(found, QUICKSTART_TRUTH, points=1000, dimensions=20)
        for name in ("f1", "e4sc", "rnia", "ce", "coverage", "f1_recall"):
            assert measures[name] == summary[key][name], (key, name)


def test_evaluate_takes_a_folder_and_lists(quickstart_run):
    truth_dims, truth = subscale._subscale.read_ground_truth(str(QUICKSTART_TRUTH))
    assert truth_dims == 20
    by_folder = subscale.evaluate(quickstart_run, QUICKSTART_TRUTH, points=1000)
    by_lists = subscale.evaluate(subscale.read_run(quickstart_run).clusters_, truth, points=1000, dimensions=20)
    assert by_folder == by_lists
    assert by_lists["f1"] == 1.0 and by_lists["ce"] == 0.0


def test_evaluate_on_a_simple_reference():
    truth = [([0, 1], [0, 1, 2, 3])]
    found = [([0, 1], [0, 1]), ([2], [5])]
    m = subscale.evaluate(found, truth, points=6, dimensions=3)
    # E4SC: recall max F1 = 2*4/(4+8) = 2/3; precision = (2/3 + 0) / 2 = 1/3; E4SC = 2*(2/9)/(1) = 4/9
    assert m["e4sc"] == pytest.approx(4 / 9)
    assert m["coverage"] == pytest.approx(3 / 6)
    assert m["found_clusters"] == 2 and m["hidden_clusters"] == 1


def test_evaluate_refuses_bad_clusters():
    with pytest.raises(ValueError, match=r"found\[0\]'s point ids holds 1 twice"):
        subscale.evaluate([([0], [1, 1])], [([0], [1])], points=3, dimensions=1)
    with pytest.raises(ValueError, match=r"found\[0\] must be a pair"):
        subscale.evaluate([([0], [1], [2])], [([0], [1])], points=3, dimensions=1)
    with pytest.raises(ValueError, match="outside"):
        subscale.evaluate([([0], [-1])], [([0], [1])], points=3, dimensions=1)
    with pytest.raises(ValueError):
        subscale.evaluate([([0], [7])], [([0], [1])], points=3, dimensions=1)  # past the points


def test_clusters_labels_take_the_strongest():
    clusters = Clusters([(np.array([0], np.uint32), np.array([0, 1, 2], np.uint32)),
                         (np.array([0, 1], np.uint32), np.array([2, 3], np.uint32)),
                         (np.array([2], np.uint32), np.array([4], np.uint32))])
    np.testing.assert_array_equal(clusters.interest(), [3, 4, 1])
    np.testing.assert_array_equal(clusters.labels(6), [0, 0, 1, 1, 2, -1])


def test_to_frame_round_trip(quickstart_run):
    pd = pytest.importorskip("pandas")
    run = subscale.read_run(quickstart_run)
    names = [f"d{j}" for j in range(20)]
    clusters = Clusters(run.clusters_, names)
    frame = clusters.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) == 5
    assert list(frame["n_points"]) == [len(p) for _, p in run.clusters_]
    assert frame["dimension_names"][0] == tuple(names[d] for d in run.clusters_[0][0])
    back = Clusters(zip(frame["dimensions"].map(lambda t: np.array(t, np.uint32)), frame["points"]))
    for (a_dims, a_points), (b_dims, b_points) in zip(back, run.clusters_):
        np.testing.assert_array_equal(a_dims, b_dims)
        np.testing.assert_array_equal(a_points, b_points)
