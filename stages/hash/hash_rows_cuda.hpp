#pragma once
// The CUDA backend of hash_rows for host-resident tables: copies the table to the device in
// chunks that fit its free memory, hashes each chunk, copies the hashes back. Declared in every
// build; defined only when the CUDA backend is built (hash_rows.cpp calls it only then).
#include <cstdint>
#include <span>

#include "gpu/hash/hash_function_id.hpp"
#include "stages/hash/row_table.hpp"

namespace subscale::hash_stage {

template <class H>
void hash_rows_cuda(const hash::HashSpec& spec, const RowTableView& table, std::span<H> out);

}  // namespace subscale::hash_stage
