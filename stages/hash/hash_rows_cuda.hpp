#pragma once
// The CUDA backend of hash_rows for host-resident tables: copies the table to the device in
// chunks of half the device budget (gpu/device_budget.hpp), hashes each chunk on context.stream,
// copies the hashes back. Defined by hash_rows_cuda.cu, or by hash_rows_cuda_unavailable.cpp in a
// build without CUDA.
#include <cstdint>
#include <span>

#include "gpu/execution_context.hpp"
#include "gpu/hash/hash_function_id.hpp"
#include "stages/hash/row_table.hpp"

namespace subscale::hash {

template <class H>
void hash_rows_cuda(const HashSpec& spec, const RowTableView& table, std::span<H> out,
                    const gpu::ExecutionContext& context);

}  // namespace subscale::hash
