#pragma once
// The run's evaluate step (docs/method.md §11): its clusters (and merge's, when consolidation ran)
// scored against the ground truth (ground_truth.path) and against the classes of the input's
// label column (input.label_column), whichever the config gives; the measures go to the report,
// the time and a line to the log.
#include "pipeline/log/run_log.hpp"
#include "pipeline/output/run_report.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "pipeline/steps/input_loading.hpp"

namespace subscale::pipeline {

// True when the step has something to score against.
bool has_evaluation(const RunSettings& settings, const LoadedInput& input);

// Points are positions in the held values, as the stages leave them (before the run folder names
// them by input row): the labels of `input.data` are held in the same order.
void run_evaluate_step(const RunSettings& settings, const LoadedInput& input, RunLog& log, RunReport& report);

}  // namespace subscale::pipeline
