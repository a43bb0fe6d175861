#pragma once
// The build-and-probe work after partitioning, planned on the host from the partition offsets
// of R and S (shared by the CPU and CUDA backends). A work item is one partition's table and a
// chunk of at most probe_chunk of its S tuples, so a partition that skew made huge on the S side
// (Zipf) is probed by many workers at once. Partitions with an empty side produce nothing and
// are left out. A partition whose R side exceeds fast_table_capacity gets a table prebuilt once
// in ordinary memory (heads/next at the given bases); smaller ones are built by each work item
// in fast memory (GPU shared memory).
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace subscale::join {

struct ProbeWorkItem {
  std::uint32_t r_begin = 0, r_end = 0;  // the partition's R tuples
  std::uint32_t s_begin = 0, s_end = 0;  // the chunk of its S tuples this item probes
  std::uint64_t heads_base = 0;          // prebuilt tables only
  std::uint32_t next_base = 0;           // prebuilt tables only
  std::int32_t bucket_bits = 0;
  std::int32_t prebuilt = 0;  // 1: probe the prebuilt table; 0: build one in fast memory
  std::uint32_t reserved = 0;
};

struct TableToBuild {
  std::uint32_t r_begin = 0, r_end = 0;
  std::uint64_t heads_base = 0;
  std::uint32_t next_base = 0;
  std::int32_t bucket_bits = 0;
};

struct ProbePlan {
  std::vector<ProbeWorkItem> items;
  std::vector<TableToBuild> tables;
  std::uint64_t heads_total = 0;  // entries of the heads array all prebuilt tables share
  std::uint64_t next_total = 0;   // entries of the next array
};

ProbePlan make_probe_plan(std::span<const std::uint32_t> r_offsets, std::span<const std::uint32_t> s_offsets,
                          std::uint32_t probe_chunk, std::uint32_t fast_table_capacity);

// Upper bound of make_probe_plan's item count, for memory planning before partitioning.
std::uint64_t max_probe_items(std::uint64_t partitions, std::uint64_t s_rows, std::uint32_t probe_chunk);

// Splits work items [0, n) into consecutive ranges whose output (item_offsets: n + 1 exclusive
// prefix sums of the items' pair counts) fits capacity_pairs each. Throws ResourceError when a
// single item alone produces more.
std::vector<std::pair<std::size_t, std::size_t>> split_into_batches(std::span<const std::uint64_t> item_offsets,
                                                                    std::uint64_t capacity_pairs);

}  // namespace subscale::join
