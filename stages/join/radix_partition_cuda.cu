// Radix partitioning kernels. The scatter is stable and deterministic (no atomics decide where a
// tuple goes), so the device result equals the CPU one bit for bit:
//  - block b owns a contiguous chunk of the input and, per digit d, the output range that starts
//    at scan[d][b] (all tuples with a smaller digit, plus digit d in earlier blocks);
//  - inside a tile, warp w ranks its lanes' tuples with __match_any_sync (lanes with the same
//    digit) and keeps per-warp digit counters in shared memory; an exclusive scan of the
//    counters across warps orders the warps; the tile's totals then advance the block's bases.
#include <algorithm>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "common/error.hpp"
#include "stages/join/join_cuda.hpp"
#include "stages/join/radix_partition_cuda.cuh"

namespace subscale::join {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kItemsPerLane = 8;
constexpr int kWarpTile = 32 * kItemsPerLane;
constexpr int kBlockTile = kWarpTile * kWarps;
constexpr std::uint32_t kNoDigit = 0xFFFFFFFFu;
constexpr int kBlocksPerMultiprocessor = 4;

struct PassGeometry {
  std::uint32_t blocks = 0;
  std::uint32_t chunk = 0;  // tuples per block, a multiple of kBlockTile
};

PassGeometry pass_geometry(std::uint32_t n, int max_blocks) {
  const std::uint64_t tiles = (std::uint64_t{n} + kBlockTile - 1) / kBlockTile;
  const std::uint64_t blocks = std::clamp<std::uint64_t>(tiles, 1, static_cast<std::uint64_t>(max_blocks));
  const std::uint64_t tiles_per_block = (tiles + blocks - 1) / blocks;
  PassGeometry g;
  g.chunk = static_cast<std::uint32_t>(std::max<std::uint64_t>(tiles_per_block, 1) * kBlockTile);
  g.blocks = static_cast<std::uint32_t>(std::max<std::uint64_t>((std::uint64_t{n} + g.chunk - 1) / g.chunk, 1));
  return g;
}

__global__ void __launch_bounds__(kThreads)
    histogram_kernel(const std::uint64_t* __restrict__ keys, std::uint32_t n, std::uint32_t chunk, int shift, int bits,
                     JoinHash hash, std::uint32_t* __restrict__ counts) {
  extern __shared__ std::uint32_t histogram[];
  const std::uint32_t digits = 1U << bits;
  for (std::uint32_t d = threadIdx.x; d < digits; d += blockDim.x) histogram[d] = 0;
  __syncthreads();
  const std::uint64_t begin = std::uint64_t{blockIdx.x} * chunk;
  const std::uint64_t end = std::min<std::uint64_t>(n, begin + chunk);
#pragma unroll 4
  for (std::uint64_t i = begin + threadIdx.x; i < end; i += blockDim.x)
    atomicAdd(&histogram[radix_digit(join_hash(keys[i], hash), shift, bits)], 1U);
  __syncthreads();
  for (std::uint32_t d = threadIdx.x; d < digits; d += blockDim.x) counts[d * gridDim.x + blockIdx.x] = histogram[d];
}

template <bool kFirstPass>
__global__ void __launch_bounds__(kThreads)
    scatter_kernel(const std::uint64_t* __restrict__ keys_in, const std::uint32_t* __restrict__ rows_in,
                   std::uint32_t n, std::uint32_t chunk, int shift, int bits, JoinHash hash,
                   const std::uint32_t* __restrict__ scanned, std::uint64_t* __restrict__ keys_out,
                   std::uint32_t* __restrict__ rows_out) {
  extern __shared__ std::uint32_t shared[];
  const std::uint32_t digits = 1U << bits;
  std::uint32_t* base = shared;                                        // [digit]
  auto* tile_total = reinterpret_cast<std::uint16_t*>(base + digits);  // [digit]
  std::uint16_t* warp_count = tile_total + digits;                     // [warp][digit]
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  std::uint16_t* my_count = warp_count + warp * digits;
  const unsigned lanes_below = (1U << lane) - 1U;

  for (std::uint32_t d = threadIdx.x; d < digits; d += blockDim.x) {
    base[d] = scanned[d * gridDim.x + blockIdx.x];
    for (int w = 0; w < kWarps; ++w) warp_count[w * digits + d] = 0;
  }
  __syncthreads();

  const std::uint64_t begin = std::uint64_t{blockIdx.x} * chunk;
  const std::uint64_t end = std::min<std::uint64_t>(n, begin + chunk);
  for (std::uint64_t tile = begin; tile < end; tile += kBlockTile) {
    std::uint64_t key[kItemsPerLane];
    std::uint32_t row[kItemsPerLane];
    std::uint32_t digit[kItemsPerLane];
    std::uint32_t rank[kItemsPerLane];
    const std::uint64_t warp_begin = tile + static_cast<std::uint64_t>(warp) * kWarpTile;
#pragma unroll
    for (int r = 0; r < kItemsPerLane; ++r) {
      const std::uint64_t i = warp_begin + r * 32 + lane;
      key[r] = 0;
      row[r] = 0;
      digit[r] = kNoDigit;
      if (i < end) {
        key[r] = keys_in[i];
        row[r] = kFirstPass ? static_cast<std::uint32_t>(i) : rows_in[i];
        digit[r] = radix_digit(join_hash(key[r], hash), shift, bits);
      }
    }
    // Rank within the warp, in input order: earlier rounds first, then lower lanes.
#pragma unroll
    for (int r = 0; r < kItemsPerLane; ++r) {
      const unsigned peers = __match_any_sync(0xFFFFFFFFu, digit[r]);
      rank[r] = 0;
      if (digit[r] != kNoDigit) rank[r] = my_count[digit[r]] + __popc(peers & lanes_below);
      __syncwarp();
      if (digit[r] != kNoDigit && lane == __ffs(peers) - 1)
        my_count[digit[r]] = static_cast<std::uint16_t>(my_count[digit[r]] + __popc(peers));
      __syncwarp();
    }
    __syncthreads();
    // Per digit: warps' counts -> exclusive offsets across warps (warp order = input order).
    for (std::uint32_t d = threadIdx.x; d < digits; d += blockDim.x) {
      std::uint32_t sum = 0;
      for (int w = 0; w < kWarps; ++w) {
        const std::uint32_t count = warp_count[w * digits + d];
        warp_count[w * digits + d] = static_cast<std::uint16_t>(sum);
        sum += count;
      }
      tile_total[d] = static_cast<std::uint16_t>(sum);
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < kItemsPerLane; ++r) {
      if (digit[r] == kNoDigit) continue;
      const std::uint32_t destination = base[digit[r]] + my_count[digit[r]] + rank[r];
      keys_out[destination] = key[r];
      rows_out[destination] = row[r];
    }
    __syncthreads();
    for (std::uint32_t d = threadIdx.x; d < digits; d += blockDim.x) {
      base[d] += tile_total[d];
      for (int w = 0; w < kWarps; ++w) warp_count[w * digits + d] = 0;
    }
    __syncthreads();
  }
}

__global__ void bounds_kernel(const std::uint64_t* __restrict__ keys, std::uint32_t n, std::uint32_t partitions,
                              int total_bits, JoinHash hash, std::uint32_t* __restrict__ offsets) {
  const std::uint64_t p = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (p <= partitions) offsets[p] = partition_lower_bound(keys, n, static_cast<std::uint32_t>(p), total_bits, hash);
}

int multiprocessor_count() {
  int device = 0;
  SUBSCALE_CUDA_CHECK(cudaGetDevice(&device));
  int count = 0;
  SUBSCALE_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return std::max(count, 1);
}

int max_pass_bits(const RadixLayout& layout) {
  int bits = 0;
  for (int b : layout.pass_bits) bits = std::max(bits, b);
  return bits;
}

}  // namespace

PartitionScratch make_partition_scratch(const RadixLayout& layout) {
  PartitionScratch scratch;
  scratch.blocks_per_pass = multiprocessor_count() * kBlocksPerMultiprocessor;
  // Any relation's pass uses at most blocks_per_pass blocks (pass_geometry).
  const std::size_t entries =
      (std::size_t{1} << max_pass_bits(layout)) * static_cast<std::size_t>(scratch.blocks_per_pass);
  scratch.counts = DeviceBuffer<std::uint32_t>(entries);
  scratch.scanned = DeviceBuffer<std::uint32_t>(entries);
  SUBSCALE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scratch.cub_temp_bytes, scratch.counts.data(),
                                                    scratch.scanned.data(), static_cast<int>(entries)));
  scratch.cub_temp = DeviceBuffer<unsigned char>(std::max<std::size_t>(scratch.cub_temp_bytes, 1));
  return scratch;
}

DevicePartitioned partition_on_device(const std::uint64_t* keys_in, std::uint32_t n, const RadixLayout& layout,
                                      JoinHash hash, std::uint64_t* keys_a, std::uint32_t* rows_a,
                                      std::uint64_t* keys_b, std::uint32_t* rows_b, std::uint32_t* offsets,
                                      PartitionScratch& scratch, cudaStream_t stream) {
  const std::uint32_t partitions = layout.partitions();
  if (n == 0) {
    SUBSCALE_CUDA_CHECK(cudaMemsetAsync(offsets, 0, (std::size_t{partitions} + 1) * sizeof(std::uint32_t), stream));
    return {keys_a, rows_a};
  }
  const PassGeometry geometry = pass_geometry(n, scratch.blocks_per_pass);
  const std::uint64_t* pass_keys = keys_in;
  const std::uint32_t* pass_rows = nullptr;
  for (int pass = 0; pass < layout.passes(); ++pass) {
    const int bits = layout.pass_bits[static_cast<std::size_t>(pass)];
    const int shift = layout.shift(pass);
    const std::uint32_t digits = 1U << bits;
    const bool into_a = (layout.passes() - 1 - pass) % 2 == 0;
    std::uint64_t* out_keys = into_a ? keys_a : keys_b;
    std::uint32_t* out_rows = into_a ? rows_a : rows_b;

    histogram_kernel<<<geometry.blocks, kThreads, digits * sizeof(std::uint32_t), stream>>>(
        pass_keys, n, geometry.chunk, shift, bits, hash, scratch.counts.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(histogram_kernel);
    const int entries = static_cast<int>(digits * geometry.blocks);
    std::size_t temp_bytes = scratch.cub_temp_bytes;
    SUBSCALE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.cub_temp.data(), temp_bytes, scratch.counts.data(),
                                                      scratch.scanned.data(), entries, stream));
    const std::size_t shared_bytes = digits * sizeof(std::uint32_t) + digits * sizeof(std::uint16_t) * (1 + kWarps);
    if (pass == 0)
      scatter_kernel<true><<<geometry.blocks, kThreads, shared_bytes, stream>>>(
          pass_keys, pass_rows, n, geometry.chunk, shift, bits, hash, scratch.scanned.data(), out_keys, out_rows);
    else
      scatter_kernel<false><<<geometry.blocks, kThreads, shared_bytes, stream>>>(
          pass_keys, pass_rows, n, geometry.chunk, shift, bits, hash, scratch.scanned.data(), out_keys, out_rows);
    SUBSCALE_CUDA_CHECK_LAUNCH(scatter_kernel);
    pass_keys = out_keys;
    pass_rows = out_rows;
  }
  const std::uint32_t threads = 256;
  const std::uint32_t blocks = static_cast<std::uint32_t>((std::uint64_t{partitions} + 1 + threads - 1) / threads);
  bounds_kernel<<<blocks, threads, 0, stream>>>(keys_a, n, partitions, layout.total_bits(), hash, offsets);
  SUBSCALE_CUDA_CHECK_LAUNCH(bounds_kernel);
  return {keys_a, rows_a};
}

PartitionedKeys radix_partition_cuda(std::span<const std::uint64_t> keys, const RadixLayout& layout, JoinHash hash,
                                     const gpu::ExecutionContext& context) {
  if (keys.size() > kMaxJoinRows)
    throw UsageError("a join relation has " + std::to_string(keys.size()) + " rows; at most " +
                     std::to_string(kMaxJoinRows) + " are supported: join smaller pieces");
  validate(layout);
  const auto n = static_cast<std::uint32_t>(keys.size());
  const std::size_t partitions = layout.partitions();
  DeviceBuffer<std::uint64_t> input(n), keys_a(n), keys_b(layout.passes() > 1 ? n : 0);
  DeviceBuffer<std::uint32_t> rows_a(n), rows_b(layout.passes() > 1 ? n : 0), offsets(partitions + 1);
  PartitionScratch scratch = make_partition_scratch(layout);
  const cudaStream_t stream = context.stream;
  if (n > 0)
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(input.data(), keys.data(), input.bytes(), cudaMemcpyHostToDevice, stream));
  partition_on_device(input.data(), n, layout, hash, keys_a.data(), rows_a.data(), keys_b.data(), rows_b.data(),
                      offsets.data(), scratch, stream);
  PartitionedKeys out;
  out.keys.resize(n);
  out.rows.resize(n);
  out.offsets.resize(partitions + 1);
  if (n > 0) {
    SUBSCALE_CUDA_CHECK(
        cudaMemcpyAsync(out.keys.data(), keys_a.data(), keys_a.bytes(), cudaMemcpyDeviceToHost, stream));
    SUBSCALE_CUDA_CHECK(
        cudaMemcpyAsync(out.rows.data(), rows_a.data(), rows_a.bytes(), cudaMemcpyDeviceToHost, stream));
  }
  SUBSCALE_CUDA_CHECK(
      cudaMemcpyAsync(out.offsets.data(), offsets.data(), offsets.bytes(), cudaMemcpyDeviceToHost, stream));
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return out;
}

}  // namespace subscale::join
