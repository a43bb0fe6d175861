#include "pipeline/output/checkpoint_precheck.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace subscale::pipeline {

void precheck_checkpoint(const distributed::CheckpointOptions& options, const HeldValues* held) {
  const distributed::CheckpointFolder folder(options.folder);
  if (!options.resume) {
    if (folder.holds_checkpoint())
      throw UsageError("checkpoint.dir " + folder.path().string() +
                       " already holds a checkpoint; continue it with --resume " + folder.path().string() +
                       ", or delete it (or choose another folder) to start afresh");
    return;
  }
  distributed::CheckpointIdentity made = folder.read_manifest().identity;
  distributed::CheckpointIdentity wanted = options.identity;
  if (held) {
    wanted.emplace_back("input data",
                        held->visit([](const auto& values) { return distributed::input_data_identity(values); }));
  } else {
    // The data's hash is the one field that needs the data: compared once they are loaded.
    made.erase(std::remove_if(made.begin(), made.end(), [](const auto& field) { return field.first == "input data"; }),
               made.end());
  }
  const std::vector<std::string> differences = distributed::identity_differences(made, wanted);
  if (differences.empty()) return;
  std::string list;
  for (const auto& difference : differences) list += "\n  " + difference;
  throw UsageError("--resume " + folder.path().string() + ": the checkpoint was made for another run:" + list +
                   "\nresume with the config and input it was made with, or start afresh with another "
                   "checkpoint.dir");
}

}  // namespace subscale::pipeline
