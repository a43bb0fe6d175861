#include "pipeline/steps/evaluate_step.hpp"

#include <chrono>
#include <iomanip>
#include <sstream>

#include "common/phase_timer.hpp"
#include "stages/evaluate/evaluate.hpp"

namespace subscale::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

const std::vector<SubspaceCluster>& run_clusters(const RunReport& report) {
  return report.consolidated ? report.consolidated->clusters
         : report.merge      ? report.merge->clusters
                             : report.core.subspaces;
}

std::string truth_line(const RunReport& report) {
  std::ostringstream line;
  line << std::setprecision(3) << "evaluate    F1 " << report.quality->f1 << ", E4SC " << report.quality->e4sc
       << ", RNIA " << report.quality->rnia << ", CE " << report.quality->ce << ", coverage "
       << report.quality->coverage;
  if (report.raw_quality)
    line << " (merge's raw clusters: F1 " << report.raw_quality->f1 << ", E4SC " << report.raw_quality->e4sc << ")";
  return line.str();
}

std::string classes_line(const RunReport& report, const std::string& column) {
  const evaluate::ClassMeasures& q = *report.class_quality;
  std::ostringstream line;
  line << std::setprecision(3) << "evaluate    against the " << q.classes << " classes of input.label_column '"
       << column << "' (" << q.labelled_points << " labelled points): F1 " << q.f1 << ", E4SC " << q.e4sc;
  if (report.raw_class_quality)
    line << " (merge's raw clusters: F1 " << report.raw_class_quality->f1 << ", E4SC " << report.raw_class_quality->e4sc
         << ")";
  return line.str();
}

bool has_classes(const RunSettings& settings, const LoadedInput& input) {
  return !settings.load.label_column.empty() && !input.data.labels.empty();
}

}  // namespace

bool has_evaluation(const RunSettings& settings, const LoadedInput& input) {
  return input.truth.has_value() || has_classes(settings, input);
}

void run_evaluate_step(const RunSettings& settings, const LoadedInput& input, RunLog& log, RunReport& report) {
  const auto start = Clock::now();
  const auto& found = run_clusters(report);
  const std::size_t points = input.held.points(), dimensions = input.held.dimensions();
  if (input.truth) {
    report.quality = evaluate::evaluate(found, input.truth->clusters, points, dimensions);
    if (report.consolidated)
      report.raw_quality = evaluate::evaluate(report.merge->clusters, input.truth->clusters, points, dimensions);
  }
  if (has_classes(settings, input)) {
    report.class_quality = evaluate::evaluate_against_classes(found, input.data.labels, dimensions);
    if (report.consolidated)
      report.raw_class_quality =
          evaluate::evaluate_against_classes(report.merge->clusters, input.data.labels, dimensions);
  }
  report.stage_seconds.emplace_back("evaluate", seconds_since(start));
  if (report.quality) log.line(truth_line(report));
  if (report.class_quality) log.line(classes_line(report, settings.load.label_column));
}

}  // namespace subscale::pipeline
