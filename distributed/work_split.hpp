#pragma once
// How a cluster run cuts the core into work units and deals them to processes. A work unit is
// what a checkpoint records as done.
// - direct mode: the plan's flat unit indices cut into slices of equal units; unit u holds every
//   U-th slice starting at u, so each unit samples the whole space (windows of one dimension cost
//   alike, windows of another differ by orders of magnitude: interleaving evens that out).
// - signature and exact modes: one unit per partition of the signature space.
// The split depends only on the plan and the unit count, never on the number of processes, so a
// checkpoint can be resumed by a job of another size.
#include <cstdint>
#include <vector>

#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/direct/direct_units.hpp"

namespace subscale::distributed {

struct WorkSplit {
  TableMode mode = TableMode::direct;
  std::uint32_t units = 1;
  std::uint64_t total_units = 0;  // the plan's dense units
  std::uint64_t slices = 1;       // direct mode: slices of the unit space
  PartitionPlan partitions;       // signature and exact modes: unit u is partition u

  // Direct mode: the unit ranges of work unit u.
  std::vector<UnitRange> ranges(std::uint32_t unit) const;
  // Dense units inside work unit u (direct mode: exact; partitions: the average).
  std::uint64_t units_in(std::uint32_t unit) const;
};

// Slices per work unit at most: enough that every unit samples the space evenly.
inline constexpr std::uint64_t kSlicesPerUnit = 64;
// Dense units a slice holds at least (slices smaller than this only add items).
inline constexpr std::uint64_t kMinSliceUnits = std::uint64_t{1} << 20;

WorkSplit direct_split(std::uint64_t total_units, std::uint32_t units);
WorkSplit partition_split(std::uint64_t total_units, PartitionPlan partitions, TableMode mode);

// The share of `pending` (unit numbers, ascending) that process `rank` of `processes` takes:
// every processes-th, starting at its rank.
std::vector<std::uint32_t> deal(const std::vector<std::uint32_t>& pending, int rank, int processes);

}  // namespace subscale::distributed
