#pragma once
// The run's parameters given as `auto` (the defaults when the keys are absent), chosen from the
// data: the core's epsilon and min_points (stages/significance/auto_parameters.hpp), and merge's
// epsilon and min_points, which follow from the core's. Each choice comes with a log line saying
// why, and the resolved values are written back into the run's config.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/dataset.hpp"
#include "common/held_values.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "pipeline/steps/significance_steps.hpp"

namespace subscale::pipeline {

struct AutomaticInput {
  bool epsilon_auto = false, min_points_auto = false, merge_epsilon_auto = false, merge_min_points_auto = false;
  SignificanceSettings significance;
  double epsilon = 0;  // the given values, where not auto
  std::uint32_t min_points = 0;
  double merge_epsilon = 0;
  std::uint32_t merge_min_points = 0;
  bool levels_auto = false;                      // `levels: auto` (levels_setting.hpp)
  std::vector<significance::LevelReach> levels;  // the given reaches, where not auto
};

struct AutomaticParameters {
  double epsilon = 0;
  std::uint32_t min_points = 0;
  double merge_epsilon = 0;
  std::uint32_t merge_min_points = 0;
  bool budget_limited = false, epsilon_halved = false;  // significance::AutoChoice's
  std::uint32_t halvings = 0;
  std::vector<std::pair<std::string, std::string>> resolved;  // config key, YAML value
  std::vector<std::string> log_lines;
  std::vector<significance::LevelReach> levels;  // the columns on integer levels and their reach
};

// merge.epsilon = kMergeRadius * epsilon with significance (the core's radius is a 1-D window that
// holds a handful of points; merge links points of a cluster across its whole subspace).
inline constexpr double kMergeRadius = 4.0;

template <class T>
AutomaticParameters choose_parameters(const ColumnMatrix<T>& values, const AutomaticInput& input);

// What choose_parameters reads from the run's settings.
AutomaticInput automatic_input(const RunSettings& settings);

// The chosen values written into `settings` and back into `config` (so config.yaml repeats the run).
void apply_parameters(const AutomaticParameters& chosen, RunSettings& settings, Config& config);

AutomaticParameters choose_on(const HeldValues& held, const AutomaticInput& input);

// A double as YAML text that reads back to the same value.
std::string exact_text(double value);

}  // namespace subscale::pipeline
