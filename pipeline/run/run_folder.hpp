#pragma once
// The run folder: where a run writes (the root's claimed folder, see claimed_folder.hpp), and
// everything written into it, summary.json last.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "pipeline/log/run_log.hpp"
#include "pipeline/output/claimed_folder.hpp"
#include "pipeline/output/run_report.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/run_settings.hpp"

namespace subscale::pipeline {

// Where one run writes: on the root the claimed folder itself, or for a sweep's run its folder
// `name` inside the sweep's claimed folder; nothing on the other processes of a cluster run.
struct RunDestination {
  ClaimedFolder* claimed = nullptr;
  std::string name;
  // Called by begin() once the folder exists (a sweep writes its tables then, this run marked
  // running).
  std::function<void()> on_begin;

  // The folder as the user finds it once the run is finished (for messages and the sweep's table).
  std::filesystem::path shown() const;
  // Begins the claimed folder (once the input is accepted) and returns where this run writes.
  std::filesystem::path begin() const;
};

// Refuses (UsageError, exit 2) an --out folder in which the run would remove or replace one of its
// own inputs (every path key of `config`, and `resume`): an earlier run's or sweep's folder, which
// the run replaces as a whole, holding it at any depth; or, with --overwrite, a folder holding it
// under a name the run writes (or in a sub-folder, which a sweep's point may replace). Call it
// before the folder is claimed: nothing is written when it throws.
void check_out_spares_inputs(const std::filesystem::path& out, bool overwrite, const Config& config,
                             const std::optional<std::filesystem::path>& resume);

void create_folder(const std::filesystem::path& folder);
// Writes the run's files into `folder` (the work folder), summary.json last; `shown` is the
// folder's name once it is in place, for the log.
void write_run_folder(const std::filesystem::path& folder, const std::filesystem::path& shown, const Config& config,
                      const RunSettings& settings, RunReport& report, RunLog& log);

}  // namespace subscale::pipeline
