// Built instead of the filter_*_cuda.cu files without the CUDA backend (gpu/cuda_unavailable.hpp).
#include "gpu/cuda_unavailable.hpp"
#include "stages/filter/filter_cuda.hpp"

namespace subscale::filter {

FilterResult run_filter_cuda(const ColumnTable&, const Predicate&, const Aggregate&, const FilterOptions&,
                             const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("the filter", "filter.backend=cpu");
}

}  // namespace subscale::filter
