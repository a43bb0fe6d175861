#pragma once
// The subspaces stage (docs/method.md §8) on the device, fed by the GPU resolver chunk by chunk: each unit's
// dimension set D(U) is looked up in a table of the subspaces seen so far, and the unit's points
// are ORed into that subspace's bitmap over the point ids. The units never leave the device;
// only the (S, P_S) pairs do, once, at the end.
//
// The table is exact: it is keyed by a hash of D(U) but an entry matches only when its stored
// dimension list equals the unit's. New subspaces are added between kernels, by the host: units
// whose subspace is unknown claim a slot of a small table by hash, the host reads the claimants'
// dimension lists, numbers the new subspaces and uploads them, and the unknown units are looked
// up again. Units of subspaces beyond the accumulator's capacity go back to the host as units.
#include <cstdint>
#include <functional>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/dense_units/maximal_units.hpp"
#include "stages/dense_units/table/group_resolver_cuda.cuh"

namespace subscale::dense_units::table {

class DeviceSubspaceAccumulator {
 public:
  // points: ids are below this; max_units: the most units one add() receives. Every kernel and
  // copy runs on `stream`.
  DeviceSubspaceAccumulator(std::uint32_t points, std::uint32_t dimensions, std::uint64_t max_subspaces,
                            std::uint64_t max_units, cudaStream_t stream);

  static std::uint64_t bytes_per_subspace(std::uint32_t points);
  static std::uint64_t bytes_for(std::uint32_t points, std::uint32_t dimensions, std::uint64_t max_subspaces,
                                 std::uint64_t max_units);
  std::uint64_t bytes() const;

  // Where a full table goes: every subspace so far is handed over in one piece and the table
  // starts empty again. Without it (or when one add() alone brings more new subspaces than the
  // table holds), the units of subspaces that find no room go to add()'s `overflow`.
  using Spill = std::function<void(const std::vector<SubspaceCluster>& subspaces)>;
  void set_spill(Spill spill) { spill_ = std::move(spill); }

  // Adds the units' points to their subspaces; the units of subspaces that find no room are
  // appended to `overflow`.
  void add(const DeviceUnitsView& units, MaximalUnits& overflow);

  // The subspaces accumulated so far, with their points, in no particular order.
  std::vector<SubspaceCluster> subspaces() const;
  std::uint64_t count() const { return offsets_host_.size() - 1; }
  // Subspaces that went through the table: those spilled and those held now.
  std::uint64_t total() const { return spilled_ + count(); }
  std::uint64_t spills() const { return spills_; }

 private:
  std::uint64_t lookup(const DeviceUnitsView& units, const std::uint32_t* list, std::uint64_t count,
                       std::uint32_t* unknown);
  bool add_new_subspaces(const DeviceUnitsView& units, const std::uint32_t* unknown, std::uint64_t count);
  bool insert_host(const std::uint32_t* dims, std::uint32_t count);
  void upload();
  void reset();

  cudaStream_t stream_;
  std::uint32_t points_, dimensions_, words_;
  std::uint64_t max_subspaces_, max_units_;
  std::uint64_t table_mask_, claim_capacity_;
  // Host copies of the table and the dimension lists: the host is the only writer.
  std::vector<unsigned long long> table_host_;
  std::vector<std::uint32_t> arena_host_, offsets_host_{0};
  // Not yet on the device: these table slots, and the arena and offsets from these sizes on.
  std::vector<std::uint64_t> new_slots_;
  std::size_t arena_uploaded_ = 0, offsets_uploaded_ = 0;
  gpu::DeviceBuffer<unsigned long long> table_;
  gpu::DeviceBuffer<std::uint32_t> arena_, offsets_;
  gpu::DeviceBuffer<std::uint32_t> bitmaps_;
  gpu::DeviceBuffer<std::uint32_t> unknown_a_, unknown_b_;
  Spill spill_;
  std::uint64_t spilled_ = 0, spills_ = 0;
  gpu::DeviceBuffer<unsigned long long> claim_hash_, counter_;
  gpu::DeviceBuffer<std::uint32_t> claim_owner_, gathered_;
};

}  // namespace subscale::dense_units::table
