// The CUDA backend of the filter (docs/stages.md §4): its entry point, the pass that selects and
// aggregates, and the compaction to row ids; the general path's leaves are in
// filter_numeric_cuda.cu and filter_strings_cuda.cu. The selection is a bitmap of 32-row words: a
// warp evaluates 32 consecutive rows and its ballot is the word. Two ways to a bitmap:
//   - fused: when the predicate is an AND of numeric ranges (TPC-H Q6's shape), one kernel reads
//     the columns once, evaluates every range, evaluates the aggregate's expression on the rows
//     it keeps and reduces it per block (warp shuffles, then the block's warps in order);
//   - general: each leaf writes its own bitmap (strings with one of three layouts, see
//     StringLayout), and/or/not combine bitmaps word by word, then the same kernel aggregates.
// Row ids come from the bitmap by a popcount + exclusive scan (CUB) + per-word scatter, or by
// cub::DeviceSelect::If. Exact aggregates use the same __int128 evaluation as the CPU, so sums,
// minima and maxima are bit-identical to the CPU backend's.
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/staged_upload.hpp"
#include "stages/filter/filter_cuda.cuh"
#include "stages/filter/filter_cuda.hpp"

namespace subscale::filter {
namespace {

using gpu::DeviceBuffer;

// ---------------------------------------------------------------- select + aggregate

struct Partial {
  __int128 sum;
  std::int64_t min, max;
  double double_sum, double_min, double_max;
  unsigned long long rows;
  unsigned long long overflow_row;  // ~0: none
};

__host__ __device__ Partial empty_partial() {
  return {0,
          std::numeric_limits<std::int64_t>::max(),
          std::numeric_limits<std::int64_t>::min(),
          0.0,
          INFINITY,
          -INFINITY,
          0,
          ~0ull};
}

__host__ __device__ void merge(Partial& a, const Partial& b) {
  a.sum += b.sum;
  a.min = a.min < b.min ? a.min : b.min;
  a.max = a.max > b.max ? a.max : b.max;
  a.double_sum += b.double_sum;
  a.double_min = fmin(a.double_min, b.double_min);
  a.double_max = fmax(a.double_max, b.double_max);
  a.rows += b.rows;
  a.overflow_row = a.overflow_row < b.overflow_row ? a.overflow_row : b.overflow_row;
}

__device__ Partial shuffle_down(const Partial& p, unsigned delta) {
  Partial q;
  const auto low = static_cast<unsigned long long>(p.sum);
  const auto high = static_cast<unsigned long long>(p.sum >> 64);
  const unsigned __int128 bits = (static_cast<unsigned __int128>(__shfl_down_sync(0xffffffffu, high, delta)) << 64) |
                                 __shfl_down_sync(0xffffffffu, low, delta);
  q.sum = static_cast<__int128>(bits);
  q.min = __shfl_down_sync(0xffffffffu, p.min, delta);
  q.max = __shfl_down_sync(0xffffffffu, p.max, delta);
  q.double_sum = __shfl_down_sync(0xffffffffu, p.double_sum, delta);
  q.double_min = __shfl_down_sync(0xffffffffu, p.double_min, delta);
  q.double_max = __shfl_down_sync(0xffffffffu, p.double_max, delta);
  q.rows = __shfl_down_sync(0xffffffffu, p.rows, delta);
  q.overflow_row = __shfl_down_sync(0xffffffffu, p.overflow_row, delta);
  return q;
}

// Every thread's partial joined into the block's, written to partials[blockIdx.x]: a warp shuffle,
// then the warps' results through shared memory. All threads of the block must call it.
__device__ void reduce_block(Partial mine, Partial* warp_partials, Partial* partials) {
  const unsigned lane = threadIdx.x & 31;
  for (unsigned delta = 16; delta > 0; delta /= 2) {
    const Partial other = shuffle_down(mine, delta);
    if (lane < delta) merge(mine, other);
  }
  if (lane == 0) warp_partials[threadIdx.x / 32] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    Partial block = warp_partials[0];
    for (int w = 1; w < warps_per_block; ++w) merge(block, warp_partials[w]);
    partials[blockIdx.x] = block;
  }
}

struct SelectParams {
  const NumericLeaf* leaves;         // fused: ANDed ranges (device copy)
  const std::int32_t* leaf_columns;  // their column indices
  int leaf_count;
  const std::uint32_t* selection;  // general path: the predicate's bitmap (null when fused)
  const ColumnView* columns;       // every column of the table (device pointers)
  const ExpressionOp* program;
  int program_size;
  bool exact;
  bool evaluate;  // sum/min/max need the expression; count and none do not
  std::uint64_t rows;
  std::uint32_t* bits;  // out: the selection bitmap (fused path)
  Partial* partials;    // out: one per block
};

__device__ __noinline__ void accumulate(const SelectParams& p, const ExpressionOp* program, std::uint64_t row,
                                        Partial& mine) {
  ++mine.rows;
  if (!p.evaluate) return;
  if (p.exact) {
    std::int64_t value = 0;
    if (!evaluate_exact(program, p.program_size, p.columns, row, value)) {
      mine.overflow_row = mine.overflow_row < row ? mine.overflow_row : row;
      return;
    }
    mine.sum += value;
    mine.min = value < mine.min ? value : mine.min;
    mine.max = value > mine.max ? value : mine.max;
  } else {
    const double value = evaluate_double(program, p.program_size, p.columns, row);
    mine.double_sum += value;
    mine.double_min = fmin(mine.double_min, value);
    mine.double_max = fmax(mine.double_max, value);
  }
}

// Rows a warp handles per step: `fused_unroll` words of 32 rows, so that each thread has that many
// independent loads of a column in flight (the loads of one row's leaves would wait on each other).
constexpr int fused_unroll = 4;

// The fused pass (and the general path's aggregate): each warp takes fused_unroll * 32
// consecutive rows per step; every leaf is evaluated on every row (no short-circuit: a warp reads
// whole sectors anyway, and independent loads keep more bytes in flight).
__global__ void select_aggregate_kernel(SelectParams p) {
  __shared__ NumericLeaf leaves[max_fused_leaves];
  __shared__ std::int32_t leaf_columns[max_fused_leaves];
  __shared__ ExpressionOp program[max_program];
  __shared__ Partial warp_partials[warps_per_block];
  for (int i = threadIdx.x; i < p.leaf_count; i += blockDim.x) {
    leaves[i] = p.leaves[i];
    leaf_columns[i] = p.leaf_columns[i];
  }
  for (int i = threadIdx.x; i < p.program_size; i += blockDim.x) program[i] = p.program[i];
  __syncthreads();
  const unsigned lane = threadIdx.x & 31;
  Partial mine = empty_partial();
  const std::uint64_t span = 32ull * fused_unroll;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * warps_per_block * span;
  for (std::uint64_t base = (std::uint64_t{blockIdx.x} * warps_per_block + threadIdx.x / 32) * span; base < p.rows;
       base += stride) {
    bool keep[fused_unroll];
#pragma unroll
    for (int u = 0; u < fused_unroll; ++u) {
      const std::uint64_t row = base + 32 * u + lane;
      keep[u] = row < p.rows && (!p.selection || (p.selection[base / 32 + u] >> lane & 1u));
    }
    if (!p.selection) {
      for (int i = 0; i < p.leaf_count; ++i) {
        const NumericLeaf leaf = leaves[i];
        const ColumnView column = p.columns[leaf_columns[i]];
#pragma unroll
        for (int u = 0; u < fused_unroll; ++u) {
          const std::uint64_t row = base + 32 * u + lane;
          if (row < p.rows) keep[u] = numeric_holds(leaf, column, row) && keep[u];
        }
      }
#pragma unroll
      for (int u = 0; u < fused_unroll; ++u) {
        const unsigned word = __ballot_sync(0xffffffffu, keep[u]);
        if (lane == 0 && p.bits && base + 32 * u < p.rows) p.bits[base / 32 + u] = word;
      }
    }
#pragma unroll
    for (int u = 0; u < fused_unroll; ++u)
      if (keep[u]) accumulate(p, program, base + 32 * u + lane, mine);
  }
  reduce_block(mine, warp_partials, p.partials);
}

// ---------------------------------------------------------------- vectorised fused pass

// The fused pass when every leaf is an exact range (integers, dates, decimals: TPC-H Q6) and the
// aggregate, if any, is exact. Written as a bandwidth-bound reduction: a thread takes 4
// consecutive rows (a tile), so that each column is read by one 16-byte load (4-byte columns) or
// two (8-byte columns) and a warp reads 512 or 1024 contiguous bytes; the loads of every leaf
// are issued before the first comparison, so all of a tile's bytes are in flight at once;
// the ranges are tested as arithmetic on the scaled integers, with no branch; the kept rows are
// aggregated per thread, then by warp shuffles, then per block. The expression is evaluated only
// on kept rows (about 2% of Q6's), inline for `a * b` and `a` (the same __int128 arithmetic and
// overflow test as evaluate_exact), by the general program otherwise.
constexpr int max_vector_leaves = 8;

struct VectorLeaf {
  const void* data;
  bool wide;               // 8-byte values (int64, decimal); else 4-byte (int32, date)
  std::int64_t low, high;  // inclusive; an empty range has low > high
};

struct VectorParams {
  VectorLeaf leaves[max_vector_leaves];
  const ColumnView* columns;  // every column (device pointers) for the expression
  const ExpressionOp* program;
  int program_size;
  int shape;                 // 0: count only, 1: one column, 2: product of two columns, 3: general program
  ColumnView first, second;  // shapes 1 and 2
  std::uint64_t rows;
  std::uint32_t* bits;  // out (may be null): the selection bitmap
  Partial* partials;    // out: one per block
};

__device__ __forceinline__ void load_tile(const VectorLeaf& leaf, std::uint64_t first_row, bool full,
                                          std::uint64_t rows, std::int64_t (&v)[4]) {
  if (full) {
    if (leaf.wide) {
      const longlong2* at = reinterpret_cast<const longlong2*>(static_cast<const std::int64_t*>(leaf.data) + first_row);
      const longlong2 a = __ldg(at), b = __ldg(at + 1);
      v[0] = a.x, v[1] = a.y, v[2] = b.x, v[3] = b.y;
    } else {
      const int4 a = __ldg(reinterpret_cast<const int4*>(static_cast<const std::int32_t*>(leaf.data) + first_row));
      v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
    }
    return;
  }
  // The table's last, partial tile: row by row, so that nothing past the column is read.
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const std::uint64_t row = first_row + r;
    v[r] = row >= rows ? 0
           : leaf.wide ? static_cast<const std::int64_t*>(leaf.data)[row]
                       : static_cast<const std::int32_t*>(leaf.data)[row];
  }
}

__device__ __forceinline__ void accumulate_value(const VectorParams& p, std::uint64_t row, Partial& mine) {
  std::int64_t value = 0;
  bool fits = true;
  if (p.shape == 1) {
    value = load_exact(p.first, row);
  } else if (p.shape == 2) {
    const __int128 product = static_cast<__int128>(load_exact(p.first, row)) * load_exact(p.second, row);
    fits = product >= -(__int128{1} << 63) && product <= (__int128{1} << 63) - 1;
    value = static_cast<std::int64_t>(product);
  } else {
    fits = evaluate_exact(p.program, p.program_size, p.columns, row, value);
  }
  if (!fits) {
    mine.overflow_row = mine.overflow_row < row ? mine.overflow_row : row;
    return;
  }
  mine.sum += value;
  mine.min = value < mine.min ? value : mine.min;
  mine.max = value > mine.max ? value : mine.max;
}

template <int Leaves>
__global__ void __launch_bounds__(block_threads) vector_aggregate_kernel(const __grid_constant__ VectorParams p) {
  __shared__ Partial warp_partials[warps_per_block];
  const unsigned lane = threadIdx.x & 31;
  const std::uint64_t tiles = (p.rows + 3) / 4;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * warps_per_block;
  Partial mine = empty_partial();
  // Whole warps step together (the bitmap's words are put together by shuffles).
  for (std::uint64_t first_tile = (std::uint64_t{blockIdx.x} * warps_per_block + threadIdx.x / 32) * 32;
       first_tile < tiles; first_tile += warps * 32) {
    const std::uint64_t tile = first_tile + lane;
    const std::uint64_t first_row = tile * 4;
    const bool valid = tile < tiles;
    const bool full = first_row + 4 <= p.rows;
    std::int64_t v[Leaves > 0 ? Leaves : 1][4];
    if (valid) {
#pragma unroll
      for (int i = 0; i < Leaves; ++i) load_tile(p.leaves[i], first_row, full, p.rows, v[i]);
    }
    unsigned keep = 0;
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      unsigned in = valid && first_row + r < p.rows;
#pragma unroll
      for (int i = 0; i < Leaves; ++i) in &= (v[i][r] >= p.leaves[i].low) & (v[i][r] <= p.leaves[i].high);
      keep |= in << r;
    }
    if (p.bits) {
      // Lanes 8w .. 8w + 7 hold the 32 rows of the warp's word w.
      unsigned word = keep << (4 * (lane & 7));
      word |= __shfl_xor_sync(0xffffffffu, word, 1);
      word |= __shfl_xor_sync(0xffffffffu, word, 2);
      word |= __shfl_xor_sync(0xffffffffu, word, 4);
      if ((lane & 7) == 0 && valid) p.bits[first_row / 32] = word;
    }
    mine.rows += __popc(keep);
    if (p.shape != 0)
      for (unsigned k = keep; k; k &= k - 1) accumulate_value(p, first_row + (__ffs(k) - 1), mine);
  }
  reduce_block(mine, warp_partials, p.partials);
}

// ---------------------------------------------------------------- compaction

__global__ void popcount_kernel(const std::uint32_t* bits, std::uint64_t words, unsigned long long* counts) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; w < words; w += stride)
    counts[w] = __popc(bits[w]);
}

__global__ void scatter_kernel(const std::uint32_t* bits, std::uint64_t words, const unsigned long long* offsets,
                               unsigned long long* ids) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; w < words; w += stride) {
    unsigned long long at = offsets[w];
    for (std::uint32_t word = bits[w]; word; word &= word - 1) ids[at++] = w * 32 + (__ffs(word) - 1);
  }
}

struct BitIsSet {
  const std::uint32_t* bits;
  __device__ bool operator()(unsigned long long row) const { return bits[row / 32] >> (row % 32) & 1u; }
};

// ---------------------------------------------------------------- host side

class Timer {
 public:
  explicit Timer(cudaStream_t stream) : stream_(stream) {
    SUBSCALE_CUDA_CHECK(cudaEventCreate(&start_));
    SUBSCALE_CUDA_CHECK(cudaEventCreate(&stop_));
    SUBSCALE_CUDA_CHECK(cudaEventRecord(start_, stream_));
  }
  ~Timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  double seconds() {
    SUBSCALE_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    SUBSCALE_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    SUBSCALE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms / 1e3;
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_{}, stop_{};
};

// The columns come from pageable host memory through pinned staging chunks (gpu/staged_upload):
// a plain cudaMemcpy from pageable memory moved Q6's 1.68 GB at about 6 GB/s.
DeviceColumns upload_columns(const ColumnTable& table, const std::vector<bool>& used, cudaStream_t stream) {
  gpu::StagedUploader uploader;
  const auto staged = [&uploader](const auto* data, std::size_t count) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(data)>>;
    DeviceBuffer<T> buffer(count);
    if (count) uploader.upload(buffer.data(), std::span<const T>(data, count));
    return buffer;
  };
  DeviceColumns d;
  d.views = column_views(table);
  d.string_slot.assign(table.columns.size(), -1);
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (!used[c]) {
      d.views[c].data = nullptr;
      continue;
    }
    std::visit(
        [&](const auto& values) {
          using V = std::decay_t<decltype(values)>;
          if constexpr (std::is_same_v<V, StringColumn>) {
            d.string_slot[c] = static_cast<int>(d.offsets.size());
            d.offsets.push_back(staged(values.offsets.data(), values.offsets.size()));
            d.bytes.push_back(staged(values.bytes.data(), values.bytes.size()));
          } else {
            const auto* raw = reinterpret_cast<const unsigned char*>(values.data());
            d.numeric.push_back(staged(raw, values.size() * sizeof(values[0])));
            d.views[c].data = d.numeric.back().data();
          }
        },
        table.columns[c].values);
  }
  d.device_views = DeviceBuffer<ColumnView>::from_host(d.views, stream);
  uploader.synchronize();
  return d;
}

// The predicate's leaves and the aggregate's expression name the columns to upload.
std::vector<bool> used_columns(const ColumnTable& table, const Predicate& predicate, const Aggregate& aggregate) {
  std::vector<bool> used(table.columns.size(), false);
  for (const auto& leaf : predicate.numeric) used[static_cast<std::size_t>(leaf.column)] = true;
  for (const auto& leaf : predicate.strings) used[static_cast<std::size_t>(leaf.column)] = true;
  if (aggregate.function != AggregateFunction::none && aggregate.function != AggregateFunction::count)
    for (int c : aggregate.expression.columns) used[static_cast<std::size_t>(c)] = true;
  return used;
}

// The ANDed numeric leaves when the whole predicate is of that shape (or empty), else nothing.
std::optional<std::vector<int>> fusable_leaves(const Predicate& predicate) {
  std::vector<int> leaves;
  if (predicate.selects_all()) return leaves;
  const PredicateNode& root = predicate.nodes[static_cast<std::size_t>(predicate.root)];
  if (root.kind == NodeKind::numeric) return std::vector<int>{root.leaf};
  if (root.kind != NodeKind::all_of) return std::nullopt;
  for (int child : root.children) {
    const PredicateNode& node = predicate.nodes[static_cast<std::size_t>(child)];
    if (node.kind != NodeKind::numeric) return std::nullopt;
    leaves.push_back(node.leaf);
  }
  if (leaves.size() > max_fused_leaves) return std::nullopt;
  return leaves;
}

std::vector<std::uint64_t> compact(const std::uint32_t* bits, std::uint64_t rows, std::uint64_t selected,
                                   Compaction compaction, double& compact_seconds, double& transfer_out_seconds,
                                   cudaStream_t stream) {
  const std::uint64_t words = (rows + 31) / 32;
  std::vector<std::uint64_t> ids(selected);
  if (selected == 0) return ids;
  // Buffers first, so that the timer sees the kernels only.
  DeviceBuffer<unsigned long long> d_ids(selected);
  const thrust::counting_iterator<unsigned long long> first(0);
  const bool by_words = compaction == Compaction::bitmap_words;
  DeviceBuffer<unsigned long long> counts(by_words ? words : 0), offsets(by_words ? words : 0), count(1);
  std::size_t temp_bytes = 0;
  if (by_words)
    SUBSCALE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, counts.data(), offsets.data(), words));
  else
    SUBSCALE_CUDA_CHECK(cub::DeviceSelect::If(nullptr, temp_bytes, first, d_ids.data(), count.data(),
                                              static_cast<std::int64_t>(rows), BitIsSet{bits}));
  DeviceBuffer<unsigned char> temp(temp_bytes);
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  Timer timer(stream);
  if (by_words) {
    popcount_kernel<<<grid_for(words), block_threads, 0, stream>>>(bits, words, counts.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(popcount_kernel);
    SUBSCALE_CUDA_CHECK(
        cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, counts.data(), offsets.data(), words, stream));
    scatter_kernel<<<grid_for(words), block_threads, 0, stream>>>(bits, words, offsets.data(), d_ids.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(scatter_kernel);
  } else {
    SUBSCALE_CUDA_CHECK(cub::DeviceSelect::If(temp.data(), temp_bytes, first, d_ids.data(), count.data(),
                                              static_cast<std::int64_t>(rows), BitIsSet{bits}, stream));
  }
  compact_seconds = timer.seconds();
  const auto start = std::chrono::steady_clock::now();
  SUBSCALE_CUDA_CHECK(
      cudaMemcpyAsync(ids.data(), d_ids.data(), selected * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream));
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  transfer_out_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return ids;
}

AggregateResult finish(const Aggregate& aggregate, const Partial& total) {
  return aggregate_result(aggregate, {total.rows, total.sum, total.min, total.max, total.double_sum, total.double_min,
                                      total.double_max, total.overflow_row});
}

// The vectorised fused pass's parameters when the query has its shape (every leaf an exact
// range on a 16-byte aligned column, an exact or no expression), else nothing.
std::optional<VectorParams> vector_params(const std::vector<NumericLeaf>& leaves, const DeviceColumns& columns,
                                          const Aggregate& aggregate, const ExpressionOp* program) {
  if (leaves.size() > max_vector_leaves) return std::nullopt;
  VectorParams p{};
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const NumericLeaf& leaf = leaves[i];
    const ColumnView& view = columns.views[static_cast<std::size_t>(leaf.column)];
    if (!leaf.exact || !is_exact(view.type) || reinterpret_cast<std::uintptr_t>(view.data) % 16 != 0)
      return std::nullopt;
    const bool wide = view.type == ColumnType::int64 || view.type == ColumnType::decimal;
    p.leaves[i] = {view.data, wide, leaf.empty ? 1 : leaf.low, leaf.empty ? 0 : leaf.high};
  }
  const bool evaluate = aggregate.function != AggregateFunction::none && aggregate.function != AggregateFunction::count;
  const std::vector<ExpressionOp>& ops = aggregate.expression.program;
  if (evaluate && !aggregate.expression.exact) return std::nullopt;
  p.columns = columns.device_views.data();
  p.program = program;
  p.program_size = static_cast<int>(ops.size());
  const auto view_of = [&](const ExpressionOp& op) { return columns.views[static_cast<std::size_t>(op.column_index)]; };
  if (!evaluate) {
    p.shape = 0;
  } else if (ops.size() == 1 && ops[0].code == ExpressionOp::column) {
    p.shape = 1, p.first = view_of(ops[0]);
  } else if (ops.size() == 3 && ops[0].code == ExpressionOp::column && ops[1].code == ExpressionOp::column &&
             ops[2].code == ExpressionOp::multiply) {
    p.shape = 2, p.first = view_of(ops[0]), p.second = view_of(ops[1]);
  } else {
    p.shape = 3;
  }
  return p;
}

template <int Leaves>
void launch_vector_aggregate(const VectorParams& p, int grid, cudaStream_t stream) {
  vector_aggregate_kernel<Leaves><<<grid, block_threads, 0, stream>>>(p);
  SUBSCALE_CUDA_CHECK_LAUNCH(vector_aggregate_kernel);
}

// Blocks that are resident at once, every SM full: a grid-stride loop beyond that only adds a
// tail of half-empty waves.
template <int Leaves>
int resident_grid() {
  int device = 0, sms = 0, per_sm = 0;
  SUBSCALE_CUDA_CHECK(cudaGetDevice(&device));
  SUBSCALE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  SUBSCALE_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, vector_aggregate_kernel<Leaves>, block_threads, 0));
  return std::max(1, sms * per_sm);
}

using VectorLaunch = void (*)(const VectorParams&, int, cudaStream_t);
using VectorGrid = int (*)();
template <int... L>
constexpr std::array<VectorLaunch, sizeof...(L)> vector_launches(std::integer_sequence<int, L...>) {
  return {&launch_vector_aggregate<L>...};
}
template <int... L>
constexpr std::array<VectorGrid, sizeof...(L)> vector_grids(std::integer_sequence<int, L...>) {
  return {&resident_grid<L>...};
}
constexpr auto vector_launch = vector_launches(std::make_integer_sequence<int, max_vector_leaves + 1>{});
constexpr auto vector_grid = vector_grids(std::make_integer_sequence<int, max_vector_leaves + 1>{});

}  // namespace

FilterResult run_filter_cuda(const ColumnTable& table, const Predicate& predicate, const Aggregate& aggregate,
                             const FilterOptions& options, const gpu::ExecutionContext& context) {
  const gpu::DeviceInfo device = gpu::query_device();
  if (!device.available) throw ResourceError("filter.backend=cuda: no usable CUDA device (" + device.reason + ")");
  if (aggregate.expression.program.size() > max_program)
    throw UsageError("the aggregate's expression has more than " + std::to_string(max_program) + " operations");
  FilterResult result;
  result.rows = table.rows();
  const std::uint64_t rows = result.rows, words = (rows + 31) / 32;

  auto start = std::chrono::steady_clock::now();
  const cudaStream_t stream = context.stream;
  const DeviceColumns columns = upload_columns(table, used_columns(table, predicate, aggregate), stream);
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  result.timings.transfer_in_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  DeviceBuffer<std::uint32_t> bits(std::max<std::uint64_t>(words, 1));
  const auto fused = options.fused ? fusable_leaves(predicate) : std::nullopt;
  std::vector<NumericLeaf> leaves;
  std::vector<std::int32_t> leaf_columns;
  if (fused)
    for (int leaf : *fused) {
      leaves.push_back(predicate.numeric[static_cast<std::size_t>(leaf)]);
      leaf_columns.push_back(leaves.back().column);
    }
  const auto d_leaves = DeviceBuffer<NumericLeaf>::from_host(leaves, stream);
  const auto d_leaf_columns = DeviceBuffer<std::int32_t>::from_host(leaf_columns, stream);
  const auto d_program = DeviceBuffer<ExpressionOp>::from_host(aggregate.expression.program, stream);
  std::optional<VectorParams> vector =
      fused && options.vector_fused ? vector_params(leaves, columns, aggregate, d_program.data()) : std::nullopt;
  const int grid = vector ? std::min<int>(vector_grid[leaves.size()](),
                                          static_cast<int>(std::max<std::uint64_t>(1, (rows + 1023) / 1024)))
                          : grid_for(std::max<std::uint64_t>(rows, 1));
  DeviceBuffer<Partial> partials(static_cast<std::size_t>(grid));
  if (vector) {
    vector->rows = rows;
    vector->bits = options.want_ids ? bits.data() : nullptr;
    vector->partials = partials.data();
  }

  // Everything the kernels read is on the device before the timer starts.
  std::optional<GeneralEvaluator> evaluator;
  if (!fused) evaluator.emplace(predicate, columns, options, rows, stream);
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  Timer timer(stream);
  if (evaluator) {
    result.timings.path = "bitmap";
    if (predicate.selects_all())
      evaluator->fill_all(bits.data());
    else
      evaluator->evaluate(predicate.root, bits.data(), result.timings.path);
  } else {
    result.timings.path = vector ? "fused-vector" : "fused";
  }
  if (vector) {
    vector_launch[leaves.size()](*vector, grid, stream);
  } else {
    SelectParams p{d_leaves.data(),
                   d_leaf_columns.data(),
                   static_cast<int>(leaves.size()),
                   fused ? nullptr : bits.data(),
                   columns.device_views.data(),
                   d_program.data(),
                   static_cast<int>(aggregate.expression.program.size()),
                   aggregate.expression.exact,
                   aggregate.function != AggregateFunction::none && aggregate.function != AggregateFunction::count,
                   rows,
                   fused ? bits.data() : nullptr,
                   partials.data()};
    select_aggregate_kernel<<<grid, block_threads, 0, stream>>>(p);
    SUBSCALE_CUDA_CHECK_LAUNCH(select_aggregate_kernel);
  }
  result.timings.select_seconds = timer.seconds();

  start = std::chrono::steady_clock::now();
  const std::vector<Partial> block_partials = partials.to_host(partials.size(), stream);
  result.timings.transfer_out_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Partial total = empty_partial();
  for (const auto& partial : block_partials) merge(total, partial);
  result.selected = total.rows;
  if (aggregate.function != AggregateFunction::none) result.aggregate = finish(aggregate, total);
  if (options.want_ids)
    result.ids = compact(bits.data(), rows, result.selected, options.compaction, result.timings.compact_seconds,
                         result.timings.transfer_out_seconds, stream);
  return result;
}

}  // namespace subscale::filter
