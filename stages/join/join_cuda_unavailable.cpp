// Built instead of the .cu files when the project is built without the CUDA backend.
#include "common/error.hpp"
#include "stages/join/join_cuda.hpp"

namespace subscale::join::cuda {

namespace {
[[noreturn]] void unavailable() {
  throw ResourceError(
      "the join's cuda backend was not built (no nvcc at configure time): use join.backend=cpu or rebuild "
      "with the CUDA toolkit");
}
}  // namespace

subscale::join::PartitionedKeys radix_partition(std::span<const std::uint64_t>, const subscale::join::RadixLayout&,
                                                subscale::join::JoinHash) {
  unavailable();
}

void hash_join(std::span<const std::uint64_t>, std::span<const std::uint64_t>, const subscale::join::JoinSettings&,
               const subscale::join::PairSink&, subscale::join::JoinTimings&) {
  unavailable();
}

}  // namespace subscale::join::cuda
