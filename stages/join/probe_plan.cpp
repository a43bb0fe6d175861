#include "stages/join/probe_plan.hpp"

#include <string>

#include "common/error.hpp"
#include "stages/join/join_hash.hpp"

namespace subscale::join {

ProbePlan make_probe_plan(std::span<const std::uint32_t> r_offsets, std::span<const std::uint32_t> s_offsets,
                          std::uint32_t probe_chunk, std::uint32_t fast_table_capacity) {
  ProbePlan plan;
  if (r_offsets.size() != s_offsets.size() || r_offsets.empty())
    throw Error(ExitCode::other, "make_probe_plan: R and S must have the same number of partitions");
  const std::size_t partitions = r_offsets.size() - 1;
  for (std::size_t p = 0; p < partitions; ++p) {
    const std::uint32_t r_begin = r_offsets[p], r_end = r_offsets[p + 1];
    const std::uint32_t s_begin = s_offsets[p], s_end = s_offsets[p + 1];
    if (r_begin == r_end || s_begin == s_end) continue;  // no pair can come from this partition
    ProbeWorkItem item;
    item.r_begin = r_begin;
    item.r_end = r_end;
    item.bucket_bits = bucket_bits_for(r_end - r_begin);
    if (r_end - r_begin > fast_table_capacity) {
      TableToBuild table{r_begin, r_end, plan.heads_total, static_cast<std::uint32_t>(plan.next_total),
                         item.bucket_bits};
      plan.tables.push_back(table);
      item.prebuilt = 1;
      item.heads_base = table.heads_base;
      item.next_base = table.next_base;
      plan.heads_total += 1ULL << item.bucket_bits;
      plan.next_total += r_end - r_begin;
    }
    for (std::uint32_t s = s_begin; s < s_end;) {
      item.s_begin = s;
      item.s_end = s_end - s > probe_chunk ? s + probe_chunk : s_end;
      plan.items.push_back(item);
      s = item.s_end;
    }
  }
  return plan;
}

std::uint64_t max_probe_items(std::uint64_t partitions, std::uint64_t s_rows, std::uint32_t probe_chunk) {
  // Each partition adds at most one partial chunk beyond s_p / probe_chunk full ones.
  return std::min<std::uint64_t>(partitions, s_rows) + s_rows / probe_chunk;
}

std::vector<std::pair<std::size_t, std::size_t>> split_into_batches(std::span<const std::uint64_t> item_offsets,
                                                                    std::uint64_t capacity_pairs) {
  std::vector<std::pair<std::size_t, std::size_t>> batches;
  if (item_offsets.size() < 2) return batches;
  const std::size_t n = item_offsets.size() - 1;
  std::size_t begin = 0;
  while (begin < n) {
    std::size_t end = begin;
    while (end < n && item_offsets[end + 1] - item_offsets[begin] <= capacity_pairs) ++end;
    if (end == begin) {
      throw ResourceError("one probe work item (R tuples of one partition against " +
                          std::string("one chunk of S) produces ") +
                          std::to_string(item_offsets[begin + 1] - item_offsets[begin]) +
                          " pairs, more than the output buffer of " + std::to_string(capacity_pairs) +
                          " pairs that fits the join's memory budget: raise join.memory_budget or lower "
                          "join.probe_chunk");
    }
    batches.emplace_back(begin, end);
    begin = end;
  }
  return batches;
}

}  // namespace subscale::join
