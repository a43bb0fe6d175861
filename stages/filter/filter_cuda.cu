// The CUDA backend of the filter (docs/stages.md §4). The selection is a bitmap of 32-row words: a warp
// evaluates 32 consecutive rows and its ballot is the word. Two ways to a bitmap:
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

#include <array>
#include <chrono>
#include <cmath>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/staged_upload.hpp"
#include "stages/filter/filter_cuda.hpp"

namespace subscale::filter {
namespace {

using gpu::DeviceBuffer;

constexpr int block_threads = 256;
constexpr int warps_per_block = block_threads / 32;
constexpr int max_fused_leaves = 16;
constexpr int max_program = 32;

// ---------------------------------------------------------------- numeric leaves

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

enum class Combine { copy, and_with, or_with, negate };

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

// ---------------------------------------------------------------- strings

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

// The staged copies in shared memory.
struct SharedTables {
  const std::uint8_t* pattern;
  const std::int32_t* kmp;
  const std::int32_t* bmh;
  const std::uint64_t (*follow)[256];
  const std::uint64_t* byte_mask;
  std::uint64_t accept;
  bool anchored_begin, anchored_end;
};

std::size_t shared_bytes_for(const StringParams& p) {
  std::size_t bytes = (static_cast<std::size_t>(p.pattern_bytes) + 15) / 16 * 16;
  if (p.op == StringOp::contains && p.algorithm == SearchAlgorithm::kmp) bytes += 4 * std::size_t(p.pattern_bytes);
  if (p.op == StringOp::contains && p.algorithm == SearchAlgorithm::bmh) bytes += 4 * 256;
  if (p.op == StringOp::regex) bytes += sizeof(std::uint64_t) * (8 * 256 + 256);
  return bytes;
}

__device__ SharedTables stage_tables(const StringParams& p) {
  extern __shared__ __align__(16) unsigned char shared[];
  SharedTables t{};
  std::size_t used = 0;
  std::uint64_t* words = nullptr;
  if (p.op == StringOp::regex) {  // 8-byte tables first, for their alignment
    words = reinterpret_cast<std::uint64_t*>(shared);
    for (int i = threadIdx.x; i < 8 * 256; i += blockDim.x) words[i] = (&p.automaton->follow[0][0])[i];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) words[8 * 256 + i] = p.automaton->byte_mask[i];
    t.follow = reinterpret_cast<const std::uint64_t(*)[256]>(words);
    t.byte_mask = words + 8 * 256;
    t.accept = p.automaton->accept;
    t.anchored_begin = p.automaton->anchored_begin;
    t.anchored_end = p.automaton->anchored_end;
    used += sizeof(std::uint64_t) * (8 * 256 + 256);
  }
  std::int32_t* table = reinterpret_cast<std::int32_t*>(shared + used);
  if (p.op == StringOp::contains && p.algorithm == SearchAlgorithm::kmp) {
    for (int i = threadIdx.x; i < p.pattern_bytes; i += blockDim.x) table[i] = p.kmp[i];
    t.kmp = table;
    used += 4 * std::size_t(p.pattern_bytes);
  }
  if (p.op == StringOp::contains && p.algorithm == SearchAlgorithm::bmh) {
    for (int i = threadIdx.x; i < 256; i += blockDim.x) table[i] = p.bmh[i];
    t.bmh = table;
    used += 4 * 256;
  }
  std::uint8_t* pattern = shared + used;
  for (int i = threadIdx.x; i < p.pattern_bytes; i += blockDim.x) pattern[i] = p.pattern[i];
  t.pattern = pattern;
  __syncthreads();
  return t;
}

__device__ bool search(const StringParams& p, const SharedTables& t, const std::uint8_t* text, std::int64_t n) {
  const std::int64_t m = p.pattern_bytes;
  switch (p.algorithm) {
    case SearchAlgorithm::kmp:
      return contains_kmp(text, n, t.pattern, m, t.kmp);
    case SearchAlgorithm::bmh:
      return contains_bmh(text, n, t.pattern, m, t.bmh);
    default:
      return contains_naive(text, n, t.pattern, m);
  }
}

__device__ bool string_matches(const StringParams& p, const SharedTables& t, std::uint64_t row) {
  const std::int64_t begin = p.offsets[row], n = p.offsets[row + 1] - begin;
  const std::uint8_t* text = p.bytes + begin;
  switch (p.op) {
    case StringOp::equals:
      return equals_bytes(text, n, t.pattern, p.pattern_bytes);
    case StringOp::prefix:
      return starts_with_bytes(text, n, t.pattern, p.pattern_bytes);
    case StringOp::contains:
      return search(p, t, text, n);
    case StringOp::regex:
      return automaton_matches(t.follow, t.byte_mask, t.accept, t.anchored_begin, t.anchored_end, text, n);
  }
  return false;
}

// One string per lane, fixed: lane j of a warp takes row base + j.
__global__ void strings_lane_kernel(StringParams p, std::uint32_t* bits) {
  const SharedTables t = stage_tables(p);
  const unsigned lane = threadIdx.x & 31;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * blockDim.x + (threadIdx.x & ~31u); base < p.rows;
       base += stride) {
    const std::uint64_t row = base + lane;
    const bool keep = row < p.rows && string_matches(p, t, row);
    const unsigned word = __ballot_sync(0xffffffffu, keep);
    if (lane == 0) bits[base / 32] = word;
  }
}

// One string per lane with refill: a warp claims a chunk of rows; each lane takes the chunk's next
// unprocessed row from a shared counter whenever it finishes one, so a long string holds up one
// lane, not the 31 others (the seed's planned "lane refill").
constexpr unsigned refill_chunk_words = 8;  // 256 rows per claim

__global__ void strings_refill_kernel(StringParams p, std::uint32_t* bits, unsigned long long* next_chunk) {
  const SharedTables t = stage_tables(p);
  __shared__ unsigned next_row[warps_per_block];
  __shared__ std::uint32_t chunk_bits[warps_per_block][refill_chunk_words];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  const std::uint64_t chunk_rows = 32ull * refill_chunk_words;
  const std::uint64_t chunks = (p.rows + chunk_rows - 1) / chunk_rows;
  for (;;) {
    unsigned long long chunk = 0;
    if (lane == 0) chunk = atomicAdd(next_chunk, 1ull);
    chunk = __shfl_sync(0xffffffffu, chunk, 0);
    if (chunk >= chunks) break;
    const std::uint64_t first = chunk * chunk_rows;
    const unsigned count = static_cast<unsigned>(p.rows - first < chunk_rows ? p.rows - first : chunk_rows);
    if (lane < refill_chunk_words) chunk_bits[warp][lane] = 0;
    if (lane == 0) next_row[warp] = 0;
    __syncwarp();
    for (;;) {
      const unsigned i = atomicAdd(&next_row[warp], 1u);
      if (i >= count) break;
      if (string_matches(p, t, first + i)) atomicOr(&chunk_bits[warp][i / 32], 1u << (i % 32));
    }
    __syncwarp();
    const std::uint64_t first_word = first / 32;
    if (lane < (count + 31) / 32) bits[first_word + lane] = chunk_bits[warp][lane];
    __syncwarp();
  }
}

// A warp per string: equality and prefix compare 32 bytes at a time; contains cuts the string's
// start positions into one contiguous range per lane, each lane searching its range plus the
// pattern's length - 1 bytes of overlap (the seed's text algorithms, one text per warp); the
// regex automaton is sequential, so one lane runs it.
__device__ bool warp_matches(const StringParams& p, const SharedTables& t, std::uint64_t row, unsigned lane) {
  const std::int64_t begin = p.offsets[row], n = p.offsets[row + 1] - begin;
  const std::uint8_t* text = p.bytes + begin;
  const std::int64_t m = p.pattern_bytes;
  bool mine = false;
  switch (p.op) {
    case StringOp::equals:
    case StringOp::prefix: {
      if (n < m || (p.op == StringOp::equals && n != m)) return false;
      bool differs = false;
      for (std::int64_t i = lane; i < m; i += 32) differs |= text[i] != t.pattern[i];
      return !__any_sync(0xffffffffu, differs);
    }
    case StringOp::contains: {
      if (m == 0) return true;
      if (n < m) return false;
      const std::int64_t starts = n - m + 1;
      const std::int64_t per_lane = (starts + 31) / 32;
      const std::int64_t first = lane * per_lane;
      if (first < starts) {
        const std::int64_t last = first + per_lane < starts ? first + per_lane : starts;  // exclusive
        mine = search(p, t, text + first, last - first + m - 1);
      }
      return __any_sync(0xffffffffu, mine);
    }
    case StringOp::regex:
      if (lane == 0)
        mine = automaton_matches(t.follow, t.byte_mask, t.accept, t.anchored_begin, t.anchored_end, text, n);
      return __shfl_sync(0xffffffffu, mine, 0);
  }
  return false;
}

__global__ void strings_warp_kernel(StringParams p, std::uint32_t* bits) {
  const SharedTables t = stage_tables(p);
  const unsigned lane = threadIdx.x & 31;
  const std::uint64_t words = (p.rows + 31) / 32;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * warps_per_block;
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * warps_per_block + threadIdx.x / 32; w < words; w += warps) {
    std::uint32_t word = 0;
    for (unsigned j = 0; j < 32; ++j) {
      const std::uint64_t row = w * 32 + j;
      if (row >= p.rows) break;
      if (warp_matches(p, t, row, lane)) word |= 1u << j;
    }
    if (lane == 0) bits[w] = word;
  }
}

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

// Enough blocks to fill the device (16 per SM, grid-stride beyond), fewer for small inputs.
int grid_for(std::uint64_t items, int per_block = block_threads) {
  int device = 0, sms = 0;
  SUBSCALE_CUDA_CHECK(cudaGetDevice(&device));
  SUBSCALE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::uint64_t needed = (items + per_block - 1) / per_block;
  return static_cast<int>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(needed, std::uint64_t(sms) * 16)));
}

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

template <class T>
DeviceBuffer<T> upload(const T* data, std::size_t count, cudaStream_t stream) {
  DeviceBuffer<T> buffer(count);
  if (count)
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(buffer.data(), data, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  return buffer;
}

// The table's columns that the query reads, on the device.
struct DeviceColumns {
  std::vector<DeviceBuffer<unsigned char>> numeric;  // raw bytes, one per used numeric column
  std::vector<DeviceBuffer<std::int64_t>> offsets;
  std::vector<DeviceBuffer<std::uint8_t>> bytes;
  std::vector<ColumnView> views;  // every column; device pointers for the used ones
  std::vector<int> string_slot;   // column -> index in offsets/bytes (-1: not a used string)
  DeviceBuffer<ColumnView> device_views;
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

// The tables of one string leaf on the device, uploaded before the timed kernels run.
struct DeviceStringLeaf {
  DeviceBuffer<std::uint8_t> pattern;
  DeviceBuffer<std::int32_t> kmp;
  DeviceBuffer<std::int32_t> bmh;
  DeviceBuffer<ByteAutomaton> automaton;
  DeviceBuffer<unsigned long long> refill_counter;
  StringParams params{};
};

class GeneralEvaluator {
 public:
  GeneralEvaluator(const Predicate& predicate, const DeviceColumns& columns, const FilterOptions& options,
                   std::uint64_t rows, cudaStream_t stream)
      : predicate_(predicate),
        options_(options),
        stream_(stream),
        rows_(rows),
        words_((rows + 31) / 32),
        last_mask_(rows % 32 == 0 ? 0xffffffffu : (1u << (rows % 32)) - 1) {
    for (const StringLeaf& leaf : predicate.strings) {
      DeviceStringLeaf d;
      d.pattern = upload(reinterpret_cast<const std::uint8_t*>(leaf.pattern.data()), leaf.pattern.size(), stream_);
      d.kmp = upload(leaf.kmp_failure.data(), leaf.kmp_failure.size(), stream_);
      d.bmh = upload(leaf.bmh_shift.data(), leaf.bmh_shift.size(), stream_);
      if (leaf.automaton) d.automaton = upload(leaf.automaton.get(), 1, stream_);
      d.refill_counter = DeviceBuffer<unsigned long long>(1);
      const int slot = columns.string_slot[static_cast<std::size_t>(leaf.column)];
      d.params = {leaf.op,
                  leaf.algorithm,
                  static_cast<std::int32_t>(leaf.pattern.size()),
                  d.pattern.data(),
                  d.kmp.data(),
                  d.bmh.data(),
                  d.automaton.data(),
                  columns.offsets[static_cast<std::size_t>(slot)].data(),
                  columns.bytes[static_cast<std::size_t>(slot)].data(),
                  rows};
      strings_.push_back(std::move(d));
    }
    for (const PredicateNode& node : predicate.nodes) {
      const bool combines = node.kind != NodeKind::numeric && node.kind != NodeKind::string;
      scratch_.emplace_back(combines ? std::max<std::uint64_t>(words_, 1) : 0);
    }
    views_ = columns.views;
  }

  // Writes the node's bitmap into out.
  void evaluate(int index, std::uint32_t* out, std::string& path) {
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

  void fill_all(std::uint32_t* out) {
    if (words_ == 0) return;
    fill_kernel<<<grid_for(words_), block_threads, 0, stream_>>>(out, words_, last_mask_);
    SUBSCALE_CUDA_CHECK_LAUNCH(fill_kernel);
  }

 private:
  void combine(Combine op, const std::uint32_t* in, std::uint32_t* out) {
    combine_kernel<<<grid_for(words_), block_threads, 0, stream_>>>(op, in, out, words_, last_mask_);
    SUBSCALE_CUDA_CHECK_LAUNCH(combine_kernel);
  }

  void evaluate_string(DeviceStringLeaf& leaf, std::uint32_t* out, std::string& path) {
    const StringParams& p = leaf.params;
    const std::size_t shared = shared_bytes_for(p);
    const int grid = grid_for(words_ * 32);
    switch (options_.string_layout) {
      case StringLayout::lane_per_string:
        strings_lane_kernel<<<grid, block_threads, shared, stream_>>>(p, out);
        break;
      case StringLayout::warp_per_string:
        strings_warp_kernel<<<grid, block_threads, shared, stream_>>>(p, out);
        break;
      case StringLayout::lane_refill:
        SUBSCALE_CUDA_CHECK(cudaMemsetAsync(leaf.refill_counter.data(), 0, sizeof(unsigned long long), stream_));
        strings_refill_kernel<<<grid, block_threads, shared, stream_>>>(p, out, leaf.refill_counter.data());
        break;
    }
    SUBSCALE_CUDA_CHECK_LAUNCH(strings_kernel);
    if (path.find(to_string(options_.string_layout)) == std::string::npos)
      path += "+" + to_string(options_.string_layout);
  }

  const Predicate& predicate_;
  const FilterOptions& options_;
  cudaStream_t stream_;
  std::uint64_t rows_;
  std::uint64_t words_;
  std::uint32_t last_mask_;
  std::vector<ColumnView> views_;
  std::vector<DeviceStringLeaf> strings_;
  std::vector<DeviceBuffer<std::uint32_t>> scratch_;  // per node: a bitmap for the combining ones
};

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
