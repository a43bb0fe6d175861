#include "pipeline/log/memory_advice.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "io/host_memory.hpp"
#include "pipeline/log/log_format.hpp"

namespace subscale::pipeline {

void check_memory_budget(const RunSettings& settings, std::uint64_t total_units, std::uint64_t largest_window_units) {
  if (settings.core.units.mode == TableMode::direct) return;  // no signature table to hold
  const std::uint64_t budget = settings.core.units.host_bytes;
  constexpr std::uint64_t bookkeeping = std::uint64_t{64} << 20;
  const std::uint64_t one_window = largest_window_units * kHostBytesPerUnit + bookkeeping;
  if (budget < one_window)
    throw ResourceError("memory.host_bytes = " + std::to_string(budget) +
                        " is too small for even one window: the fullest window has " +
                        format_count(largest_window_units) + " dense units; raise memory.host_bytes to at least " +
                        std::to_string(one_window) + " (" + format_bytes(static_cast<double>(one_window)) + ")");
  if (settings.core.units.partitions != 0) return;
  const std::uint64_t needed = total_units * kHostBytesPerUnit;
  constexpr std::uint64_t max_partitions = 65536;
  if (needed / budget >= max_partitions)
    throw ResourceError("memory.host_bytes = " + std::to_string(budget) +
                        " is too small: " + format_count(total_units) + " dense units need " +
                        format_bytes(static_cast<double>(needed)) + " of table, more than " +
                        std::to_string(max_partitions) + " partitions; raise memory.host_bytes to at least " +
                        std::to_string(needed / max_partitions + 1));
}

std::string partition_memory_note(const RunSettings& settings, std::uint64_t total_units) {
  const DenseUnitsParams& units = settings.core.units;
  if (units.mode == TableMode::direct || units.partitions == 0) return {};
  const std::size_t needed = fit_partitions_to_host_bytes(units, total_units).partitions;
  if (needed == units.partitions) return {};
  return "memory      partitions.count = " + std::to_string(units.partitions) + " would put " +
         io::describe_bytes(total_units * kHostBytesPerUnit / units.partitions) +
         " of table in each partition, more than memory.host_bytes = " + io::describe_bytes(units.host_bytes) +
         "; taking " + std::to_string(needed) + " partitions";
}

std::string direct_memory_note(const RunSettings& settings, const DirectMemoryPlan& plan) {
  const std::uint64_t available = io::available_host_memory();
  const std::uint64_t budget = settings.core.units.host_bytes;
  const std::uint64_t limit = std::min(budget, available);
  const std::uint64_t needed = plan.table_bytes_at_least();
  if (needed <= limit) return {};
  const std::string against = budget <= available ? "memory.host_bytes = " + io::describe_bytes(budget)
                                                  : "the " + io::describe_bytes(available) + " of memory available now";
  return "memory      warning: direct mode's subspace tables need at least " + io::describe_bytes(needed) + " (" +
         format_count(plan.subspaces_at_least) + " subspaces " +
         (plan.exact ? "in all" : "found in a sample of the walk") + ", " + std::to_string(plan.bytes_per_subspace) +
         " bytes each, held twice while the threads' tables merge), more than " + against +
         "; the run may be killed part-way: use a machine with more memory, or find fewer subspaces (a larger " +
         "min_points or a smaller epsilon)";
}

}  // namespace subscale::pipeline
