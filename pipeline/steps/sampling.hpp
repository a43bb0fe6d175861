#pragma once
// Discovery on a sample (docs/sampling.md). The dense units of a dimension grow with the square of
// the points at a fixed radius (each of n points has a window of a share of n), so on a large
// enough input `epsilon: auto` fits the unit budget only by halving epsilon below the data's own
// spacing, where clusters shatter into pairs of points. There the run finds its clusters on a
// uniform sample instead (stages/sample): the largest halving of the input at which the data's
// spacing, not the budget, sets epsilon, and at least 50 points of the smallest cluster the user
// asks for (sample.smallest_cluster). run_stages then decides every point's membership in each
// cluster found and tests the clusters on every point (sample_extension.hpp).
#include <string>
#include <vector>

#include "pipeline/output/run_report.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "pipeline/steps/input_loading.hpp"

namespace subscale::pipeline {

// Decides whether the run takes a sample (setting input.sample) and chooses the auto parameters
// on what the core will read; both are written into `settings` and back into `config`, so
// config.yaml repeats the run. `budget` says when the budget still set epsilon or min_points.
// Returns the log's lines, each saying why.
std::vector<std::string> resolve_sample_and_parameters(LoadedInput& input, RunSettings& settings, Config& config,
                                                       BudgetLimit& budget);

}  // namespace subscale::pipeline
