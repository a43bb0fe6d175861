// The general path of the filter's CUDA backend (every predicate the fused pass does not take):
// each leaf writes a whole bitmap of the table, so that an and/or/not tree of any shape comes down
// to combining bitmaps word by word. Here: the numeric leaves, the combining kernels and the walk
// over the predicate's tree; the string leaves are in filter_strings_cuda.cu, the aggregate over
// the final bitmap in filter_aggregate_cuda.cu.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/cuda_check.hpp"
#include "stages/filter/filter_cuda.cuh"

namespace subscale::filter {
namespace {

// ---------------------------------------------------------------- numeric leaves

// Each warp takes 4 words of 32 rows per step, so each thread has 4 loads in flight.
__global__ void numeric_leaf_kernel(NumericLeaf leaf, ColumnView column, std::uint64_t rows, std::uint32_t* bits) {
  constexpr int unroll = 4;
  const unsigned lane = threadIdx.x & 31;
  const std::uint64_t span = 32ull * unroll;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * (blockDim.x / 32) * span;
  for (std::uint64_t base = (std::uint64_t{blockIdx.x} * (blockDim.x / 32) + threadIdx.x / 32) * span; base < rows;
       base += stride) {
    bool keep[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const std::uint64_t row = base + 32 * u + lane;
      keep[u] = row < rows && numeric_holds(leaf, column, row);
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      const unsigned word = __ballot_sync(0xffffffffu, keep[u]);
      if (lane == 0 && base + 32 * u < rows) bits[base / 32 + u] = word;
    }
  }
}

// ---------------------------------------------------------------- combining bitmaps

__global__ void combine_kernel(Combine op, const std::uint32_t* in, std::uint32_t* out, std::uint64_t words,
                               std::uint32_t last_word_mask) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; w < words; w += stride) {
    const std::uint32_t x = in[w];
    switch (op) {
      case Combine::copy:
        out[w] = x;
        break;
      case Combine::and_with:
        out[w] &= x;
        break;
      case Combine::or_with:
        out[w] |= x;
        break;
      case Combine::negate:
        out[w] = ~x & (w + 1 == words ? last_word_mask : 0xffffffffu);
        break;
    }
  }
}

__global__ void fill_kernel(std::uint32_t* out, std::uint64_t words, std::uint32_t last_word_mask) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; w < words; w += stride)
    out[w] = w + 1 == words ? last_word_mask : 0xffffffffu;
}

}  // namespace

// ---------------------------------------------------------------- the predicate's tree

GeneralEvaluator::GeneralEvaluator(const Predicate& predicate, const DeviceColumns& columns,
                                   const FilterOptions& options, std::uint64_t rows, cudaStream_t stream)
    : predicate_(predicate),
      options_(options),
      stream_(stream),
      rows_(rows),
      words_((rows + 31) / 32),
      last_mask_(rows % 32 == 0 ? 0xffffffffu : (1u << (rows % 32)) - 1) {
  for (const StringLeaf& leaf : predicate.strings) strings_.push_back(upload_string_leaf(leaf, columns, rows, stream_));
  for (const PredicateNode& node : predicate.nodes) {
    const bool combines = node.kind != NodeKind::numeric && node.kind != NodeKind::string;
    scratch_.emplace_back(combines ? std::max<std::uint64_t>(words_, 1) : 0);
  }
  views_ = columns.views;
}

void GeneralEvaluator::evaluate(int index, std::uint32_t* out, std::string& path) {
  if (words_ == 0) return;
  const PredicateNode& node = predicate_.nodes[static_cast<std::size_t>(index)];
  const int grid = grid_for(words_ * 32);
  switch (node.kind) {
    case NodeKind::numeric: {
      const NumericLeaf& leaf = predicate_.numeric[static_cast<std::size_t>(node.leaf)];
      numeric_leaf_kernel<<<grid, block_threads, 0, stream_>>>(leaf, views_[static_cast<std::size_t>(leaf.column)],
                                                               rows_, out);
      SUBSCALE_CUDA_CHECK_LAUNCH(numeric_leaf_kernel);
      return;
    }
    case NodeKind::string:
      evaluate_string(strings_[static_cast<std::size_t>(node.leaf)], out, path);
      return;
    case NodeKind::negation: {
      std::uint32_t* inner = scratch_[static_cast<std::size_t>(index)].data();
      evaluate(node.children[0], inner, path);
      combine(Combine::negate, inner, out);
      return;
    }
    case NodeKind::all_of:
    case NodeKind::any_of: {
      evaluate(node.children[0], out, path);
      std::uint32_t* inner = scratch_[static_cast<std::size_t>(index)].data();
      for (std::size_t i = 1; i < node.children.size(); ++i) {
        evaluate(node.children[i], inner, path);
        combine(node.kind == NodeKind::all_of ? Combine::and_with : Combine::or_with, inner, out);
      }
      return;
    }
  }
}

void GeneralEvaluator::fill_all(std::uint32_t* out) {
  if (words_ == 0) return;
  fill_kernel<<<grid_for(words_), block_threads, 0, stream_>>>(out, words_, last_mask_);
  SUBSCALE_CUDA_CHECK_LAUNCH(fill_kernel);
}

void GeneralEvaluator::combine(Combine op, const std::uint32_t* in, std::uint32_t* out) {
  combine_kernel<<<grid_for(words_), block_threads, 0, stream_>>>(op, in, out, words_, last_mask_);
  SUBSCALE_CUDA_CHECK_LAUNCH(combine_kernel);
}

void GeneralEvaluator::evaluate_string(DeviceStringLeaf& leaf, std::uint32_t* out, std::string& path) {
  launch_string_leaf(leaf, options_.string_layout, words_, out, stream_);
  const std::string layout = to_string(options_.string_layout);
  if (path.find(layout) == std::string::npos) path.append("+").append(layout);
}

}  // namespace subscale::filter
