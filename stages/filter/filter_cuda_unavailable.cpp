// Built instead of filter_cuda.cu when the project is built without the CUDA backend.
#include "common/error.hpp"
#include "stages/filter/filter.hpp"

namespace subscale::filter {

FilterResult run_filter_cuda(const ColumnTable&, const Predicate&, const Aggregate&, const FilterOptions&) {
  throw ResourceError(
      "the filter's cuda backend was not built (no nvcc at configure time): use filter.backend=cpu or rebuild with "
      "the CUDA toolkit");
}

}  // namespace subscale::filter
