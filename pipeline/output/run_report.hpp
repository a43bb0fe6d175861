#pragma once
// Everything one run produced, as plain values: what the writers (results.h5, summary.json, the
// text files) and the sweep table read.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/held_values.hpp"
#include "common/subspace_cluster.hpp"
#include "pipeline/output/sample_report.hpp"
#include "pipeline/output/significance_report.hpp"
#include "stages/consolidate/consolidate.hpp"
#include "stages/core/core.hpp"
#include "stages/evaluate/class_labels.hpp"
#include "stages/evaluate/quality_measures.hpp"
#include "stages/load/normalize.hpp"
#include "stages/merge/merge.hpp"

namespace subscale::pipeline {

// Where the search put the points (pipeline/steps/search_values.hpp), so that new points can be
// put there too: the Python estimator's predict tests them by a sample's membership rule
// (stages/sample/membership.hpp). An input value is normalised (with the input's own minimum and
// maximum) and held in `precision`; searched column k is input column columns[k] (the first of a
// group of repeated columns), times scales[k] where columns on levels were scaled (empty: none).
struct SearchSpace {
  load::Normalization normalization = load::Normalization::minmax;
  Precision precision = Precision::float64;
  std::vector<std::uint32_t> columns;
  std::vector<double> scales;
  double radius = 0;  // merge.epsilon
};

struct RunReport {
  std::string config_source;
  std::string input_path;
  std::size_t points = 0, dimensions = 0;
  // When join or filter dropped rows: the rows of the input as loaded, and each point's row there
  // (ascending). The run's outputs name points by these rows (docs/output.md); empty: the same.
  std::size_t input_row_count = 0;
  std::vector<std::uint64_t> input_rows;
  std::vector<std::string> column_names;  // the input's, when it had them (CSV header, ARFF attributes)
  // The input as read, before join and filter, for results.h5's /input (docs/output.md §2).
  std::string input_format;        // hdf5, csv or arff
  std::string input_dataset;       // HDF5: the dataset read; else empty
  std::size_t input_columns = 0;   // the columns read as dimensions (a label column is not one)
  std::string input_label_column;  // input.label_column, when set
  std::uint64_t seed = 0;
  std::string backend;  // the one that ran: cpu or cuda
  int threads = 0;
  int processes = 1;                       // of the job (mpirun/srun)
  bool checkpointed = false;               // checkpoint.dir or --resume
  bool resumed = false;                    // --resume: some work units were read back
  std::uint32_t work_units = 0;            // checkpointed: the work units of the core
  std::uint32_t work_units_read_back = 0;  // of them, read back from the checkpoint
  CoreResult core;
  std::optional<merge::MergeResult> merge;
  std::optional<consolidate::ConsolidateResult> consolidated;  // set: the run's clusters; merge's stay as raw
  std::optional<SignificanceReport> significance;              // set when significance.enabled
  std::optional<SampleReport> sample;                          // set when the clusters were found on a sample
  SearchSpace search;
  BudgetLimit budget;
  std::optional<evaluate::QualityMeasures> quality;           // of the run's clusters (consolidated when set)
  std::optional<evaluate::QualityMeasures> raw_quality;       // of merge's clusters, when consolidated is set
  std::optional<evaluate::ClassMeasures> class_quality;       // against input.label_column's classes
  std::optional<evaluate::ClassMeasures> raw_class_quality;   // of merge's clusters, when consolidated is set
  std::vector<std::pair<std::string, double>> stage_seconds;  // in run order
  std::uint64_t peak_memory_bytes = 0;
};

}  // namespace subscale::pipeline
