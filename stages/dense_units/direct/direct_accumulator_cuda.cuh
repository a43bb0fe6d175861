#pragma once
// Direct mode's subspace table on the device: a dimension set (a mask of key_words words) maps to
// the point bitmap of its subspace (point_words words). Slots are claimed with one atomicCAS; the
// claimer reserves an entry, writes the key, and publishes (tag, entry) in the slot, so a reader
// that sees the tag finds the key written. Points are ORed in with atomicOr, which makes adding a
// unit twice harmless: a batch that overflowed the table can simply be walked again after the
// table was spilled to the host. The host side (DeviceDirectAccumulator) owns the memory, spills in
// bulk and clears.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "gpu/device_buffer.hpp"
#include "stages/dense_units/direct/direct_subspace_map.hpp"

namespace subscale::dense_units::direct {

inline constexpr unsigned long long kEmptySlot = 0;
inline constexpr unsigned long long kBusySlot = ~0ull;      // being written
inline constexpr unsigned long long kLostSlot = ~0ull - 1;  // claimed when the entries ran out
inline constexpr std::uint32_t kNoEntry = ~std::uint32_t{0};

struct DirectAccumulatorView {
  unsigned long long* slots = nullptr;  // slot_count: kEmptySlot, kBusySlot, kLostSlot or tag << 32 | entry
  std::uint64_t* keys = nullptr;        // entry_capacity x key_words
  std::uint64_t* bitmaps = nullptr;     // entry_capacity x point_words
  unsigned int* entry_count = nullptr;
  unsigned int* overflow = nullptr;  // set when a unit could not be added
  std::uint64_t slot_count = 0;
  std::uint32_t entry_capacity = 0;
  std::uint32_t key_words = 0;
  std::uint32_t point_words = 0;
};

class DeviceDirectAccumulator {
 public:
  // Every kernel and copy of the table runs on `stream` (the walk's kernel too).
  DeviceDirectAccumulator(std::uint32_t entry_capacity, std::uint32_t key_words, std::uint32_t point_words,
                          cudaStream_t stream);

  static std::uint64_t bytes_per_entry(std::uint32_t key_words, std::uint32_t point_words) {
    return (std::uint64_t{key_words} + point_words) * 8 + 2 * sizeof(unsigned long long);
  }
  const DirectAccumulatorView& view() const { return view_; }
  std::uint32_t entries() const;  // synchronises
  bool overflowed() const;        // synchronises
  std::uint64_t bytes() const { return slots_.bytes() + keys_.bytes() + bitmaps_.bytes(); }

  // ORs every entry into `host` and empties the table (and its overflow flag).
  void spill_into(dense_units::direct::DirectSubspaceMap& host);
  std::uint64_t spilled_entries() const { return spilled_; }
  // Every entry in the subspaces stage's order (|S| descending, then S), sorted and turned into id
  // lists on the device, then into vectors on the host; std::nullopt when the device has no room
  // for that (spill instead). Lists cross in chunks of about `chunk_ids` ids (0: 4 M). `phase` is
  // told the step that starts (for the stage's phase times).
  std::optional<std::vector<SubspaceCluster>> list_in_order(std::uint32_t dimensions, std::uint64_t chunk_ids,
                                                            const std::function<void(const char*)>& phase) const;

 private:
  cudaStream_t stream_;
  gpu::DeviceBuffer<unsigned long long> slots_;
  gpu::DeviceBuffer<std::uint64_t> keys_, bitmaps_;
  gpu::DeviceBuffer<unsigned int> counters_;  // entry count, overflow flag
  DirectAccumulatorView view_;
  std::uint64_t spilled_ = 0;
};

}  // namespace subscale::dense_units::direct
