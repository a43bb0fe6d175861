#include "pipeline/commands/run_command.hpp"

#include <optional>

#include "common/error.hpp"
#include "distributed/communicator.hpp"
#include "pipeline/config.hpp"
#include "pipeline/core_schema.hpp"
#include "pipeline/run_folder.hpp"
#include "pipeline/single_run.hpp"
#include "pipeline/sweep.hpp"

namespace subscale::pipeline {

std::filesystem::path run_command(const CommandOptions& options) {
  const distributed::Communicator comm = distributed::Communicator::world();
  std::optional<Config> loaded;
  std::filesystem::path folder;
  std::exception_ptr failure;
  try {
    loaded = Config::load_file(options.config_file, options.overrides, core_config_schema());
    // The root names the folder (a default name carries the root's clock).
    folder = options.out ? *options.out : default_run_folder(options.config_file);
    if (!loaded->sweep_keys().empty() && (options.resume || loaded->has("checkpoint.dir")))
      throw UsageError("checkpoints are for single runs; the config has sweep lists (" + loaded->sweep_keys()[0] +
                       "); run each point as its own job (scripts/slurm/sweep-array.sbatch) to checkpoint it");
  } catch (...) {
    failure = std::current_exception();
  }
  comm.agree(failure);
  const std::string folder_name = folder.string();
  const distributed::Bytes name = comm.broadcast(distributed::Bytes(folder_name.begin(), folder_name.end()));
  folder = std::string(name.begin(), name.end());
  const Config& config = *loaded;
  if (config.sweep_keys().empty()) return run_one(config, folder, options, comm).folder;
  return run_sweep(config, folder, options, comm);
}

}  // namespace subscale::pipeline
