// The string leaves of the filter's CUDA backend: equality, prefix, contains (naive, KMP or BMH) and
// regex, the last by the same byte automaton as the CPU so that both backends select the same
// rows. A leaf runs in one of three layouts (StringLayout) because string lengths vary from column
// to column and no one way of giving strings to threads suits them all (bench/filter measures
// them).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "stages/filter/filter_cuda.cuh"

namespace subscale::filter {
namespace {

using gpu::DeviceBuffer;

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

template <class T>
DeviceBuffer<T> upload(const T* data, std::size_t count, cudaStream_t stream) {
  DeviceBuffer<T> buffer(count);
  if (count)
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(buffer.data(), data, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  return buffer;
}

}  // namespace

DeviceStringLeaf upload_string_leaf(const StringLeaf& leaf, const DeviceColumns& columns, std::uint64_t rows,
                                    cudaStream_t stream) {
  DeviceStringLeaf d;
  d.pattern = upload(reinterpret_cast<const std::uint8_t*>(leaf.pattern.data()), leaf.pattern.size(), stream);
  d.kmp = upload(leaf.kmp_failure.data(), leaf.kmp_failure.size(), stream);
  d.bmh = upload(leaf.bmh_shift.data(), leaf.bmh_shift.size(), stream);
  if (leaf.automaton) d.automaton = upload(leaf.automaton.get(), 1, stream);
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
  return d;
}

void launch_string_leaf(DeviceStringLeaf& leaf, StringLayout layout, std::uint64_t words, std::uint32_t* out,
                        cudaStream_t stream) {
  const StringParams& p = leaf.params;
  const std::size_t shared = shared_bytes_for(p);
  const int grid = grid_for(words * 32);
  switch (layout) {
    case StringLayout::lane_per_string:
      strings_lane_kernel<<<grid, block_threads, shared, stream>>>(p, out);
      break;
    case StringLayout::warp_per_string:
      strings_warp_kernel<<<grid, block_threads, shared, stream>>>(p, out);
      break;
    case StringLayout::lane_refill:
      SUBSCALE_CUDA_CHECK(cudaMemsetAsync(leaf.refill_counter.data(), 0, sizeof(unsigned long long), stream));
      strings_refill_kernel<<<grid, block_threads, shared, stream>>>(p, out, leaf.refill_counter.data());
      break;
  }
  SUBSCALE_CUDA_CHECK_LAUNCH(strings_kernel);
}

}  // namespace subscale::filter
