#pragma once
// The MPI part of a process's life: started when the process was launched by mpirun or srun (their
// environment says so), never for a plain run, and finished when the session ends. It also gives
// each process of a node its own GPU: the local rank picks one of the node's devices before CUDA
// starts, so the CUDA code keeps using "device 0" and needs no change.
#include <string>

namespace subscale::distributed {

class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  bool active() const noexcept { return active_; }
  // What this process runs on, for the log: host, local rank, the device it was given.
  const std::string& placement() const noexcept { return placement_; }
  // Why this process must not run (empty when it may): see separate_copies_message.
  const std::string& launch_problem() const noexcept { return launch_problem_; }

  // Ends the whole job at once with `exit_code` (a process failed where the others cannot learn of
  // it, in the middle of their work). Returns only when MPI is not active.
  static void abort_job(int exit_code);

 private:
  bool active_ = false;
  std::string placement_;
  std::string launch_problem_;
};

// True when this build has Open MPI support.
bool mpi_built() noexcept;
// True when the environment shows a launcher (mpirun, srun with PMI/PMIx) started this process.
bool launched_by_mpi() noexcept;

// srun without an MPI plugin (Slurm's default MpiDefault=none), or with one the MPI library was not
// built for, starts each task of a step as a separate job of one process: P full copies that all
// write the same folder. When Slurm's environment says this step has more than one task but MPI
// sees `world_size` = 1, returns the message to refuse with (naming srun --mpi=pmix); else "".
// A plain run inside a batch script (SLURM_NTASKS set, but no step of srun's) is not refused.
std::string separate_copies_message(int world_size);

}  // namespace subscale::distributed
