#include "pipeline/log/stage_progress_log.hpp"

namespace subscale::pipeline {

StageProgress StageProgressLog::progress() {
  StageProgress progress;
  progress.on_begin = [this](const std::string& phase, std::uint64_t total, const std::string& unit) {
    bar_.reset();  // the last phase's bar is cleared (or its line thread stopped) first
    bar_.emplace(
        phase.empty() ? stage_ : stage_ + " " + phase, total, progress_display(log_.quiet()), interval_,
        [this](const std::string& line) { log_.line(line); }, unit);
  };
  progress.on_advance = [this](std::uint64_t done) {
    if (bar_) bar_->advance(done);
  };
  return progress;
}

}  // namespace subscale::pipeline
