#include <algorithm>

#include "common/host_device.hpp"
#include "gpu/cuda_check.hpp"
#include "stages/dense_units/direct/direct_pair_table_cuda.cuh"

namespace subscale::dense_units::direct {
namespace {

// One thread a pair (a, b), consecutive threads taking consecutive b: row a is read by the whole
// block, and the words of a row are written together.
template <class T, class Word>
__global__ void fill_pairs(const T* rows, std::uint32_t points, std::uint32_t dimensions, std::uint32_t words,
                           T epsilon, Word* table) {
  const std::uint64_t total = std::uint64_t{points} * points;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t pair = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; pair < total; pair += stride) {
    const T* x = rows + pair / points * dimensions;
    const T* y = rows + pair % points * dimensions;
    for (std::uint32_t w = 0; w < words; ++w) {
      const std::uint32_t end = std::min(dimensions, (w + 1) * 64);
      std::uint64_t word = 0;
      for (std::uint32_t dim = w * 64; dim < end; ++dim)
        word |= static_cast<std::uint64_t>(pair_within(x[dim], y[dim], epsilon)) << (dim % 64);
      table[pair * words + w] = static_cast<Word>(word);
    }
  }
}

}  // namespace

template <class T>
void fill_pair_table(const T* rows, std::uint32_t points, std::uint32_t dimensions, std::uint32_t words, T epsilon,
                     std::uint32_t word_bytes, void* table, cudaStream_t stream) {
  if (points == 0) return;
  constexpr unsigned kThreads = 256;
  const std::uint64_t pairs = std::uint64_t{points} * points;
  const auto blocks = static_cast<unsigned>(std::min<std::uint64_t>((pairs + kThreads - 1) / kThreads, 1u << 20));
  if (word_bytes == 2)
    fill_pairs<<<blocks, kThreads, 0, stream>>>(rows, points, dimensions, words, epsilon,
                                                static_cast<std::uint16_t*>(table));
  else if (word_bytes == 4)
    fill_pairs<<<blocks, kThreads, 0, stream>>>(rows, points, dimensions, words, epsilon,
                                                static_cast<std::uint32_t*>(table));
  else
    fill_pairs<<<blocks, kThreads, 0, stream>>>(rows, points, dimensions, words, epsilon,
                                                static_cast<std::uint64_t*>(table));
  SUBSCALE_CUDA_CHECK_LAUNCH("fill_pairs");
}

template void fill_pair_table<float>(const float*, std::uint32_t, std::uint32_t, std::uint32_t, float, std::uint32_t,
                                     void*, cudaStream_t);
template void fill_pair_table<double>(const double*, std::uint32_t, std::uint32_t, std::uint32_t, double, std::uint32_t,
                                      void*, cudaStream_t);

}  // namespace subscale::dense_units::direct
