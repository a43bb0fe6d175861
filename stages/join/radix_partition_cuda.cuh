#pragma once
// Device-level radix partitioning (pointers into device memory), used by the join driver and by
// radix_partition_cuda. One pass = three launches over the whole relation, whatever the
// number of partitions: per-block histograms, a CUB exclusive scan over (digit, block), and a
// stable scatter. The partition bounds are found afterwards by one binary search per partition.
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/device_buffer.hpp"
#include "stages/join/join_hash.hpp"
#include "stages/join/radix_layout.hpp"

namespace subscale::join {

using gpu::DeviceBuffer;

// Histogram and scan scratch for any relation partitioned with this layout, allocated once per join.
struct PartitionScratch {
  DeviceBuffer<std::uint32_t> counts;   // [digit][block]
  DeviceBuffer<std::uint32_t> scanned;  // exclusive prefix sums of counts
  DeviceBuffer<unsigned char> cub_temp;
  std::size_t cub_temp_bytes = 0;
  int blocks_per_pass = 0;  // at most this many blocks per pass
};

PartitionScratch make_partition_scratch(const RadixLayout& layout);

struct DevicePartitioned {
  const std::uint64_t* keys = nullptr;
  const std::uint32_t* rows = nullptr;
};

// Partitions keys_in[0, n): the passes ping-pong between buffers a and b (b is unused with one
// pass) and the result always ends in a. Writes layout.partitions() + 1 offsets into offsets.
DevicePartitioned partition_on_device(const std::uint64_t* keys_in, std::uint32_t n, const RadixLayout& layout,
                                      JoinHash hash, std::uint64_t* keys_a, std::uint32_t* rows_a,
                                      std::uint64_t* keys_b, std::uint32_t* rows_b, std::uint32_t* offsets,
                                      PartitionScratch& scratch, cudaStream_t stream);

}  // namespace subscale::join
