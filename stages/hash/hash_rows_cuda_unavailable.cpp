// Built instead of hash_rows_cuda.cu without the CUDA backend (gpu/cuda_unavailable.hpp).
#include "gpu/cuda_unavailable.hpp"
#include "stages/hash/hash_rows_cuda.hpp"

namespace subscale::hash {

template <class H>
void hash_rows_cuda(const HashSpec&, const RowTableView&, std::span<H>, const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("hash", "hash.backend=cpu");
}

template void hash_rows_cuda<std::uint32_t>(const HashSpec&, const RowTableView&, std::span<std::uint32_t>,
                                            const gpu::ExecutionContext&);
template void hash_rows_cuda<std::uint64_t>(const HashSpec&, const RowTableView&, std::span<std::uint64_t>,
                                            const gpu::ExecutionContext&);

}  // namespace subscale::hash
