#pragma once
// What `subscale run` and `subscale plan` take from the command line: a run's options beside its config.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace subscale::pipeline {

struct RunOptions {
  std::filesystem::path config_file;
  std::vector<std::string> overrides;  // key=value
  std::optional<std::filesystem::path> out;
  bool quiet = false;
  bool overwrite = false;                       // run: write into an --out folder that holds other files
  bool force = false;                           // run: run even when the core is projected past a day
  bool check = false;                           // run: check the config and overrides, run nothing
  std::optional<std::filesystem::path> resume;  // run: continue the checkpoint in this folder
  int processes = 0;                            // plan: processes to plan for (0: this job's)
  std::string placement;                        // cluster runs: where this process runs (host, GPU)
};

}  // namespace subscale::pipeline
