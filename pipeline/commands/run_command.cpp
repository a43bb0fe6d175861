#include "pipeline/commands/run_command.hpp"

#include <optional>

#include "common/error.hpp"
#include "distributed/communicator.hpp"
#include "pipeline/output/claimed_folder.hpp"
#include "pipeline/run/run_folder.hpp"
#include "pipeline/run/single_run.hpp"
#include "pipeline/run/sweep.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/core_schema.hpp"

namespace subscale::pipeline {

std::filesystem::path run_command(const RunOptions& options) {
  const distributed::Communicator comm = distributed::Communicator::world();
  std::optional<Config> loaded;
  // The root claims the folder for the whole run (and names it: a default name carries the root's
  // clock); released, swapped in or removed when this returns or throws.
  std::optional<ClaimedFolder> claimed;
  std::exception_ptr failure;
  try {
    loaded = Config::load_file(options.config_file, options.overrides, core_config_schema());
    if (!loaded->sweep_keys().empty() && (options.resume || loaded->has("checkpoint.dir")))
      throw UsageError("checkpoints are for single runs; the config has sweep lists (" + loaded->sweep_keys()[0] +
                       "); run each point as its own job (scripts/slurm/sweep-array.sbatch) to checkpoint it");
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
