"""Scoring against class labels (subscale.evaluate(found, y)), the per-point table of a run
(memberships.csv, read_run(...).memberships_, to_frame(kind="points")) and results.h5 as h5py
reads it."""
import json

import numpy as np
import pytest

import subscale
from subscale import SubspaceClustering

from conftest import QUICKSTART, QUICKSTART_PARAMS, ROOT, run_cli

# 40 rows: rows 0..9 are the one cluster a run finds (in both dimensions, so in the classes'
# full space), rows 0..24 class "a" and 25..39 class "b". Over all rows F1 = (2*10/35 + 0)/2 = 2/7
# and E4SC = 8/21; with filter.where x >= 0.5 only rows 0..9 and 25..39 are clustered, class "a"
# is rows 0..9, and F1 = 1/2, E4SC = 2/3.
LABELS = ["a" if row < 25 else "b" for row in range(40)]


def point(row):
    if row < 10:
        return 0.5 + 1 / 60 + 0.0003 * row, 0.5 + 1 / 60 + 0.0004 * row
    k = row - 10
    return k / 30, ((k * 7) % 30) / 30


@pytest.fixture(scope="module")
def labelled_runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("labelled")
    lines = [f"{x!r},{label},{y!r}" for (x, y), label in zip(map(point, range(40)), LABELS)]
    (folder / "points.csv").write_text("x,class,y\n" + "\n".join(lines) + "\n")
    base = ("input:\n  path: points.csv\n  label_column: class\nepsilon: 0.01\nmin_points: 3\nnormalize: none\n"
            "significance:\n  enabled: false\n")
    (folder / "all.yaml").write_text(base)
    (folder / "kept.yaml").write_text(base + "filter:\n  where: {column: x, ge: 0.5}\n")
    return {name: run_cli(folder / f"{name}.yaml", folder / name) for name in ("all", "kept")}


def test_evaluate_against_labels_matches_a_hand_computed_example():
    # Classes 7 = points 0-2, 3 = points 3-4 (in both dimensions); point 5 has none (-1).
    y = [7, 7, 7, 3, 3, -1]
    found = [([0], [0, 1, 2]), ([0, 1], [3, 4, 5]), ([1], [5])]
    m = subscale.evaluate(found, y, dimensions=2)
    assert m["f1"] == pytest.approx(0.9)  # (1 + 2*2/(3+2)) / 2
    assert m["e4sc"] == pytest.approx(44 / 75)  # R = 11/15, P = 22/45
    assert (m["classes"], m["found_clusters"], m["labelled_points"]) == (2, 3, 5)
    # Text labels, None and NaN as no class: the same classes.
    assert subscale.evaluate(found, ["x", "x", "x", "y", "y", None], dimensions=2) == m
    assert subscale.evaluate(found, np.array([1.0, 1, 1, 2, 2, np.nan]), dimensions=2) == m


def test_the_run_and_evaluate_score_the_same_labels(labelled_runs):
    pd = pytest.importorskip("pandas")
    for name, f1, e4sc in (("all", 2 / 7, 8 / 21), ("kept", 1 / 2, 2 / 3)):
        folder = labelled_runs[name]
        summary = json.loads((folder / "summary.json").read_text())
        assert summary["evaluation_classes"]["f1"] == pytest.approx(f1), name
        assert summary["evaluation_classes"]["e4sc"] == pytest.approx(e4sc), name
        run = subscale.read_run(folder)
        for y in (LABELS, np.array(LABELS), pd.Series(LABELS)):
            measures = subscale.evaluate(run, y)
            assert measures["f1"] == pytest.approx(f1) and measures["e4sc"] == pytest.approx(e4sc), name
        assert subscale.evaluate(folder, LABELS) == subscale.evaluate(run, LABELS)


def test_a_fitted_model_is_scored_against_the_labels_of_its_rows(tmp_path):
    data = subscale.load(QUICKSTART)
    model = SubspaceClustering(**QUICKSTART_PARAMS).fit(data.values)
    measures = subscale.evaluate(model, data.labels)  # the five hidden clusters' labels, -1 noise
    assert measures["classes"] == 5 and measures["labelled_points"] == 800
    assert measures["f1"] == 1.0
    run = run_cli(ROOT / "configs" / "quickstart.yaml", tmp_path / "quickstart", "input.label_column=labels")
    assert json.loads((run / "summary.json").read_text())["evaluation_classes"]["e4sc"] == measures["e4sc"]


def test_labels_of_the_wrong_count_are_refused_with_both_counts(labelled_runs):
    run = subscale.read_run(labelled_runs["kept"])
    with pytest.raises(ValueError, match="y has 39 labels, but the run's input .* has 40 rows"):
        subscale.evaluate(run, LABELS[:-1])
    blobs = np.array([point(row) for row in range(40)])
    model = SubspaceClustering(epsilon=0.01, min_points=3, normalize="none", significance=False).fit(blobs)
    with pytest.raises(ValueError, match="y has 41 labels, but the data the model was fitted on has 40 rows"):
        subscale.evaluate(model, LABELS + ["a"])
    with pytest.raises(ValueError, match="dimensions"):
        subscale.evaluate([([0], [0])], ["a", "b"])


def assert_table_is_the_clusters(table, clusters, rows):
    assert list(table.index) == list(rows)
    listed = {row: set(c) for row, c in zip(table.index, table["clusters"])}
    for index, (dims, points) in enumerate(clusters):
        for p in points:
            assert index in listed[int(p)], (index, p)
    assert sum(len(c) for c in listed.values()) == sum(len(p) for _, p in clusters)
    assert list(table["n_clusters"]) == [len(c) for c in table["clusters"]]
    interest = clusters.interest()
    for row, strongest, held in zip(table.index, table["strongest"], table["clusters"]):
        expected = max(held, key=lambda c: (interest[c], -c)) if held else -1
        assert strongest == expected, row


def test_memberships_equal_the_clusters_with_and_without_a_filter(labelled_runs):
    pytest.importorskip("pandas")
    for name, rows in (("all", range(40)), ("kept", [*range(10), *range(25, 40)])):
        run = subscale.read_run(labelled_runs[name])
        assert (labelled_runs[name] / "memberships.csv").is_file()
        assert_table_is_the_clusters(run.memberships_, run.clusters_, rows)
        assert run.to_frame(kind="points").equals(run.memberships_)
        assert run.clusters_.to_frame(kind="points").equals(run.memberships_)  # computed, not read


def test_a_fits_point_table_equals_the_command_lines_file(quickstart_run):
    pytest.importorskip("pandas")
    model = SubspaceClustering(**QUICKSTART_PARAMS).fit(subscale.load(QUICKSTART))
    table = model.clusters_.to_frame(kind="points")
    assert len(table) == 1000 and (table["strongest"] >= 0).sum() == 800
    assert table.equals(subscale.read_run(quickstart_run).memberships_)
    assert_table_is_the_clusters(table, model.clusters_, range(1000))
    np.testing.assert_array_equal(table["strongest"], model.labels_)
    with pytest.raises(ValueError, match="kind"):
        model.clusters_.to_frame(kind="rows")


def test_results_h5_holds_str_for_h5py_users(labelled_runs, quickstart_run):
    h5py = pytest.importorskip("h5py")
    with h5py.File(labelled_runs["kept"] / "results.h5", "r") as f:
        for name, value in f.attrs.items():
            assert not isinstance(value, bytes), name
        assert isinstance(f.attrs["backend"], str) and f.attrs["point_ids"] == "input_row"
        assert isinstance(f["partitions"].attrs["scheme"], str)
        inputs = f["input"]
        assert inputs.attrs["path"].endswith("points.csv") and inputs.attrs["format"] == "csv"
        assert (inputs.attrs["rows"], inputs.attrs["columns"]) == (40, 2)
        assert inputs.attrs["label_column"] == "class"
        names = f["input/column_names"]
        assert names.shape == (2,)
        assert names.asstr()[:].tolist() == ["x", "y"]
        assert h5py.check_string_dtype(names.dtype).encoding == "utf-8"
    with h5py.File(quickstart_run / "results.h5", "r") as f:
        assert dict(f["input"].attrs) == {"path": str(QUICKSTART), "format": "hdf5", "dataset": "/data",
                                          "rows": 1000, "columns": 20}
        assert "column_names" not in f["input"]  # the HDF5 input has no names


def test_column_names_kept_the_older_way_are_still_read(labelled_runs, tmp_path):
    h5py = pytest.importorskip("h5py")
    import shutil

    folder = tmp_path / "old"
    shutil.copytree(labelled_runs["all"], folder)
    assert subscale.read_run(folder).clusters_.dimension_names == ["x", "y"]
    with h5py.File(folder / "results.h5", "r+") as f:
        del f["input/column_names"]
        f["input"].attrs["column_names"] = np.bytes_(b"x\ny\n")  # one fixed-length ASCII string
    assert subscale.read_run(folder).clusters_.dimension_names == ["x", "y"]
