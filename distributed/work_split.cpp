#include "distributed/work_split.hpp"

#include <algorithm>

namespace subscale::distributed {
namespace {

std::uint64_t scaled(std::uint64_t total, std::uint64_t part, std::uint64_t parts) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(total) * part / parts);
}

}  // namespace

WorkSplit direct_split(std::uint64_t total_units, std::uint32_t units) {
  WorkSplit split;
  split.mode = TableMode::direct;
  split.units = std::max<std::uint32_t>(1, units);
  split.total_units = total_units;
  const std::uint64_t per_unit =
      std::clamp<std::uint64_t>(total_units / (split.units * kMinSliceUnits), 1, kSlicesPerUnit);
  split.slices = split.units * per_unit;
  return split;
}

WorkSplit partition_split(std::uint64_t total_units, PartitionPlan partitions, TableMode mode) {
  WorkSplit split;
  split.mode = mode;
  split.units = static_cast<std::uint32_t>(partitions.count());
  split.total_units = total_units;
  split.partitions = std::move(partitions);
  return split;
}

std::vector<UnitRange> WorkSplit::ranges(std::uint32_t unit) const {
  std::vector<UnitRange> out;
  for (std::uint64_t s = unit; s < slices; s += units) {
    const UnitRange range{scaled(total_units, s, slices), scaled(total_units, s + 1, slices)};
    if (range.end > range.begin) out.push_back(range);
  }
  return out;
}

std::uint64_t WorkSplit::units_in(std::uint32_t unit) const {
  if (mode != TableMode::direct) return total_units / std::max<std::uint32_t>(1, units);
  std::uint64_t sum = 0;
  for (const UnitRange& range : ranges(unit)) sum += range.end - range.begin;
  return sum;
}

std::vector<std::uint32_t> deal(const std::vector<std::uint32_t>& pending, int rank, int processes) {
  std::vector<std::uint32_t> mine;
  for (std::size_t i = static_cast<std::size_t>(rank); i < pending.size(); i += static_cast<std::size_t>(processes))
    mine.push_back(pending[i]);
  return mine;
}

}  // namespace subscale::distributed
