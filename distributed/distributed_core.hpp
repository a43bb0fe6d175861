#pragma once
// The core (dense_units and subspaces) of a cluster run, and of any run with a checkpoint: the work
// is cut into units (work_split.hpp), the units not yet recorded in the checkpoint are dealt to the
// processes, each process walks its share on its backend (its own GPU, or its CPU cores) into one
// subspace map, records each finished unit when checkpointing, and the maps are combined by
// subspace key (subspace_exchange.hpp). The subspaces equal a single process's, for any number of
// processes and any resume.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "distributed/checkpoint.hpp"
#include "distributed/communicator.hpp"
#include "stages/core/core_types.hpp"

namespace subscale::distributed {

struct CheckpointOptions {
  std::filesystem::path folder;
  bool resume = false;          // continue the checkpoint in `folder` (else start one there)
  std::uint32_t units = 0;      // work units of a new checkpoint (0: kUnitsPerProcess per process)
  CheckpointIdentity identity;  // this run's settings; the executor adds the input data's
};

// Work units per process of a new checkpoint, by default: a kill loses at most about an eighth of a
// process's share, and each unit costs one set-up of the walk (on a GPU the inputs copied and the
// table allocated again: 16 units per process took S5500's core on 2 GPUs from 4.2 s to 7.9 s).
inline constexpr std::uint32_t kUnitsPerProcess = 8;

// What the core did across the processes, for the log and for the merge stage.
struct ClusterCoreReport {
  std::vector<std::string> log_lines;
  std::vector<SubspaceCluster> owned;  // the subspaces this process owns (for merge), when distributed
  std::uint32_t units = 0;             // work units in all
  std::uint32_t resumed = 0;           // of them, read back from the checkpoint
  double checkpoint_seconds = 0;       // this process's time writing and reading unit files
};

// A CoreExecutor for pipeline::run_core. On the root, result.subspaces holds every subspace; on the
// other processes it is empty and `report.owned` holds theirs. Failures in the walk end the whole job
// (MpiSession::abort_job) since the other processes cannot learn of them until they finish theirs.
CoreExecutor distributed_core_executor(const Communicator& comm, const std::optional<CheckpointOptions>& checkpoint,
                                       ClusterCoreReport& report);

// A 64-bit hash of the data the core reads (the normalised matrix), as hex: a checkpoint made for
// other data is refused.
template <class T>
std::string data_fingerprint(const ColumnMatrix<T>& values);
// The checkpoint identity's "input data" value: the shape and the fingerprint.
template <class T>
std::string input_data_identity(const ColumnMatrix<T>& values);

}  // namespace subscale::distributed
