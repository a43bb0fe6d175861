#pragma once
// The runner behind `subscale run` and `subscale plan`: config -> load -> normalize -> core ->
// merge -> evaluate -> run folder. It owns the order, the timers, the progress bar and the
// files; it knows nothing of what a stage computes.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace subscale::pipeline {

struct CommandOptions {
  std::filesystem::path config_file;
  std::vector<std::string> overrides;  // key=value
  std::optional<std::filesystem::path> out;
  bool quiet = false;
  std::optional<std::filesystem::path> resume;  // run: continue the checkpoint in this folder
  int processes = 0;                            // plan: processes to plan for (0: this job's)
  std::string placement;                        // cluster runs: where this process runs (host, GPU)
};

// Runs one config (or every combination of a sweep). Returns the folder written.
std::filesystem::path run_command(const CommandOptions& options);

// Prints what the run would cost (counts, partitions, memory) and stops.
void plan_command(const CommandOptions& options);

}  // namespace subscale::pipeline
