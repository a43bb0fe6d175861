#pragma once
// Resolution of the duplicate groups of one GPU pass, on the device, by the rules of the CPU's
// GroupResolver: each member (a slot's first unit and its duplicates) is located from its flat
// index, its points and whole signatures recomputed; members with equal (S1, S2) are one unit,
// kept when found in two or more distinct dimensions, with the points of its member of the
// smallest dimension (then flat index). Groups are resolved a chunk at a time in buffers
// allocated once, so the memory does not grow with the partition.
#include <cstdint>
#include <functional>

#include "common/phase_timer.hpp"
#include "gpu/device_buffer.hpp"
#include "stages/dense_units/enumeration/unit_walker.hpp"
#include "stages/dense_units/maximal_units.hpp"
#include "stages/dense_units/table/signature_table_cuda.cuh"

namespace subscale::dense_units::table {

// What the resolver reads besides the walker's arrays.
struct ResolveView {
  enumeration::UnitSpaceView space;
  const std::uint32_t* order = nullptr;           // windows: point id at position i of dimension j
  const std::uint64_t* primary_keys = nullptr;    // points: K1
  const std::uint64_t* secondary_keys = nullptr;  // points: K2
  bool second_signature = false;                  // 128-bit mode: units must match in S2 too
};

// Units found in two or more dimensions, in device memory: unit u has the points
// points[u*m .. u*m+m) (ascending) and the dimensions dims[dim_start[u] .. + dim_count[u])
// (ascending).
struct DeviceUnitsView {
  const std::uint32_t* points = nullptr;
  const std::uint32_t* dim_start = nullptr;
  const std::uint32_t* dim_count = nullptr;
  const std::uint32_t* dims = nullptr;
  std::uint64_t units = 0;
  std::uint64_t dims_size = 0;  // entries of dims in use (some may lie between units)
  std::uint32_t m = 0;
};

// Copies the units `selected` (all when null) of a device chunk into `out`, after the work queued
// on `stream`.
void append_to_host(const DeviceUnitsView& units, const std::vector<std::uint32_t>* selected, MaximalUnits& out,
                    cudaStream_t stream);

class DeviceGroupResolver {
 public:
  // Every kernel and copy runs on `stream`.
  DeviceGroupResolver(const ResolveView& view, std::uint64_t chunk_duplicates, cudaStream_t stream);

  static std::uint64_t bytes_per_duplicate(std::uint32_t m);
  std::uint64_t bytes() const { return bytes_; }

  // Resolves every group of `duplicates`, whole groups of at most chunk_duplicates duplicates at
  // a time, and hands each chunk's units to on_units (valid during the call). Returns the units.
  // The timer, when given, is told each kernel group's phase (and waits for the kernels).
  std::uint64_t resolve(const SortedDuplicates& duplicates, const std::function<void(const DeviceUnitsView&)>& on_units,
                        PhaseTimer* timer = nullptr);

  std::uint64_t members_resolved() const { return members_resolved_; }

 private:
  std::uint64_t chunk_end(const SortedDuplicates& duplicates, std::uint64_t begin) const;
  DeviceUnitsView resolve_chunk(const SortedDuplicates& duplicates, std::uint64_t begin, std::uint64_t end,
                                PhaseTimer* timer);

  ResolveView view_;
  cudaStream_t stream_;
  std::uint32_t m_;
  std::uint64_t chunk_;
  std::uint64_t bytes_ = 0;
  std::uint64_t members_resolved_ = 0;
  gpu::DeviceBuffer<unsigned int> starts_, group_ids_;
  gpu::DeviceBuffer<unsigned long long> member_flat_, member_s1_, member_s2_;
  gpu::DeviceBuffer<std::uint32_t> member_points_, member_dim_, scratch_;
  gpu::DeviceBuffer<std::uint64_t> group_start_;
  gpu::DeviceBuffer<std::uint32_t> out_points_, out_dim_start_, out_dim_count_, out_dims_;
  gpu::DeviceBuffer<unsigned long long> counters_;
  gpu::DeviceBuffer<unsigned char> scan_temp_;
};

}  // namespace subscale::dense_units::table
