// Built instead of the *_cuda.cu files of the join without the CUDA backend
// (gpu/cuda_unavailable.hpp).
#include "gpu/cuda_unavailable.hpp"
#include "stages/join/join_cuda.hpp"

namespace subscale::join::cuda {

subscale::join::PartitionedKeys radix_partition(std::span<const std::uint64_t>, const subscale::join::RadixLayout&,
                                                subscale::join::JoinHash, const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("the join's radix partitioning", "join.backend=cpu");
}

void hash_join(std::span<const std::uint64_t>, std::span<const std::uint64_t>, const subscale::join::JoinSettings&,
               const subscale::join::PairSink&, subscale::join::JoinTimings&, const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("the join", "join.backend=cpu");
}

}  // namespace subscale::join::cuda
