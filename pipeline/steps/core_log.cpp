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
  if (step == "plan") {
    report_.stage_seconds.emplace_back("density1d", elapsed);
    std::uint64_t clusters = 0;
    for (const auto& d : so_far.density.dimensions) clusters += d.clusters;
    log_.line("density1d   " + std::to_string(clusters) + " 1-D clusters over " + std::to_string(dimensions_) +
              " dimensions" + (so_far.density1d_on_gpu ? " (on the GPU)" : ""));
  } else if (step == "dense_units") {
    report_.stage_seconds.emplace_back("plan", elapsed);
    planned_units_ = so_far.total_units;
    check_memory_budget(settings_, planned_units_, so_far.largest_window_units);
    log_.line("plan        " + format_count(planned_units_) + " dense units");
    if (so_far.direct_memory)
      if (const std::string note = direct_memory_note(settings_, *so_far.direct_memory); !note.empty()) log_.line(note);
    if (const std::string note = partition_memory_note(settings_, planned_units_); !note.empty()) log_.line(note);
    if (so_far.direct_sample_units > 0) {
      // Said before the walk, and even with --quiet when it is past an hour.
      const TimeEstimate time =
          estimate_time(static_cast<double>(planned_units_), so_far.direct_sample_units, so_far.direct_sample_seconds);
      if (time.warn)
        log_.warning(time.text);
      else
        log_.line(time.text);
    }
    bar_.emplace("dense_units", planned_units_, progress_display(log_.quiet()), settings_.progress_seconds,
                 [this](const std::string& line) { log_.line(line); });
  } else if (step == "subspaces") {
    bar_.reset();
    report_.stage_seconds.emplace_back("dense_units", elapsed);
    const auto& du = so_far.dense_units;
    // The rate is of the units walked now; a resumed run read the rest back.
    const std::string read_back = du.read_back_units == 0 ? std::string()
                                                          : ", " + format_count(du.read_back_units) +
                                                                " of the units read back from the checkpoint";
    if (settings_.core.units.mode == TableMode::direct && !du.multi_units_counted)
      log_.line("dense_units " + format_count(du.walk_nodes) + " nodes walked for " + format_count(planned_units_) +
                " units (direct; " + format_count(du.walk_covered) +
                " parts of the walk passed over as adding no point, so units in >= 2 dimensions are not all "
                "counted: direct.count_units counts them)" +
                read_back + " on " + backend_name(so_far.backend_used));
    else if (settings_.core.units.mode == TableMode::direct)
      log_.line(
          "dense_units " + format_count(du.distinct_multi_units) + " units in >= 2 dimensions (direct), " +
          format_count(du.walk_nodes) + " nodes walked for " + format_count(planned_units_) + " units" + read_back +
          ", " +
          format_count(static_cast<std::uint64_t>(
              static_cast<double>(du.distinct_multi_units - du.read_back_multi_units) / std::max(elapsed, 1e-9))) +
          " multi-dimension units/s walked on " + backend_name(so_far.backend_used));
    else
      log_.line("dense_units " + format_count(du.distinct_multi_units) + " units in >= 2 dimensions, " +
                std::to_string(du.partitions.size()) + " partition(s) (" + to_string(du.scheme) + ")" + read_back +
                ", " +
                format_count(static_cast<std::uint64_t>(static_cast<double>(planned_units_ - du.read_back_units) /
                                                        std::max(elapsed, 1e-9))) +
                " units/s walked on " + backend_name(so_far.backend_used));
    if (du.partition_splits > 0)
      log_.line("dense_units " + std::to_string(du.partition_splits) +
                " partition(s) overflowed the device table and were split and redone");
    for (const auto& note : du.notes) log_.line("dense_units " + note);
  }
  start_ = std::chrono::steady_clock::now();
}

}  // namespace subscale::pipeline
