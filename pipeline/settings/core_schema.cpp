#include "pipeline/settings/core_schema.hpp"

#include "pipeline/settings/filter_section.hpp"

namespace subscale::pipeline {

ConfigSchema core_config_schema() {
  ConfigSchema schema;
  auto key = [&](ConfigKey k) { schema.add(std::move(k)); };
  key({.path = "input.path", .kind = ValueKind::path, .help = "data file (HDF5, CSV or ARFF)", .required = true});
  key({.path = "input.format",
       .default_value = "auto",
       .help = "file format",
       .choices = {"auto", "hdf5", "csv", "arff"}});
  key({.path = "input.dataset", .default_value = "/data", .help = "HDF5 path of the 2-D data set"});
  key({.path = "input.precision",
       .default_value = "float64",
       .help = "precision the values are held and compared in after normalisation (float32: half the memory)",
       .choices = {"float64", "float32"}});
  key({.path = "input.label_column",
       .help = "each row's class, which the run scores its clusters against: a CSV column (name or 1-based number), "
               "an ARFF attribute or an HDF5 dataset (beside input.dataset, or a path)"});
  key({.path = "input.header",
       .kind = ValueKind::boolean,
       .default_value = "auto",
       .help = "CSV: whether the first line names the columns (auto: it does when one of its cells is text, not a "
               "number, an empty cell or '?'; the run's log says which was taken)",
       .allow_auto = true});
  // The join section (docs/stages.md §3): a second table's columns attached by id after load,
  // before normalize. Unset join.path means no join; the other keys then have no effect.
  key({.path = "join.path",
       .kind = ValueKind::path,
       .help = "second table (HDF5) whose columns are attached to each input row by id; unset: no join"});
  key({.path = "join.dataset",
       .default_value = "/data",
       .help = "HDF5 path of the second table's columns (1-D, or 2-D (rows, columns)), one row per id"});
  key({.path = "join.ids",
       .default_value = "/ids",
       .help = "HDF5 path of the second table's ids (1-D, non-negative integers)"});
  key({.path = "join.key",
       .default_value = "ids",
       .help = "the input's ids: ids (the HDF5 `ids` beside input.dataset), or a 0-based column number "
               "(that column leaves the matrix)"});
  key({.path = "join.unmatched",
       .default_value = "error",
       .help = "an input row whose id the second table lacks: error, or drop the row",
       .choices = {"drop", "error"}});
  key({.path = "join.backend",
       .default_value = "auto",
       .help = "where the join runs (auto: the GPU when there is one)",
       .choices = {"auto", "cpu", "cuda"}});
  add_filter_section_keys(schema);  // filter.where, filter.backend (pipeline/settings/filter_section.hpp)
  key({.path = "normalize",
       .default_value = "minmax",
       .help = "per-dimension scaling to [0, 1]",
       .choices = {"minmax", "none"}});
  key({.path = "epsilon",
       .kind = ValueKind::number,
       .default_value = "auto",
       .help = "1-D density radius (strict: |x - y| < epsilon); auto: from the data's spacing (the 60th percentile "
               "of the spans of max(8, 0.5% of the points) consecutive values in a dimension)",
       .minimum = 0.0,
       .minimum_exclusive = true,
       .allow_auto = true,
       .sweepable = true});
  key({.path = "min_points",
       .kind = ValueKind::integer,
       .default_value = "auto",
       .help = "points in a dense unit (m; SUBSCALE's tau = m - 1); auto: the largest m in [2, 4] whose dense units "
               "fit the core's work budget",
       .minimum = 2.0,
       .maximum = 64.0,
       .allow_auto = true,
       .sweepable = true});
  key({.path = "levels",
       .default_value = "auto",
       .help = "columns on integer levels, searched at a reach in whole levels: DIM:CORE:MERGE,... (0-based DIM; "
               "the core links points up to CORE levels apart, merge and the test up to MERGE, by scaling each such "
               "column), none, or auto: chosen from the data's resolution with epsilon: auto under significance",
       .allow_auto = true});
  key({.path = "mode",
       .default_value = "auto",
       .help = "how units find their subspace: direct (from the coordinates, skipping units of one dimension), "
               "signature (the published method: a signature table), exact (a table keyed by point ids: the "
               "reference); auto: direct",
       .choices = {"auto", "direct", "signature", "exact"},
       .sweepable = true});
  key({.path = "direct.count_units",
       .kind = ValueKind::boolean,
       .default_value = "false",
       .help = "direct mode: walk every unit so that the count of units in two or more dimensions is exact; "
               "false passes over the parts of the walk whose units would add no point to any subspace "
               "(the same subspaces, often much sooner) and leaves that count out",
       .sweepable = true});
  key({.path = "signature.bits",
       .kind = ValueKind::integer,
       .default_value = "128",
       .help = "signature width",
       .choices = {"64", "128"},
       .sweepable = true});
  key({.path = "signature.keys",
       .default_value = "uniform",
       .help = "per-point key distribution",
       .choices = {"uniform", "subscale"},
       .sweepable = true});
  key({.path = "signature.seed",
       .kind = ValueKind::integer,
       .default_value = "1",
       .help = "seed of the per-point keys (auto: drawn at start and recorded)",
       .minimum = 0.0,
       .allow_auto = true});
  key({.path = "partitions.scheme",
       .default_value = "adaptive",
       .help = "how the signature space is cut",
       .choices = {"adaptive", "equal"},
       .sweepable = true});
  key({.path = "partitions.count",
       .kind = ValueKind::integer,
       .default_value = "auto",
       .help = "partitions of the signature table (auto: from the memory budget)",
       .minimum = 1.0,
       .maximum = 65536.0,
       .allow_auto = true,
       .sweepable = true});
  key({.path = "memory.host_bytes",
       .kind = ValueKind::bytes,
       .default_value = "auto",
       .help = "host memory for one partition's table (auto: half the physical memory)",
       .allow_auto = true});
  key({.path = "memory.device_bytes",
       .kind = ValueKind::bytes,
       .default_value = "auto",
       .help = "device memory the GPU stages may allocate: table, resolver, subspace bitmaps (auto: 90% of the "
               "free device memory)",
       .allow_auto = true});
  key({.path = "backend",
       .default_value = "auto",
       .help = "where the core runs (auto: the GPU when there is one and the work is large)",
       .choices = {"auto", "cpu", "cuda"}});
  key({.path = "threads",
       .kind = ValueKind::integer,
       .default_value = "auto",
       .help = "CPU threads (auto: all cores, shared out among the processes of a cluster run on one node)",
       .minimum = 1.0,
       // Each thread costs a stack and a share of every per-thread buffer; far more threads than
       // any machine has cores only slows the run (and a million of them exhausts memory).
       .maximum = 4096.0,
       .allow_auto = true});
  key({.path = "merge.enabled",
       .kind = ValueKind::boolean,
       .default_value = "true",
       .help = "run DBSCAN in every subspace (stage merge)"});
  key({.path = "merge.epsilon",
       .kind = ValueKind::number,
       .default_value = "auto",
       .help = "DBSCAN radius in a subspace, inclusive (auto: epsilon)",
       .minimum = 0.0,
       .minimum_exclusive = true,
       .allow_auto = true,
       .sweepable = true});
  key({.path = "merge.min_points",
       .kind = ValueKind::integer,
       .default_value = "auto",
       .help = "DBSCAN min_points in a subspace, the point itself included (auto: min_points)",
       .minimum = 1.0,
       .maximum = 4294967295.0,  // at most the points a run can hold
       .allow_auto = true,
       .sweepable = true});
  // Stage consolidate (after merge): projections of one cluster joined into its full subspace,
  // redundant clusters dropped, the rest ordered by interest. docs/method.md §10.
  key({.path = "consolidate.enabled",
       .kind = ValueKind::boolean,
       .default_value = "true",
       .help = "consolidate merge's clusters (`consolidate: off` keeps merge's output as the run's clusters)"});
  key({.path = "consolidate.overlap",
       .kind = ValueKind::number,
       .default_value = "0.5",
       .help = "join candidates: shared points / points of the smaller cluster at least this",
       .minimum = 0.0,
       .minimum_exclusive = true,
       .maximum = 1.0,
       .sweepable = true});
  key({.path = "consolidate.span_fraction",
       .kind = ValueKind::number,
       .default_value = "0.9",
       .help = "span test: the central fraction of a cluster's points whose span is measured per dimension",
       .minimum = 0.0,
       .minimum_exclusive = true,
       .maximum = 1.0,
       .sweepable = true});
  key({.path = "consolidate.span_tolerance",
       .kind = ValueKind::number,
       .default_value = "3",
       .help = "span test: dense in a dimension when the span is at most this times the cluster's widest span "
               "where merge found it",
       .minimum = 0.0,
       .minimum_exclusive = true,
       .sweepable = true});
  key({.path = "consolidate.extend",
       .kind = ValueKind::boolean,
       .default_value = "true",
       .help = "add to a cluster every further dimension in which it passes the span test"});
  key({.path = "consolidate.coverage",
       .kind = ValueKind::number,
       .default_value = "0.8",
       .help = "drop a cluster when this fraction of its points lies in kept clusters of strict superset subspaces",
       .minimum = 0.0,
       .minimum_exclusive = true,
       .maximum = 1.0,
       .sweepable = true});
  key({.path = "consolidate.top_k",
       .kind = ValueKind::integer,
       .default_value = "0",
       .help = "keep only the top_k clusters by interest (points x dimensions); 0 keeps all",
       .minimum = 0.0,
       .sweepable = true});
  // The significance test (stages/significance): every candidate against the data's own marginals,
  // corrected for the search; false gives the published method's output unchanged.
  key({.path = "significance.enabled",
       .kind = ValueKind::boolean,
       .default_value = "true",
       .help = "keep only clusters denser than the data's own per-dimension distributions predict, strongest "
               "first (false: every cluster merge and consolidation find, as the published method)"});
  key({.path = "significance.alpha",
       .kind = ValueKind::number,
       .default_value = "0.01",
       .help = "the test's level: the chance that any reported cluster is a chance cluster (with fdr: the "
               "expected share of chance clusters among those reported)",
       .minimum = 0.0,
       .minimum_exclusive = true,
       .maximum = 1.0,
       .sweepable = true});
  key({.path = "significance.fdr",
       .kind = ValueKind::boolean,
       .default_value = "false",
       .help = "correct with Benjamini-Hochberg (controls the false discovery rate) instead of Bonferroni"});
  key({.path = "significance.denser_parts",
       .kind = ValueKind::boolean,
       .default_value = "true",
       .help = "cluster every failing merge cluster of 32 or more points again inside its points at rising "
               "min_points, and test its denser parts too: finds a cluster that merge linked to the chance points "
               "around it (min_points 2 on uniform data); false: merge's clusters only (docs/significance.md)"});
  key({.path = "significance.background_share",
       .kind = ValueKind::number,
       .default_value = "0.5",
       .help = "a value held by more than this share of a dimension's points is that dimension's background "
               "(a default, a missing-value code, the dominant level): the core forms no dense unit of it, and "
               "a reported cluster keeps no dimension whose interval holds more than this share of the points",
       .minimum = 0.0,
       .minimum_exclusive = true,
       .maximum = 1.0,
       .sweepable = true});
  // Discovery on a sample (pipeline/steps/sampling.hpp): on inputs so large that the unit budget,
  // not the data's spacing, would set epsilon.
  key({.path = "sample.enabled",
       .kind = ValueKind::boolean,
       .default_value = "auto",
       .help = "find the clusters on a uniform sample of the points, then decide every point's membership in "
               "each cluster's subspace and test the clusters on all of them (auto: when the whole input would "
               "make the dense-unit budget halve epsilon below the data's spacing; needs significance)",
       .allow_auto = true});
  key({.path = "sample.points",
       .kind = ValueKind::integer,
       .default_value = "auto",
       .help = "points in the sample (auto: the largest halving of the input at which the data's spacing, not the "
               "budget, sets epsilon, and at least 50 / sample.smallest_cluster)",
       .minimum = 2.0,
       .maximum = 4294967295.0,
       .allow_auto = true});
  key({.path = "sample.smallest_cluster",
       .kind = ValueKind::number,
       .default_value = "0.01",
       .help = "the smallest cluster the sample must resolve, as a share of the points: the sample keeps at "
               "least 50 points of such a cluster",
       .minimum = 0.0,
       .minimum_exclusive = true,
       .maximum = 1.0});
  key({.path = "sample.seed",
       .kind = ValueKind::integer,
       .default_value = "1",
       .help = "seed of the sample's draw (written into config.yaml, so the run repeats exactly)",
       .minimum = 0.0});
  key({.path = "ground_truth.path", .kind = ValueKind::path, .help = "hidden clusters (.true) to evaluate against"});
  key({.path = "progress.interval",
       .kind = ValueKind::number,
       .default_value = "10",
       .help = "seconds between progress lines when stderr is not a terminal (a batch job's log); on a "
               "terminal a bar is drawn instead, and --quiet shows neither",
       .minimum = 0.0,
       .minimum_exclusive = true});
  // Checkpoints (cluster/checkpoint.hpp): finished work units of the core recorded in a folder, so
  // `run --resume DIR` after a kill redoes only the others.
  key({.path = "checkpoint.dir",
       .kind = ValueKind::path,
       .help = "record finished work units of the core here, to resume with `run --resume DIR` after a kill or "
               "preemption; unset: no checkpoint"});
  key({.path = "checkpoint.units",
       .kind = ValueKind::integer,
       .default_value = "auto",
       .help = "work units the core is cut into for the checkpoint (auto: 8 per process); each finished one is "
               "recorded, a resume redoes the rest",
       .minimum = 1.0,
       .maximum = 1048576.0,
       .allow_auto = true});
  key({.path = "output.text",
       .kind = ValueKind::boolean,
       .default_value = "true",
       .help = "also write subspaces.txt and clusters.txt (and clusters_raw.txt); false for large runs, whose "
               "lists results.h5 holds as well"});
  key({.path = "output.gzip",
       .kind = ValueKind::integer,
       .default_value = "0",
       .help = "gzip level of results.h5's datasets, 0 (none: the fastest) to 9; the chunks are compressed on "
               "every core",
       .minimum = 0.0,
       .maximum = 9.0});
  key({.path = "report",
       .kind = ValueKind::boolean,
       .default_value = "false",
       .help = "also write report.html at the end of the run (as `subscale report RUN_DIR` does)"});
  return schema;
}

}  // namespace subscale::pipeline
