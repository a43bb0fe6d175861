#pragma once
// The hash stage's compute: every row of a table hashed with one function into 32- or 64-bit
// values, on the CPU (oneTBB) or the GPU. The same call for both backends; the same bits.
#include <cstdint>
#include <span>

#include "gpu/execution_context.hpp"
#include "gpu/hash/hash_function_id.hpp"
#include "stages/hash/row_table.hpp"

namespace subscale::hash {

// out.size() must equal table.rows; H (uint32_t or uint64_t) is the hash width.
// Backend::cuda throws ResourceError when the CUDA backend is not built or no device is usable;
// it runs with `context` (gpu/execution_context.hpp).
template <class H>
void hash_rows(const HashSpec& spec, const RowTableView& table, std::span<H> out, Backend backend,
               const gpu::ExecutionContext& context = {});

// The CPU backend alone (what Backend::cpu runs): oneTBB over blocks of rows.
template <class H>
void hash_rows_cpu(const HashSpec& spec, const RowTableView& table, std::span<H> out);

// Checks the arguments every backend needs; throws UsageError naming the problem.
void check_hash_arguments(const HashSpec& spec, const RowTableView& table, std::size_t out_size);

}  // namespace subscale::hash
