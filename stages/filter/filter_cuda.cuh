#pragma once
// What the three files of the filter's CUDA backend share: the launch shape the kernels are written
// for, the table's columns on the device, a string leaf's device tables and the general path's
// evaluator. The entry point (filter_aggregate_cuda.cu) drives the evaluator, whose leaves' kernels
// are in filter_numeric_cuda.cu and filter_strings_cuda.cu. Device code: included by those .cu
// files only.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "stages/filter/filter.hpp"

namespace subscale::filter {

constexpr int block_threads = 256;
constexpr int warps_per_block = block_threads / 32;
constexpr int max_fused_leaves = 16;
constexpr int max_program = 32;

__device__ __forceinline__ bool numeric_holds(const NumericLeaf& leaf, const ColumnView& column, std::uint64_t row) {
  if (leaf.exact) {
    const std::int64_t x = load_exact(column, row);
    return !leaf.empty && x >= leaf.low && x <= leaf.high;
  }
  // As the CPU: a missing bound is an infinite one, so NaN is never selected.
  const double x = load_double(column, row);
  const double low = leaf.has_low ? leaf.low_value : -INFINITY;
  const double high = leaf.has_high ? leaf.high_value : INFINITY;
  const bool above = leaf.low_inclusive ? x >= low : x > low;
  const bool below = leaf.high_inclusive ? x <= high : x < high;
  return above && below;
}

// Enough blocks to fill the device (16 per SM, grid-stride beyond), fewer for small inputs.
inline int grid_for(std::uint64_t items, int per_block = block_threads) {
  int device = 0, sms = 0;
  SUBSCALE_CUDA_CHECK(cudaGetDevice(&device));
  SUBSCALE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::uint64_t needed = (items + per_block - 1) / per_block;
  return static_cast<int>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(needed, std::uint64_t(sms) * 16)));
}

// The table's columns that the query reads, on the device.
struct DeviceColumns {
  std::vector<gpu::DeviceBuffer<unsigned char>> numeric;  // raw bytes, one per used numeric column
  std::vector<gpu::DeviceBuffer<std::int64_t>> offsets;
  std::vector<gpu::DeviceBuffer<std::uint8_t>> bytes;
  std::vector<ColumnView> views;  // every column; device pointers for the used ones
  std::vector<int> string_slot;   // column -> index in offsets/bytes (-1: not a used string)
  gpu::DeviceBuffer<ColumnView> device_views;
};

// ---------------------------------------------------------------- strings (filter_strings_cuda.cu)

// What a string kernel needs; the tables are staged into shared memory by every block.
struct StringParams {
  StringOp op;
  SearchAlgorithm algorithm;
  std::int32_t pattern_bytes;
  const std::uint8_t* pattern;
  const std::int32_t* kmp;         // pattern_bytes entries
  const std::int32_t* bmh;         // 256 entries
  const ByteAutomaton* automaton;  // regex
  const std::int64_t* offsets;
  const std::uint8_t* bytes;
  std::uint64_t rows;
};

// The tables of one string leaf on the device, uploaded before the timed kernels run.
struct DeviceStringLeaf {
  gpu::DeviceBuffer<std::uint8_t> pattern;
  gpu::DeviceBuffer<std::int32_t> kmp;
  gpu::DeviceBuffer<std::int32_t> bmh;
  gpu::DeviceBuffer<ByteAutomaton> automaton;
  gpu::DeviceBuffer<unsigned long long> refill_counter;
  StringParams params{};
};

// The leaf's tables uploaded on `stream`, reading the string column's slot of `columns`.
DeviceStringLeaf upload_string_leaf(const StringLeaf& leaf, const DeviceColumns& columns, std::uint64_t rows,
                                    cudaStream_t stream);

// Writes the leaf's bitmap of `words` 32-row words into out, in the given layout.
void launch_string_leaf(DeviceStringLeaf& leaf, StringLayout layout, std::uint64_t words, std::uint32_t* out,
                        cudaStream_t stream);

// ---------------------------------------------------------------- the general path (filter_numeric_cuda.cu)

enum class Combine { copy, and_with, or_with, negate };

class GeneralEvaluator {
 public:
  GeneralEvaluator(const Predicate& predicate, const DeviceColumns& columns, const FilterOptions& options,
                   std::uint64_t rows, cudaStream_t stream);

  // Writes the node's bitmap into out.
  void evaluate(int index, std::uint32_t* out, std::string& path);

  void fill_all(std::uint32_t* out);

 private:
  void combine(Combine op, const std::uint32_t* in, std::uint32_t* out);
  void evaluate_string(DeviceStringLeaf& leaf, std::uint32_t* out, std::string& path);

  const Predicate& predicate_;
  const FilterOptions& options_;
  cudaStream_t stream_;
  std::uint64_t rows_;
  std::uint64_t words_;
  std::uint32_t last_mask_;
  std::vector<ColumnView> views_;
  std::vector<DeviceStringLeaf> strings_;
  std::vector<gpu::DeviceBuffer<std::uint32_t>> scratch_;  // per node: a bitmap for the combining ones
};

}  // namespace subscale::filter
