#pragma once
// A run's settings read from its config: every key resolved (autos filled in) and checked before
// any work.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/backend.hpp"
#include "common/held_values.hpp"
#include "distributed/checkpoint.hpp"
#include "distributed/distributed_core.hpp"
#include "io/dataset_loader.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/filter_section.hpp"
#include "pipeline/settings/levels_setting.hpp"
#include "pipeline/settings/sample_settings.hpp"
#include "pipeline/settings/significance_settings.hpp"
#include "stages/consolidate/consolidate.hpp"
#include "stages/core/core.hpp"
#include "stages/join/attach_columns.hpp"
#include "stages/load/load.hpp"
#include "stages/load/normalize.hpp"

namespace subscale::pipeline {

// The config's join section, resolved: a second table whose columns are attached to the input
// rows by id, after load and before normalize.
struct JoinSection {
  std::filesystem::path path;
  std::string dataset;
  std::string ids;
  std::optional<std::size_t> key_column;  // empty: the input's ids are the key
  join::UnmatchedRows unmatched = join::UnmatchedRows::error;
  subscale::Backend backend = subscale::Backend::cpu;
};

// What a run reads from its config, resolved (autos filled in) and checked before any work.
struct RunSettings {
  load::LoadOptions load;
  std::optional<JoinSection> join;
  std::optional<FilterSection> filter;
  load::Normalization normalization = load::Normalization::minmax;
  Precision precision = Precision::float64;
  CoreParams core;
  int threads = 0;
  bool epsilon_auto = false, min_points_auto = false;  // resolved from the data after load
  bool merge_epsilon_auto = false, merge_min_points_auto = false;
  bool merge = true;
  double merge_epsilon = 0;
  std::uint32_t merge_min_points = 0;
  bool consolidate = true;
  consolidate::ConsolidateParams consolidate_params;
  SignificanceSettings significance;
  // `levels` (levels_setting.hpp): the reach of the columns on integer levels; auto: chosen with
  // epsilon: auto under significance (automatic_parameters.hpp), else none.
  bool levels_auto = false;
  std::vector<significance::LevelReach> levels;
  SampleSettings sample;
  std::optional<std::filesystem::path> ground_truth;
  bool text_outputs = true;
  int gzip_level = 0;
  bool html_report = false;
  double progress_seconds = 10;
  // The command line without --force: a core projected past a day is refused (core_time_guard.hpp);
  // a library run (Python) is warned of only, its caller can stop it.
  bool refuse_long_core = false;
  std::optional<distributed::CheckpointOptions> checkpoint;
  std::vector<std::string> memory_notes;  // what the memory plan adapted, said before the run starts
};

// What a checkpoint must agree on with the run that resumes it: the program, and every setting
// that changes the core's result (the input data are compared by a hash of the matrix).
distributed::CheckpointIdentity checkpoint_identity(const Config& config, TableMode mode);

// The checks of parameters that depend on the data, once the autos are resolved: the core's
// (validate_core_params) and, when merge runs, merge.min_points against the number of points.
// UsageError naming the key.
void validate_run_params(const RunSettings& settings, std::size_t points);

// processes_on_node: the processes of a cluster run that share this node's cores.
RunSettings read_settings(Config& config, const std::optional<std::filesystem::path>& resume = std::nullopt,
                          int processes_on_node = 1);

}  // namespace subscale::pipeline
