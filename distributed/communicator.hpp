#pragma once
// The processes of a cluster run (an MPI job) as one object: rank, size, the rank on this node,
// and the few collectives the runner needs, on byte buffers. Without MPI (a plain `subscale run`,
// or a build without Open MPI) it is a job of one process and every collective is a copy, so the
// code that uses it has no #ifdefs and no second path.
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace subscale::distributed {

using Bytes = std::vector<std::uint8_t>;

class Communicator {
 public:
  // The job this process belongs to: MPI's world when an MpiSession is active, else one process.
  static Communicator world();
  // One process alone, whatever launched it.
  static Communicator single() { return Communicator(); }

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  int local_rank() const noexcept { return local_rank_; }  // among the processes of this node
  int local_size() const noexcept { return local_size_; }
  bool is_root() const noexcept { return rank_ == 0; }
  bool distributed() const noexcept { return size_ > 1; }

  void barrier() const;
  // Root's bytes, on every process.
  Bytes broadcast(Bytes bytes, int root = 0) const;
  // to_each[r] goes to process r; returns what each process sent here, by sender (this process's
  // own buffer moved, not copied: buffers of a large run's exchange are gigabytes).
  std::vector<Bytes> all_to_all(std::vector<Bytes> to_each) const;
  // Every process's bytes on `root` (by sender; the root's own moved); empty elsewhere.
  std::vector<Bytes> gather(Bytes mine, int root = 0) const;
  // Every process's bytes on every process.
  std::vector<Bytes> all_gather(const Bytes& mine) const;
  std::uint64_t sum(std::uint64_t value) const;
  double max(double value) const;

  // Phase boundaries: every process says whether it failed (a null pointer: it did not). When any
  // did, every process throws the error of the lowest failing rank (as a subscale::Error with its
  // exit code and message), so all leave together with one exit code and nobody waits forever in
  // a later collective. The thrown error is marked as agreed (see error_was_agreed).
  void agree(std::exception_ptr failure) const;

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

// True when `error` came out of agree() (every process of the job holds it): the runner then lets
// only the root print it, and the job ends in order instead of being aborted.
bool error_was_agreed(const std::exception& error) noexcept;

}  // namespace subscale::distributed
