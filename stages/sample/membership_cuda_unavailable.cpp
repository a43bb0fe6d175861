// Built instead of membership_cuda.cu without the CUDA backend (gpu/cuda_unavailable.hpp).
#include "gpu/cuda_unavailable.hpp"
#include "stages/sample/membership_cuda.hpp"

namespace subscale::sample {

template <class T>
std::vector<std::vector<std::uint32_t>> members_near_cuda(const ColumnMatrix<T>&, const ColumnMatrix<T>&,
                                                          const std::vector<SubspaceCluster>&, const MembershipParams&,
                                                          const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("membership", "backend: cpu or auto");
}

template std::vector<std::vector<std::uint32_t>> members_near_cuda(const Matrix32&, const Matrix32&,
                                                                   const std::vector<SubspaceCluster>&,
                                                                   const MembershipParams&,
                                                                   const gpu::ExecutionContext&);
template std::vector<std::vector<std::uint32_t>> members_near_cuda(const Matrix&, const Matrix&,
                                                                   const std::vector<SubspaceCluster>&,
                                                                   const MembershipParams&,
                                                                   const gpu::ExecutionContext&);

}  // namespace subscale::sample
