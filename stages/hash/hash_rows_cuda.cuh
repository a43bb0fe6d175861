#pragma once
// The hashing kernels on device-resident data (for callers that keep data on the GPU, and the
// benchmark). d_words holds `rows` rows of `row_words` words, row-major; d_out gets one H per row.
// Rows of 1, 2, 4, 8 and 16 words are read with 16-byte vector loads when both pointers are
// 16-byte aligned (cudaMalloc's are); other widths and alignments take a word-by-word path.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/hash/hash_function_id.hpp"

namespace subscale::hash {

template <class H>
void hash_rows_device(const HashSpec& spec, const std::uint32_t* d_words, std::size_t rows, int row_words, H* d_out,
                      cudaStream_t stream);

}  // namespace subscale::hash
