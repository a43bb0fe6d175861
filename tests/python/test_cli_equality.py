"""A fit gives what `subscale run` gives for the same settings, bit for bit."""
import json

import numpy as np
import pytest

import subscale
from subscale import SubspaceClustering

from conftest import QUICKSTART, QUICKSTART_PARAMS, QUICKSTART_TRUTH, ROOT, run_cli


def as_lists(clusters):
    return [(dims.tolist(), points.tolist()) for dims, points in clusters]


def text_clusters(path):
    return as_lists(subscale._subscale.read_cluster_text(str(path)))


def assert_same_as_folder(model, folder):
    assert as_lists(model.clusters_) == text_clusters(folder / "clusters.txt")
    assert as_lists(model.subspaces_) == text_clusters(folder / "subspaces.txt")
    if (folder / "clusters_raw.txt").exists():
        assert as_lists(model.raw_clusters_) == text_clusters(folder / "clusters_raw.txt")
    summary = json.loads((folder / "summary.json").read_text())
    assert model.summary_["counts"] == summary["counts"]
    for key in ("evaluation", "evaluation_raw", "consolidate", "seed", "points", "dimensions"):
        assert model.summary_.get(key) == summary.get(key), key


def test_quickstart_equals_the_command_line(quickstart_run):
    model = SubspaceClustering(**QUICKSTART_PARAMS).fit(subscale.load(QUICKSTART), truth=QUICKSTART_TRUTH)
    assert_same_as_folder(model, quickstart_run)
    assert len(model.clusters_) == 5 and model.summary_["evaluation"]["f1"] == 1.0
    assert (quickstart_run / "config.yaml").read_text().split("input:")[0] == model.config_.split("input:")[0]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A generated CSV: float32 values in C order, three hidden clusters in 2-4 of 14 dimensions."""
    rng = np.random.default_rng(11)
    X = rng.uniform(size=(1500, 14)).astype(np.float32)
    for dims, rows, centre in (([0, 3], slice(0, 150), 0.2), ([2, 5, 9], slice(150, 300), 0.6),
                               ([1, 7, 11, 13], slice(300, 420), 0.8)):
        X[rows, dims] = centre + 0.02 * rng.uniform(size=(rows.stop - rows.start, len(dims)))
    folder = tmp_path_factory.mktemp("generated")
    csv = folder / "data.csv"
    header = ",".join(f"f{j}" for j in range(X.shape[1]))
    # repr of each float32 widened to float64 reads back as exactly that float64.
    csv.write_text(header + "\n" + "\n".join(",".join(repr(float(v)) for v in row) for row in X) + "\n")
    return X, csv


# Significance is on (the default) except where said: the automatic choices it brings (merge's
# epsilon and min_points from the data) must be made the same way from the array as from the file.
SETTINGS = [
    dict(epsilon=0.01, min_points=3, merge__epsilon=0.05, merge__min_points=10),
    dict(epsilon=0.01, min_points=3, consolidate=False),
    dict(epsilon=0.008, min_points=3, mode="signature", input__precision="float32", merge__min_points=8),
    dict(epsilon=0.01, min_points=3, normalize="none", consolidate__top_k=2),
    dict(epsilon=0.01, min_points=3, significance=False),
    dict(),  # every parameter chosen from the data
]


@pytest.mark.parametrize("settings", SETTINGS, ids=["default", "no-consolidate", "signature-float32", "none-topk", "no-significance", "all-auto"])
def test_generated_file_equals_the_command_line(generated, tmp_path, settings):
    X, csv = generated
    config = tmp_path / "config.yaml"
    config.write_text(f"input:\n  path: {csv}\n")
    model = SubspaceClustering(**settings)
    folder = run_cli(config, tmp_path / "run", *model._library_overrides())
    assert_same_as_folder(model.fit(X), folder)  # the float32 C-ordered array itself
    assert not model.input_copied_
    assert len(model.clusters_) > 0
    frame_model = SubspaceClustering(**settings).fit(subscale.load(csv).to_frame())
    assert as_lists(frame_model.clusters_) == as_lists(model.clusters_)
    assert frame_model.clusters_.dimension_names == [f"f{j}" for j in range(14)]
