#pragma once
// A relation after radix partitioning: (key, row) pairs ordered by partition id, stable within a
// partition, and the start of every partition (partitions() + 1 offsets, the last one = size).
#include <cstdint>
#include <vector>

namespace subscale::join {

struct PartitionedKeys {
  std::vector<std::uint64_t> keys;
  std::vector<std::uint32_t> rows;     // input position of each key
  std::vector<std::uint32_t> offsets;  // partition p holds [offsets[p], offsets[p + 1])
};

}  // namespace subscale::join
