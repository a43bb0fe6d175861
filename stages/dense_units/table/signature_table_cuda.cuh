#pragma once
// The GPU signature table of one partition pass. One kernel enumerates every unit
// (unit_walker.hpp), keeps those whose primary signature falls in the partition and inserts them
// into an open-addressing table in device memory. A slot is one 64-bit word: 24 bits of the mixed
// signature (a tag, from other bits than the ones that pick the home slot) above the unit's
// 40-bit flat index, claimed with one atomicCAS. A unit that finds its tag already on its probe
// path is appended to a duplicate list instead; all units of one signature stop at the same slot,
// and the resolver splits what a tag joined by mistake, because it compares whole signatures.
// After the pass the duplicates are sorted by slot (CUB), so each group lies together.
#include <cstdint>

#include "gpu/device_buffer.hpp"
#include "stages/dense_units/enumeration/unit_walker.hpp"

namespace subscale::dense_units::table {

inline constexpr unsigned long long kEmptySlot = ~0ull;
inline constexpr std::uint32_t kFlatBits = 40;
inline constexpr unsigned long long kFlatMask = (1ull << kFlatBits) - 1;
// Flat indices must stay below this, so that no slot word equals the empty marker.
inline constexpr std::uint64_t kMaxUnits = kFlatMask;

// An inclusive range of primary signatures: [lower, upper].
struct SignatureRange {
  std::uint64_t lower;
  std::uint64_t upper;
};

struct InsertStatus {
  std::uint64_t kept;        // units whose signature fell in the range
  std::uint64_t duplicates;  // units that found their tag already in the table
  bool table_full;           // a probe sequence found no room
  bool duplicate_list_full;  // a stripe of the duplicate list overflowed: not all were kept
};

// The duplicates of one pass, sorted by slot, and the table their groups' first units live in.
struct SortedDuplicates {
  const unsigned long long* slots = nullptr;  // ascending
  const unsigned long long* flats = nullptr;
  std::uint64_t count = 0;
  const unsigned long long* table = nullptr;  // slot words
  std::uint64_t capacity = 0;
};

class DeviceSignatureTable {
 public:
  // Every kernel and copy runs on `stream`.
  DeviceSignatureTable(std::uint64_t capacity, std::uint64_t duplicate_capacity, cudaStream_t stream);

  // Device bytes the table, its duplicate list and the sort need, per slot, with one duplicate
  // listed per `slots_per_duplicate` slots.
  static std::uint64_t bytes_per_slot(std::uint64_t slots_per_duplicate);

  std::uint64_t capacity() const { return capacity_; }
  std::uint64_t duplicate_capacity() const { return duplicate_capacity_; }
  std::uint64_t bytes() const;

  // One pass: every unit of the space is walked, those in `range` inserted. A thread walks runs
  // of `units_per_run` consecutive units (one search and unrank a run); with warp_walk a warp
  // walks runs 32 times as long together, its lanes sharing out each run of the lowest element.
  InsertStatus insert(const enumeration::UnitSpaceView& space, std::uint64_t total, SignatureRange range,
                      std::uint32_t units_per_run, bool warp_walk, int multiprocessors);

  // Sorts the last pass's `count` duplicates by slot (the pass's list must not have been full).
  SortedDuplicates sort_duplicates(std::uint64_t count);

 private:
  cudaStream_t stream_;
  std::uint64_t capacity_;
  std::uint64_t duplicate_capacity_;
  gpu::DeviceBuffer<unsigned long long> slots_;
  gpu::DeviceBuffer<unsigned char> status_;  // the pass's counters (PassStatus in the .cu)
  gpu::DeviceBuffer<unsigned long long> dup_slots_, dup_flats_, sorted_slots_, sorted_flats_;
  gpu::DeviceBuffer<unsigned char> sort_temp_;
};

}  // namespace subscale::dense_units::table
