"""Tests of the issue-24 benchmark scripts (not run in CI: bench/ is not built).

    /usr/bin/python3 -m pytest bench/quality/test_quality_scripts.py
"""

import json
import os
import sys

import h5py
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import families  # noqa: E402
import run_elki  # noqa: E402
import run_families  # noqa: E402


def read_true(path):
    with open(path) as f:
        header = f.readline()
        d = int(header.split(";")[0][4:])
        clusters = []
        for line in f:
            tokens = [int(t) for t in line.split()]
            flags, size, ids = tokens[:d], tokens[d], tokens[d + 1:]
            assert len(ids) == size
            clusters.append(([j for j in range(d) if flags[j]], ids))
    return d, clusters


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    out = tmp_path_factory.mktemp("suite")
    for part, cases in families.PARTS.items():
        folder = out / part
        folder.mkdir()
        manifest = [families.write_case(spec, str(folder)) for spec in cases]
        (folder / "manifest.json").write_text(json.dumps(manifest))
    return out


def test_every_case_has_data_truth_and_labels_that_agree(suite):
    for part, cases in families.PARTS.items():
        for spec in cases:
            with h5py.File(suite / part / (spec["name"] + ".h5")) as f:
                data, labels = f["data"][:], f["labels"][:]
            assert data.shape == (spec["n"], spec["d"]) and data.dtype == np.float64
            d, clusters = read_true(suite / part / (spec["name"] + ".true"))
            assert d == spec["d"] and len(clusters) == len(spec["clusters"])
            for c, ((dims, ids), (k, size)) in enumerate(zip(clusters, spec["clusters"])):
                assert len(dims) == k and len(ids) == size
                assert ids == sorted(ids) and list(np.flatnonzero(labels == c)) == ids


def test_planted_clusters_are_narrow_in_their_subspace_only(suite):
    spec = families.TRAIN[0]
    with h5py.File(suite / "train" / (spec["name"] + ".h5")) as f:
        data = f["data"][:]
    _, clusters = read_true(suite / "train" / (spec["name"] + ".true"))
    for dims, ids in clusters:
        spans = np.ptp(data[ids], axis=0)
        assert all(spans[j] <= 0.05 for j in dims)
        assert all(spans[j] > 0.5 for j in range(data.shape[1]) if j not in dims)


def test_nested_and_overlap_families_share_dimensions():
    nested = next(s for s in families.TRAIN if s["family"] == "nested")
    subspaces = families.choose_subspaces(nested, families.case_rng(nested))
    assert set(subspaces[1]) < set(subspaces[0])
    overlap = next(s for s in families.TRAIN if s["family"] == "overlap")
    subspaces = families.choose_subspaces(overlap, families.case_rng(overlap))
    assert set(subspaces[0]) & set(subspaces[1])


def test_generation_is_deterministic_and_parts_differ():
    spec = families.HELDOUT[3]
    a, _, _ = families.generate(spec)
    b, _, _ = families.generate(spec)
    assert np.array_equal(a, b)
    train_shapes = {(s["family"], s["n"], s["d"], tuple(s["clusters"])) for s in families.TRAIN}
    assert not any((s["family"], s["n"], s["d"], tuple(s["clusters"])) in train_shapes for s in families.HELDOUT)
    assert not {s["seed"] for s in families.TRAIN} & {s["seed"] for s in families.HELDOUT}


def test_integer_grid_values_are_levels():
    spec = next(s for s in families.TRAIN if s["family"] == "intgrid")
    data, _, _ = families.generate(spec)
    assert np.array_equal(data, np.rint(data)) and data.min() >= 0 and data.max() <= spec["levels"] - 1


def test_too_many_cluster_points_is_refused():
    spec = families.case("boxes", "bad", 1, 100, 5, [(2, 80), (2, 40)], shape="box", width=(0.02, 0.04))
    with pytest.raises(ValueError, match="more than n=100"):
        families.generate(spec)


def test_elki_output_is_parsed_with_zero_based_dims_and_row_labels(tmp_path):
    (tmp_path / "cluster_0.txt").write_text(
        "# Cluster: Cluster\n# Cluster noise flag: false\n# Cluster size: 2\n"
        "# Subspace: Dimensions: [1, 3]\nID=5 0.1 0.2 0.3 r4\nID=2 0.1 0.2 0.3 r1\n")
    (tmp_path / "noise.txt").write_text("# Cluster: Noise\n# Cluster noise flag: true\nID=1 0.5 0.5 0.5 r0\n")
    (tmp_path / "settings.txt").write_text("# Settings:\n")
    assert run_elki.parse_elki(str(tmp_path)) == [([0, 2], [1, 4])]


def test_elki_point_without_label_is_an_error(tmp_path):
    (tmp_path / "cluster.txt").write_text("# Cluster noise flag: false\n# Subspace: Dimensions: [1]\nID=1 0.5\n")
    with pytest.raises(ValueError, match="label"):
        run_elki.parse_elki(str(tmp_path))


def test_summary_counts_failures_as_zero_and_reports_the_worst_family():
    rows = [dict(part="train", family="a", file="a-1", e4sc=1.0, f1=1.0, clusters=3, status="ok"),
            dict(part="train", family="a", file="a-2", e4sc=0.0, f1=0.0, clusters="", status="timeout"),
            dict(part="train", family="b", file="b-1", e4sc=0.5, f1=0.7, clusters=9, status="ok")]
    for r in rows:
        r["seconds"] = 1.0
    lines = run_families.summary_tables(rows)
    assert "| train | a | 2 | 0.500 | 0.500 | 3 | 1 |" in lines
    assert any(line.startswith("| train | 3 | 0.500 | 0.700 | 0.500 / 0.600 | 0.500 / 0.500 |") for line in lines)


def test_grid_has_the_72_settings_of_the_old_configs():
    settings = run_families.grid_settings()
    assert len(settings) == 72 and len({tuple(s) for s in settings}) == 72
