#pragma once
// The cuda backend of the filter: the same result as run_filter_cpu. Defined by
// filter_aggregate_cuda.cu (with filter_numeric_cuda.cu and filter_strings_cuda.cu), or by
// filter_cuda_unavailable.cpp in a build without CUDA.
#include "gpu/execution_context.hpp"
#include "stages/filter/filter.hpp"

namespace subscale::filter {

FilterResult run_filter_cuda(const ColumnTable& table, const Predicate& predicate, const Aggregate& aggregate,
                             const FilterOptions& options, const gpu::ExecutionContext& context);

}  // namespace subscale::filter
