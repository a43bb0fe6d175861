"""Tests of the bench/quality scripts (not run in CI: bench/ is not built).

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
import real_world  # noqa: E402
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


def columns_of(spec):
    """The columns a case's file has: d, twice d with every column repeated, d + k with k more."""
    if spec.get("duplicate") and spec["family"] != "dupbase":
        return 2 * spec["d"] if spec["duplicate"] == "all" else spec["d"] + spec["duplicate"]
    return spec["d"]


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
            assert data.shape == (spec["n"], columns_of(spec)) and data.dtype == np.float64
            d, clusters = read_true(suite / part / (spec["name"] + ".true"))
            assert d == columns_of(spec) and len(clusters) == len(spec["clusters"])
            for c, ((dims, ids), (k, size)) in enumerate(zip(clusters, spec["clusters"])):
                assert (len(dims) == k or spec.get("duplicate")) and len(ids) == size
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


def grid_case(family, part="grids"):
    return next(s for s in families.PARTS[part] if s["family"] == family)


def test_resolution_grids_hold_integer_levels_and_their_heavy_share():
    for spec in families.GRIDS_TRAIN + families.GRIDS_HELDOUT:
        if not isinstance(spec.get("levels"), int) or spec.get("duplicate"):
            continue  # a x + b of a level is no level
        data, _, truth = families.generate(spec)
        assert np.array_equal(data, np.rint(data)) and data.min() >= 0 and data.max() <= spec["levels"] - 1
        if spec.get("heavy"):
            shares = [np.unique(data[:, j], return_counts=True)[1].max() / len(data) for j in range(data.shape[1])]
            assert np.median(shares) >= spec["heavy"] - 0.02 and max(shares) <= 0.5, spec["name"]
        for dims, ids in truth:  # Gaussian members: sd 0.008-0.04 of the range in their dimensions
            sd = data[np.ix_(ids, dims)].std(axis=0) / (spec["levels"] - 1)
            assert all(sd <= 0.06), spec["name"]


def test_mixed_grids_have_columns_of_several_resolutions():
    data, _, _ = families.generate(grid_case("gridmixed"))
    distinct = {len(np.unique(data[:, j])) for j in range(data.shape[1])}
    assert min(distinct) <= 10 and max(distinct) == len(data)


def test_repeated_columns_are_copies_of_the_base_file_and_in_the_truth():
    for tag in ("s1", "s2"):
        spec = next(s for s in families.GRIDS_TRAIN if s["name"] == f"dupcols-{tag}")
        base = next(s for s in families.GRIDS_TRAIN if s["name"] == f"dupbase-{tag}")
        data, labels, truth = families.generate(spec)
        base_data, base_labels, base_truth = families.generate(base)
        assert np.array_equal(labels, base_labels)
        normalise = lambda x: (x - x.min(0)) / np.ptp(x, axis=0)  # noqa: E731
        a, b = normalise(data), normalise(base_data)
        for j in range(data.shape[1]):  # every column is a base column, or its mirror
            assert any(np.allclose(a[:, j], b[:, i], atol=1e-12) or np.allclose(a[:, j], 1 - b[:, i], atol=1e-12)
                       for i in range(b.shape[1]))
        for (dims, ids), (base_dims, base_ids) in zip(truth, base_truth):
            assert list(ids) == list(base_ids) and len(dims) >= len(base_dims)
            if spec["duplicate"] != "all":  # the extra columns are appended
                assert set(base_dims) <= set(dims)
        assert sum(len(dims) for dims, _ in truth) > sum(len(dims) for dims, _ in base_truth)
    spec = next(s for s in families.GRIDS_TRAIN if s["name"] == "dupcols-s1")
    _, _, truth = families.generate(spec)
    assert all(len(dims) == 2 * k for (dims, _), (k, _) in zip(truth, spec["clusters"]))


def test_stretched_clusters_are_long_on_a_diagonal_and_thin_across():
    spec = grid_case("stretched")
    data, _, truth = families.generate(spec)
    for dims, ids in truth:
        sd = np.sqrt(np.linalg.eigvalsh(np.cov(data[np.ix_(ids, dims)].T)))
        assert 0.05 < sd[-1] < 0.1 and sd[0] < 0.012
        direction = np.abs(np.linalg.eigh(np.cov(data[np.ix_(ids, dims)].T))[1][:, -1])
        assert np.allclose(direction, 1 / np.sqrt(len(dims)), atol=0.1)


def test_grid_parts_differ_in_seeds_and_shapes():
    shapes = lambda part: {(s["family"], s["n"], s["d"], tuple(s["clusters"])) for s in part}  # noqa: E731
    seeds = lambda part: {s["seed"] for s in part}  # noqa: E731
    for other in (families.GRIDS_HELDOUT, families.GRIDS_DEV, families.GRIDS_HELDOUT2):
        assert not shapes(families.GRIDS_TRAIN) & shapes(other)
        assert not seeds(families.GRIDS_TRAIN) & seeds(other)
    assert not seeds(families.GRIDS_HELDOUT) & seeds(families.GRIDS_HELDOUT2)


# ---- real_world.py: reading the study's real sets and summarising the peers --------------------

ARFF = """% a comment
@relation tiny
@attribute dim0 real
@attribute dim1 real
@attribute class {b,a}

@data
0.5,1.0,b\r
0.25,2.0,a
1.0,3.0,b
"""


def test_arff_class_is_read_as_labels_not_as_a_feature(tmp_path):
    (tmp_path / "tiny.arff").write_text(ARFF)
    data, labels, names = real_world.read_arff(str(tmp_path / "tiny.arff"))
    assert names == ["dim0", "dim1"] and data.shape == (3, 2) and data[1, 0] == 0.25
    assert labels.tolist() == [1, 0, 1]  # classes numbered in sorted order: a=0, b=1


def test_arff_row_of_the_wrong_width_names_the_line(tmp_path):
    (tmp_path / "bad.arff").write_text(ARFF.replace("1.0,3.0,b", "1.0,b"))
    with pytest.raises(ValueError, match=r"bad.arff:10: 2 values, but 3 attributes"):
        real_world.read_arff(str(tmp_path / "bad.arff"))


def test_study_truth_with_a_title_line_is_rewritten_under_a_dim_line(tmp_path):
    (tmp_path / "t.true").write_text("TINY TRUE CLUSTER\n1 1 2 0 2\n1 1 1 1\n")
    clusters = real_world.read_true(str(tmp_path / "t.true"), 2)
    assert clusters == [([0, 1], [0, 2]), ([0, 1], [1])]
    real_world.write_true(str(tmp_path / "out.true"), clusters, 2, "tiny.arff")
    assert (tmp_path / "out.true").read_text() == "DIM=2;FILE=tiny.arff\n1 1 2 0 2\n1 1 1 1\n"
    assert real_world.read_true(str(tmp_path / "out.true"), 2) == clusters
    labels = np.array([1, 0, 1])
    assert real_world.same_clusters(clusters, real_world.classes_as_clusters(labels, 2))
    assert not real_world.same_clusters(clusters, real_world.classes_as_clusters(np.array([1, 1, 0]), 2))


def test_truth_with_a_wrong_size_is_refused(tmp_path):
    (tmp_path / "t.true").write_text("T\n1 1 3 0 2\n")
    with pytest.raises(ValueError, match="t.true:2"):
        real_world.read_true(str(tmp_path / "t.true"), 2)


def test_elki_summary_takes_the_median_default_and_the_best_run_with_its_algorithm():
    def run(algorithm, index, e4sc, f1, status="ok"):
        return dict(algorithm=algorithm, setting_index=index, setting=f"s{index}", e4sc=e4sc, f1=f1, status=status)

    rows = [run("P3C", 0, 0.2, 0.4), run("P3C", 1, 0.9, 0.5), run("DOC", 0, 0.0, 0.0, "timeout"),
            run("DOC", 1, 0.0, 0.0, "skipped"), run("DiSH", 0, 0.6, 0.8)]
    s = real_world.elki_summary(rows)
    assert (s["elki_default_e4sc"], s["elki_default_f1"]) == (0.2, 0.4)  # the timeout counts 0
    assert (s["elki_best_algorithm"], s["elki_best_setting"], s["elki_best_e4sc"]) == ("P3C", "s1", 0.9)
    assert (s["elki_runs"], s["elki_timeouts"]) == (4, 1)


def test_kmeans_clusters_cover_every_point_in_every_dimension():
    rng = np.random.default_rng(1)
    data = np.vstack([rng.normal(0, 0.01, (20, 3)), rng.normal(5, 0.01, (30, 3))])
    data[:, 2] = 7.0  # a constant column is no obstacle
    clusters = real_world.kmeans_clusters(data, 2, seed=1)
    assert all(dims == [0, 1, 2] for dims, _ in clusters)
    assert sorted(len(ids) for _, ids in clusters) == [20, 30]
    assert sorted(i for _, ids in clusters for i in ids) == list(range(50))


# The study's files, where CTest's convention puts them: SUBSCALE_SHARED_DIR, else shared/ beside the checkout.
SHARED = os.environ.get("SUBSCALE_SHARED_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))
STUDY_REAL = os.path.join(SHARED, "datasets", "opensubspace", "real_world")


@pytest.mark.skipif(not os.path.isdir(STUDY_REAL), reason="the OpenSubspace real sets are not beside the checkout")
def test_study_truth_files_are_the_arff_classes():
    data, labels, _ = real_world.read_arff(os.path.join(STUDY_REAL, "glass.arff"))
    truth = real_world.read_true(os.path.join(STUDY_REAL, "glass.true"), data.shape[1])
    assert data.shape == (214, 9) and len(truth) == 6
    assert real_world.same_clusters(truth, real_world.classes_as_clusters(labels, data.shape[1]))
