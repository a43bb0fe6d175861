#include "pipeline/steps/core_log.hpp"

#include <algorithm>

#include "common/phase_timer.hpp"
#include "pipeline/log/log_format.hpp"
#include "pipeline/log/memory_advice.hpp"
#include "pipeline/log/workload_warnings.hpp"

namespace subscale::pipeline {

double CoreStepLog::seconds_in_step() const { return seconds_since(start_); }

void CoreStepLog::step(const std::string& step, const CoreResult& so_far) {
  const double elapsed = seconds_since(start_);
  heartbeat_.reset();
  if (step == "density1d" || step == "plan")
    heartbeat_.emplace(step, progress_display(log_.quiet()), settings_.progress_seconds,
                       [this](const std::string& line) { log_.line(line); });
  if (step == "plan") {
    report_.stage_seconds.emplace_back("density1d", elapsed);
    std::uint64_t clusters = 0;
    for (const auto& d : so_far.density.dimensions) clusters += d.clusters;
    log_.line("density1d   " + counted(clusters, "1-D cluster") + " over " + counted(dimensions_, "dimension") +
              (so_far.density1d_on_gpu ? " (on the GPU)" : ""));
  } else if (step == "dense_units") {
    report_.stage_seconds.emplace_back("plan", elapsed);
    planned_units_ = so_far.total_units;
    check_memory_budget(settings_, planned_units_, so_far.largest_window_units);
    log_.line("plan        " + format_count(planned_units_) + " " + noun_for(planned_units_, "dense unit"));
    if (so_far.direct_memory)
      if (const std::string note = direct_memory_note(settings_, *so_far.direct_memory); !note.empty()) log_.line(note);
    if (const std::string note = partition_memory_note(settings_, planned_units_); !note.empty()) log_.line(note);
    // Judged from the rate of the work itself (or an assumed one, at once); the sample's estimate
    // bounds the walk from above (it passes over nothing), so it warns but never refuses.
    guard_.emplace(planned_units_, !settings_.refuse_long_core,
                   [this](const std::string& line) { log_.warning(line); });
    if (so_far.direct_sample_units > 0) {
      // Said before the walk, and even with --quiet when it is past an hour.
      const TimeEstimate time =
          estimate_time(static_cast<double>(planned_units_), so_far.direct_sample_units, so_far.direct_sample_seconds);
      if (time.warn)
        log_.warning(time.text);
      else
        log_.line(time.text);
      if (time.warn) guard_->warned();
    }
    bar_.emplace("dense_units", planned_units_, progress_display(log_.quiet()), settings_.progress_seconds,
                 [this](const std::string& line) { log_.line(line); });
  } else if (step == "subspaces") {
    bar_.reset();
    guard_.reset();
    report_.stage_seconds.emplace_back("dense_units", elapsed);
    const auto& du = so_far.dense_units;
    // The rate is of the units walked now; a resumed run read the rest back.
    const std::string read_back = du.read_back_units == 0 ? std::string()
                                                          : ", " + format_count(du.read_back_units) +
                                                                " of the units read back from the checkpoint";
    if (settings_.core.units.mode == TableMode::direct && !du.multi_units_counted)
      log_.line("dense_units " + format_count(du.walk_nodes) + " " + noun_for(du.walk_nodes, "node") + " walked for " +
                format_count(planned_units_) + " " + noun_for(planned_units_, "unit") + " (direct; " +
                format_count(du.walk_covered) + " " + noun_for(du.walk_covered, "part") +
                " of the walk passed over as adding no point, so units in >= 2 dimensions are not all "
                "counted: direct.count_units counts them)" +
                read_back + " on " + backend_name(so_far.backend_used));
    else if (settings_.core.units.mode == TableMode::direct)
      log_.line(
          "dense_units " + format_count(du.distinct_multi_units) + " " + noun_for(du.distinct_multi_units, "unit") +
          " in >= 2 dimensions (direct), " + format_count(du.walk_nodes) + " " + noun_for(du.walk_nodes, "node") +
          " walked for " + format_count(planned_units_) + " " + noun_for(planned_units_, "unit") + read_back + ", " +
          format_count(static_cast<std::uint64_t>(
              static_cast<double>(du.distinct_multi_units - du.read_back_multi_units) / std::max(elapsed, 1e-9))) +
          " multi-dimension units/s walked on " + backend_name(so_far.backend_used));
    else
      log_.line("dense_units " + format_count(du.distinct_multi_units) + " " +
                noun_for(du.distinct_multi_units, "unit") + " in >= 2 dimensions, " +
                counted(du.partitions.size(), "partition") + " (" + to_string(du.scheme) + ")" + read_back + ", " +
                format_count(static_cast<std::uint64_t>(static_cast<double>(planned_units_ - du.read_back_units) /
                                                        std::max(elapsed, 1e-9))) +
                " units/s walked on " + backend_name(so_far.backend_used));
    if (du.partition_splits > 0)
      log_.line("dense_units " + counted(du.partition_splits, "partition") +
                (du.partition_splits == 1 ? " overflowed the device table and was split and redone"
                                          : " overflowed the device table and were split and redone"));
    for (const auto& note : du.notes) log_.line("dense_units " + note);
  }
  start_ = std::chrono::steady_clock::now();
}

}  // namespace subscale::pipeline
