#include "pipeline/commands/run_command.hpp"

#include <cstdio>
#include <optional>
#include <vector>

#include "common/error.hpp"
#include "distributed/communicator.hpp"
#include "pipeline/commands/run_input.hpp"
#include "pipeline/log/log_format.hpp"
#include "pipeline/output/claimed_folder.hpp"
#include "pipeline/run/run_folder.hpp"
#include "pipeline/run/single_run.hpp"
#include "pipeline/run/sweep.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/run_settings.hpp"

namespace subscale::pipeline {

namespace {

// What a run refuses before its work, shared by run and run --check.
Config load_checked_config(const RunOptions& options) {
  Config config = load_run_config(options.config_file, options.overrides, "run");
  if (!config.sweep_keys().empty() && (options.resume || config.has("checkpoint.dir")))
    throw UsageError("checkpoints are for single runs; the config has sweep lists (" + config.sweep_keys()[0] +
                     "); run each point as its own job (scripts/slurm/sweep-array.sbatch) to checkpoint it");
  return config;
}

// The files a run reads must be there when it starts; --check says so at submission already.
void check_inputs_exist(const Config& config) {
  for (const char* key : {"input.path", "join.path", "ground_truth.path"}) {
    if (!config.has(key)) continue;
    std::error_code error;
    const std::filesystem::path path = config.file_path(key);
    if (!std::filesystem::is_regular_file(path, error))
      throw InputError(std::string(key) + ": " + path.string() + ": no such file (check the path, or give " + key +
                       "=PATH)");
  }
}

}  // namespace

void check_run_command(const RunOptions& options) {
  const Config config = load_checked_config(options);
  const std::vector<Config> combinations = config.expand_sweeps();
  for (Config combination : combinations) {
    read_settings(combination, options.resume);
    check_inputs_exist(combination);
  }
  if (options.out) check_out_spares_inputs(*options.out, options.overwrite, config, options.resume);
  std::printf("subscale: %s: the config and %s are valid (%s)\n", options.config_file.string().c_str(),
              counted(options.overrides.size(), "override").c_str(), counted(combinations.size(), "run").c_str());
}

std::filesystem::path run_command(const RunOptions& options) {
  const distributed::Communicator comm = distributed::Communicator::world();
  std::optional<Config> loaded;
  // The root claims the folder for the whole run (and names it: a default name carries the root's
  // clock); released, swapped in or removed when this returns or throws.
  std::optional<ClaimedFolder> claimed;
  std::exception_ptr failure;
  try {
    loaded = load_checked_config(options);
    if (comm.is_root() && options.out)
      check_out_spares_inputs(*options.out, options.overwrite, *loaded, options.resume);
    if (comm.is_root())
      claimed.emplace(options.out ? ClaimedFolder::claim(*options.out, options.overwrite)
                                  : ClaimedFolder::claim_new("runs", options.config_file.stem().string()));
  } catch (...) {
    failure = std::current_exception();
  }
  comm.agree(failure);
  const Config& config = *loaded;
  const RunDestination destination{claimed ? &*claimed : nullptr, ""};
  if (!config.sweep_keys().empty()) return run_sweep(config, destination, options, comm);
  const std::filesystem::path folder = run_one(config, destination, options, comm).folder;
  if (claimed) claimed->finish();
  return folder;
}

}  // namespace subscale::pipeline
