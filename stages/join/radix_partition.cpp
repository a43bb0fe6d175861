#include "stages/join/radix_partition.hpp"

#include "common/error.hpp"
#include "gpu/device_info.hpp"
#include "stages/join/join_cuda.hpp"

namespace subscale::join {

PartitionedKeys radix_partition(std::span<const std::uint64_t> keys, const RadixLayout& layout, JoinHash hash,
                                Backend backend, const gpu::ExecutionContext& context) {
  if (backend == Backend::cpu) return radix_partition_cpu(keys, layout, hash);
  if (!gpu::cuda_backend_built() || !gpu::query_device().available)
    throw ResourceError("radix_partition: the cuda backend is not available (" +
                        (gpu::cuda_backend_built() ? gpu::query_device().reason : std::string("not built")) +
                        "): use the cpu backend");
  return radix_partition_cuda(keys, layout, hash, context);
}

}  // namespace subscale::join
