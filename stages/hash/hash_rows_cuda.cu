// The CUDA backend of the hash stage: grid-stride kernels, one instantiation per function, hash
// width and row width, so the function's switch and the word loop are resolved at compile time.
#include <algorithm>
#include <cstring>
#include <span>
#include <string>

#include "gpu/cuda_check.hpp"
#include "gpu/device_budget.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/staged_upload.hpp"
#include "stages/hash/hash_rows_cuda.cuh"
#include "stages/hash/hash_rows_cuda.hpp"

namespace subscale::hash {

using gpu::DeviceBuffer;

namespace {

constexpr int kThreads = 256;
// Each thread has four 16-byte loads in flight per loop step: one 4-byte word per thread would
// leave too few bytes in flight to cover the memory latency, so narrow rows are grouped.
constexpr int kLoadsPerStep = 4;

// Stores n consecutive hashes with the widest aligned store (n * sizeof(H) is 4..32 bytes).
template <class H, int N>
__device__ __forceinline__ void store_hashes(H* out, const H (&h)[N]) {
  if constexpr (sizeof(H) * N == 16) {
    uint4 v;
    static_assert(sizeof(v) == sizeof(h));
    memcpy(&v, h, 16);
    *reinterpret_cast<uint4*>(out) = v;
  } else if constexpr (sizeof(H) * N == 32) {
    uint4 v[2];
    memcpy(v, h, 32);
    reinterpret_cast<uint4*>(out)[0] = v[0];
    reinterpret_cast<uint4*>(out)[1] = v[1];
  } else if constexpr (sizeof(H) * N == 8) {
    uint2 v;
    memcpy(&v, h, 8);
    *reinterpret_cast<uint2*>(out) = v;
  } else {
    static_assert(N == 1);
    *out = h[0];
  }
}

__device__ __forceinline__ void unpack(const uint4& v, std::uint32_t* w) {
  w[0] = v.x;
  w[1] = v.y;
  w[2] = v.z;
  w[3] = v.w;
}

__device__ __forceinline__ void unpack(const uint2& v, std::uint32_t* w) {
  w[0] = v.x;
  w[1] = v.y;
}

// Rows of K <= 4 words: one vector (uint4, or uint2 for 1-word rows with 64-bit hashes) holds
// whole rows. Thread t of the grid takes vector number t, t + stride, ... so every load
// instruction of a warp reads contiguous bytes. The vector is chosen so that a thread's hashes
// are at most 16 bytes: then every store instruction of a warp writes contiguous bytes too (a
// uint4 of 1-word rows would make 32 bytes of 64-bit hashes a thread, two half-filled stores).
template <HashFunction F, class H, int K, class Vector = uint4>
__global__ void hash_narrow_rows(const Vector* __restrict__ vectors, std::size_t vector_count, int rounds,
                                 H* __restrict__ out) {
  constexpr int kRowsPerVector = static_cast<int>(sizeof(Vector) / 4) / K;
  constexpr int kLoads = kLoadsPerStep * 16 / static_cast<int>(sizeof(Vector));  // same bytes in flight
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t v = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; v + (kLoads - 1) * stride < vector_count; v += kLoads * stride) {
    Vector loaded[kLoads];
#pragma unroll
    for (int j = 0; j < kLoads; ++j) loaded[j] = vectors[v + j * stride];
#pragma unroll
    for (int j = 0; j < kLoads; ++j) {
      std::uint32_t w[sizeof(Vector) / 4];
      unpack(loaded[j], w);
      H h[kRowsPerVector];
#pragma unroll
      for (int r = 0; r < kRowsPerVector; ++r) h[r] = hash_words<F, H>(w + r * K, K, rounds);
      store_hashes(out + (v + j * stride) * kRowsPerVector, h);
    }
  }
  for (; v < vector_count; v += stride) {  // the last partial step
    std::uint32_t w[sizeof(Vector) / 4];
    unpack(vectors[v], w);
    H h[kRowsPerVector];
#pragma unroll
    for (int r = 0; r < kRowsPerVector; ++r) h[r] = hash_words<F, H>(w + r * K, K, rounds);
    store_hashes(out + v * kRowsPerVector, h);
  }
}

// Rows of K = 8 or 16 words: one row per thread, K/4 uint4 loads; with K = 8 two rows per step
// so that four loads are in flight.
template <HashFunction F, class H, int K>
__global__ void hash_wide_rows(const uint4* __restrict__ vectors, std::size_t rows, int rounds, H* __restrict__ out) {
  constexpr int kVectors = K / 4;
  constexpr int kRowsPerStep = std::max(1, kLoadsPerStep / kVectors);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t r = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; r + (kRowsPerStep - 1) * stride < rows; r += kRowsPerStep * stride) {
    std::uint32_t w[kRowsPerStep][K];
#pragma unroll
    for (int s = 0; s < kRowsPerStep; ++s)
#pragma unroll
      for (int j = 0; j < kVectors; ++j) unpack(vectors[(r + s * stride) * kVectors + j], w[s] + 4 * j);
#pragma unroll
    for (int s = 0; s < kRowsPerStep; ++s) out[r + s * stride] = hash_words<F, H>(w[s], K, rounds);
  }
  for (; r < rows; r += stride) {
    std::uint32_t w[K];
#pragma unroll
    for (int j = 0; j < kVectors; ++j) unpack(vectors[r * kVectors + j], w + 4 * j);
    out[r] = hash_words<F, H>(w, K, rounds);
  }
}

// Any width and alignment: one row per thread, word by word from global memory. Also used for
// the few rows of a K = 1 or 2 table that do not fill the last uint4.
template <HashFunction F, class H>
__global__ void hash_any_rows(const std::uint32_t* __restrict__ words, std::size_t first_row, std::size_t rows,
                              int row_words, int rounds, H* __restrict__ out) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t r = first_row + static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < rows;
       r += stride)
    out[r] = hash_words<F, H>(words + r * static_cast<std::size_t>(row_words), row_words, rounds);
}

unsigned grid_for(std::size_t work_items) {
  int device = 0;
  int multiprocessors = 0;
  SUBSCALE_CUDA_CHECK(cudaGetDevice(&device));
  SUBSCALE_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  // Enough blocks to fill every SM several times over; beyond that the grid-stride loop takes
  // the rest, so launch overhead does not grow with the table.
  const std::size_t cap = static_cast<std::size_t>(std::max(multiprocessors, 1)) * 16;
  const std::size_t needed = (work_items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(needed, cap)));
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <HashFunction F, class H>
void launch(const std::uint32_t* d_words, std::size_t rows, int k, int rounds, H* d_out, cudaStream_t stream) {
  if (rows == 0) return;
  const bool vector_path = aligned16(d_words) && aligned16(d_out) && (k == 1 || k == 2 || k == 4 || k == 8 || k == 16);
  if (!vector_path) {
    hash_any_rows<F, H><<<grid_for(rows), kThreads, 0, stream>>>(d_words, 0, rows, k, rounds, d_out);
    SUBSCALE_CUDA_CHECK_LAUNCH(hash_any_rows);
    return;
  }
  const auto* vectors = reinterpret_cast<const uint4*>(d_words);
  if (k <= 4) {
    const bool half_vectors = k == 1 && sizeof(H) == 8;
    const std::size_t rows_per_vector = (half_vectors ? 2 : 4) / static_cast<std::size_t>(k);
    const std::size_t vector_count = rows / rows_per_vector;
    const std::size_t loads_per_step = half_vectors ? 2 * kLoadsPerStep : kLoadsPerStep;
    const unsigned grid = grid_for(vector_count / loads_per_step + 1);
    if (vector_count > 0) {
      if (half_vectors)
        hash_narrow_rows<F, H, 1, uint2>
            <<<grid, kThreads, 0, stream>>>(reinterpret_cast<const uint2*>(d_words), vector_count, rounds, d_out);
      else if (k == 1)
        hash_narrow_rows<F, H, 1><<<grid, kThreads, 0, stream>>>(vectors, vector_count, rounds, d_out);
      else if (k == 2)
        hash_narrow_rows<F, H, 2><<<grid, kThreads, 0, stream>>>(vectors, vector_count, rounds, d_out);
      else
        hash_narrow_rows<F, H, 4><<<grid, kThreads, 0, stream>>>(vectors, vector_count, rounds, d_out);
      SUBSCALE_CUDA_CHECK_LAUNCH(hash_narrow_rows);
    }
    const std::size_t done = vector_count * rows_per_vector;
    if (done < rows) {
      hash_any_rows<F, H><<<1, kThreads, 0, stream>>>(d_words, done, rows, k, rounds, d_out);
      SUBSCALE_CUDA_CHECK_LAUNCH(hash_any_rows);
    }
    return;
  }
  const unsigned grid = grid_for(k == 8 ? rows / 2 + 1 : rows);
  if (k == 8)
    hash_wide_rows<F, H, 8><<<grid, kThreads, 0, stream>>>(vectors, rows, rounds, d_out);
  else
    hash_wide_rows<F, H, 16><<<grid, kThreads, 0, stream>>>(vectors, rows, rounds, d_out);
  SUBSCALE_CUDA_CHECK_LAUNCH(hash_wide_rows);
}

}  // namespace

// Rows copied and hashed per step of the copy/compute pipeline: large enough for full-rate
// copies, small enough that the first kernel starts early.
constexpr std::size_t kPieceBytes = std::size_t{32} << 20;

template <class H>
void hash_rows_device(const HashSpec& spec, const std::uint32_t* d_words, std::size_t rows, int row_words, H* d_out,
                      cudaStream_t stream) {
  if (row_words < 1) throw UsageError("hash: row_words must be >= 1, got " + std::to_string(row_words));
  if (spec.rounds < 1) throw UsageError("hash: rounds must be >= 1, got " + std::to_string(spec.rounds));
  with_hash_function(spec.function, [&](auto id) {
    launch<decltype(id)::value, H>(d_words, rows, row_words, spec.rounds, d_out, stream);
  });
}

template <class H>
void hash_rows_cuda(const HashSpec& spec, const RowTableView& table, std::span<H> out,
                    const gpu::ExecutionContext& context) {
  if (table.rows == 0) return;
  const std::size_t row_bytes = static_cast<std::size_t>(table.row_words) * sizeof(std::uint32_t) + sizeof(H);
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  SUBSCALE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // Half of the budget per chunk; a table that does not fit is hashed in several chunks rather
  // than refused.
  const std::uint64_t budget = gpu::device_budget(context.device_bytes, free_bytes);
  if (budget / 2 < row_bytes)
    throw ResourceError("hash: the GPU budget is " + std::to_string(budget) + " bytes, too few for one row of " +
                        std::to_string(row_bytes) + " bytes; use the cpu backend (hash.backend=cpu)");
  const std::size_t chunk_rows = std::min<std::size_t>(table.rows, budget / 2 / row_bytes);
  const auto words = static_cast<std::size_t>(table.row_words);
  DeviceBuffer<std::uint32_t> d_words(chunk_rows * words);
  DeviceBuffer<H> d_out(chunk_rows);
  const cudaStream_t stream = context.stream;
  // The rows come from pageable memory through pinned staging (gpu/staged_upload), a piece at a
  // time, and each piece is hashed on the context's stream while the next is copied.
  gpu::StagedUploader uploader(kPieceBytes);
  // A multiple of 4 rows, so that every piece starts 16-byte aligned like the buffer (the kernels
  // take a slower word path on unaligned rows).
  const std::size_t piece_rows = std::max<std::size_t>(4, kPieceBytes / (words * sizeof(std::uint32_t)) / 4 * 4);
  for (std::size_t first = 0; first < table.rows; first += chunk_rows) {
    const std::size_t n = std::min(chunk_rows, table.rows - first);
    for (std::size_t at = 0; at < n; at += piece_rows) {
      const std::size_t m = std::min(piece_rows, n - at);
      uploader.upload(d_words.data() + at * words, std::span<const std::uint32_t>(table.row(first + at), m * words));
      SUBSCALE_CUDA_CHECK(cudaStreamWaitEvent(stream, uploader.record(), 0));
      hash_rows_device(spec, d_words.data() + at * words, m, table.row_words, d_out.data() + at, stream);
    }
    SUBSCALE_CUDA_CHECK(
        cudaMemcpyAsync(out.data() + first, d_out.data(), n * sizeof(H), cudaMemcpyDeviceToHost, stream));
    SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
    // The next chunk reuses d_words: its copies wait for this chunk's kernels (synchronised above).
  }
}

template void hash_rows_device<std::uint32_t>(const HashSpec&, const std::uint32_t*, std::size_t, int, std::uint32_t*,
                                              cudaStream_t);
template void hash_rows_device<std::uint64_t>(const HashSpec&, const std::uint32_t*, std::size_t, int, std::uint64_t*,
                                              cudaStream_t);
template void hash_rows_cuda<std::uint32_t>(const HashSpec&, const RowTableView&, std::span<std::uint32_t>,
                                            const gpu::ExecutionContext&);
template void hash_rows_cuda<std::uint64_t>(const HashSpec&, const RowTableView&, std::span<std::uint64_t>,
                                            const gpu::ExecutionContext&);

}  // namespace subscale::hash
