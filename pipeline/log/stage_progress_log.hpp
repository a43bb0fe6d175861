#pragma once
// Progress of merge and consolidation in the run log, as the core's dense_units shows its own: a
// bar on a terminal, a line every progress.interval seconds in a batch job (the fraction done,
// the rate and the time left), nothing with --quiet. Each phase the stage begins replaces the bar.
#include <optional>
#include <string>

#include "common/stage_progress.hpp"
#include "pipeline/log/progress.hpp"
#include "pipeline/log/run_log.hpp"

namespace subscale::pipeline {

class StageProgressLog {
 public:
  StageProgressLog(std::string stage, RunLog& log, double interval_seconds)
      : stage_(std::move(stage)), log_(log), interval_(interval_seconds) {}
  StageProgressLog(const StageProgressLog&) = delete;
  StageProgressLog& operator=(const StageProgressLog&) = delete;

  // Valid while this object lives; hand it to the stage.
  StageProgress progress();

 private:
  std::string stage_;
  RunLog& log_;
  double interval_;
  std::optional<ProgressBar> bar_;
};

}  // namespace subscale::pipeline
