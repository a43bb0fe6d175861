// Built instead of the *_cuda.cu files of the join without the CUDA backend
// (gpu/cuda_unavailable.hpp).
#include "gpu/cuda_unavailable.hpp"
#include "stages/join/join_cuda.hpp"

namespace subscale::join {

PartitionedKeys radix_partition_cuda(std::span<const std::uint64_t>, const RadixLayout&, JoinHash,
                                     const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("the join's radix partitioning", "join.backend=cpu");
}

void hash_join_cuda(std::span<const std::uint64_t>, std::span<const std::uint64_t>, const JoinSettings&,
                    const PairSink&, JoinTimings&, const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("the join", "join.backend=cpu");
}

}  // namespace subscale::join
