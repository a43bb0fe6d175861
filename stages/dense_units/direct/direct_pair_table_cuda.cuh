#pragma once
// Direct mode's pair table on the device: the host's table (direct_pair_table.hpp) built by a
// kernel from the held values, word for word the same. With it the device walk finds a prefix's
// and a leaf's dimensions by ANDing a few words instead of reading a value a live dimension.
#include <cuda_runtime.h>

#include <cstdint>

namespace subscale::dense_units::direct {

// Fills `table` (points x points x words, row a at a * points * words) from `rows` (points x
// dimensions, row-major, on the device): word w of (a, b) gets the bit of each dimension of that
// word in which |x_a - x_b| < epsilon, computed in T as the host table and the walk compute it.
// Its words are `word_bytes` wide (pair_table_word_bytes: 2, 4 or 8). Runs on `stream`; does not
// wait for it.
template <class T>
void fill_pair_table(const T* rows, std::uint32_t points, std::uint32_t dimensions, std::uint32_t words, T epsilon,
                     std::uint32_t word_bytes, void* table, cudaStream_t stream);

}  // namespace subscale::dense_units::direct
