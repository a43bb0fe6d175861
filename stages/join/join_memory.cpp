#include "stages/join/join_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "common/error.hpp"
#include "stages/join/probe_plan.hpp"

namespace subscale::join {

JoinMemoryPlan plan_join_memory(std::uint64_t r_rows, std::uint64_t s_rows, const JoinSettings& settings,
                                Backend backend) {
  const std::uint64_t tuples = r_rows + s_rows;
  const std::uint64_t tuple_bytes = sizeof(std::uint64_t) + sizeof(std::uint32_t);
  const std::uint64_t partitions = settings.layout.partitions();
  JoinMemoryPlan plan;
  // The device holds its own copy of the key columns; the host backend reads the caller's.
  plan.input_bytes = backend == Backend::cuda ? tuples * sizeof(std::uint64_t) : 0;
  // One buffer per relation for a single pass, two (ping-pong) from two passes on.
  plan.partition_bytes = tuples * tuple_bytes * (settings.layout.passes() > 1 ? 2 : 1);
  // heads: a power of two >= m per partition (< 2m), next: m; both 4-byte indices.
  plan.table_bytes = r_rows * 3 * sizeof(std::uint32_t);
  const std::uint64_t items = max_probe_items(partitions, s_rows, settings.probe_chunk);
  plan.plan_bytes = 2 * (partitions + 1) * sizeof(std::uint32_t) +                 // offsets
                    items * (sizeof(ProbeWorkItem) + 2 * sizeof(std::uint64_t)) +  // items, counts
                    std::min<std::uint64_t>(partitions, r_rows) * sizeof(TableToBuild) +
                    (backend == Backend::cuda ? (64ULL << 20) : 0);  // histograms, CUB scratch
  return plan;
}

std::string format_bytes(std::uint64_t bytes) {
  char text[64];
  const double b = static_cast<double>(bytes);
  if (b >= 1024.0 * 1024 * 1024)
    std::snprintf(text, sizeof text, "%.2f GiB", b / (1024.0 * 1024 * 1024));
  else if (b >= 1024.0 * 1024)
    std::snprintf(text, sizeof text, "%.1f MiB", b / (1024.0 * 1024));
  else
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  return text;
}

void require_fits(const JoinMemoryPlan& plan, std::uint64_t r_rows, std::uint64_t s_rows, std::uint64_t budget_bytes,
                  Backend backend) {
  const std::uint64_t needed = plan.fixed_bytes() + kMinOutputBatchPairs * kBytesPerOutputPair;
  if (needed <= budget_bytes) return;
  throw ResourceError("the join of |R| = " + std::to_string(r_rows) + " and |S| = " + std::to_string(s_rows) +
                      " rows needs " + format_bytes(needed) + " of " + (backend == Backend::cuda ? "device" : "host") +
                      " memory (keys " + format_bytes(plan.input_bytes) + ", partition buffers " +
                      format_bytes(plan.partition_bytes) + ", hash tables up to " + format_bytes(plan.table_bytes) +
                      ", plan " + format_bytes(plan.plan_bytes) + ", output buffer " +
                      format_bytes(kMinOutputBatchPairs * kBytesPerOutputPair) + ") but the budget is " +
                      format_bytes(budget_bytes) +
                      "; nothing was allocated. Raise join.memory_budget, use one radix pass fewer, or join "
                      "smaller pieces of the tables");
}

std::uint64_t output_batch_pairs(const JoinMemoryPlan& plan, std::uint64_t budget_bytes, std::uint64_t total_pairs) {
  const std::uint64_t left = budget_bytes > plan.fixed_bytes() ? budget_bytes - plan.fixed_bytes() : 0;
  return std::min(total_pairs, std::max(left / kBytesPerOutputPair, kMinOutputBatchPairs));
}

std::uint64_t default_host_memory_budget() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 8ULL << 30;  // unknown: assume a small machine
  return static_cast<std::uint64_t>(pages) / 10 * 8 * static_cast<std::uint64_t>(page_size);
}

}  // namespace subscale::join
