#include "distributed/mpi_session.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include "distributed/communicator.hpp"

#ifdef SUBSCALE_WITH_MPI
#include <mpi.h>
#endif

namespace subscale::distributed {
namespace {

#ifdef SUBSCALE_WITH_MPI  // the device is chosen only for a run that MPI launched
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

// The node's GPUs as /dev/nvidia0, /dev/nvidia1, ...: counted without starting CUDA, which
// would read CUDA_VISIBLE_DEVICES too early.
int device_files() {
  int count = 0;
  while (std::filesystem::exists("/dev/nvidia" + std::to_string(count))) ++count;
  return count;
}

// One device per process of a node, by local rank, unless the launcher already gave each process
// exactly one (srun --gpus-per-task=1, or a site's binding script). Returns what was chosen.
std::string choose_device(int local_rank) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  std::vector<std::string> devices;
  if (visible) {
    devices = split_list(visible);
  } else {
    for (int d = 0, count = device_files(); d < count; ++d) devices.push_back(std::to_string(d));
  }
  if (devices.empty()) return "no GPU";
  if (devices.size() == 1) return "GPU " + devices[0];
  const std::string& chosen = devices[static_cast<std::size_t>(local_rank) % devices.size()];
  setenv("CUDA_VISIBLE_DEVICES", chosen.c_str(), 1);
  return "GPU " + chosen + " of " + std::to_string(devices.size()) + " (chosen by local rank)";
}
#endif

}  // namespace

bool mpi_built() noexcept {
#ifdef SUBSCALE_WITH_MPI
  return true;
#else
  return false;
#endif
}

std::string separate_copies_message(int world_size) {
  if (world_size > 1) return "";
  // SLURM_STEP_NUM_TASKS is set by srun for each task of its step; SLURM_NTASKS with SLURM_STEP_ID
  // counts too (an srun step), while SLURM_NTASKS alone is the batch script's allocation.
  std::string variable = "SLURM_STEP_NUM_TASKS";
  const char* tasks = std::getenv(variable.c_str());
  if (!tasks && std::getenv("SLURM_STEP_ID")) tasks = std::getenv((variable = "SLURM_NTASKS").c_str());
  if (!tasks || std::atoi(tasks) <= 1) return "";
  const std::string count = std::to_string(std::atoi(tasks));
  return "Slurm started this step with " + count + " tasks (" + variable + "=" + tasks +
         ") but MPI sees a job of one process: srun started " + count +
         " separate copies, which would each run the whole job into the same folder. Start the processes with "
         "`srun --mpi=pmix` (`srun --mpi=list` shows the plugins your Slurm has; the MPI library must support the "
         "one you pick), or with mpirun inside the allocation; for one process, use `srun -n 1`";
}

bool launched_by_mpi() noexcept {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name)) return true;
  return false;
}

MpiSession::MpiSession([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
  int world_size = 1;
#ifdef SUBSCALE_WITH_MPI
  if (launched_by_mpi()) {
    // The device is chosen before MPI starts where the launcher tells the local rank (an MPI built
    // with CUDA support may start CUDA inside MPI_Init); otherwise from MPI's view of the node.
    std::string device;
    for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID"}) {
      if (const char* value = std::getenv(name); value && device.empty()) device = choose_device(std::atoi(value));
    }
    int provided = 0;
    // Only the main thread calls MPI; the worker threads (oneTBB) never do.
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    active_ = true;
    const Communicator world = Communicator::world();
    if (device.empty()) device = choose_device(world.local_rank());
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    placement_ = "process " + std::to_string(world.rank()) + " of " + std::to_string(world.size()) + " on " + host +
                 " (local rank " + std::to_string(world.local_rank()) + "): " + device;
    world_size = world.size();
  }
#endif
  launch_problem_ = separate_copies_message(world_size);
}

MpiSession::~MpiSession() {
#ifdef SUBSCALE_WITH_MPI
  if (active_) MPI_Finalize();
#endif
}

void MpiSession::abort_job([[maybe_unused]] int exit_code) {
#ifdef SUBSCALE_WITH_MPI
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, exit_code);
#endif
}

}  // namespace subscale::distributed
