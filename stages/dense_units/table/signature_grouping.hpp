#pragma once
// Finding equal keys inside one bucket of the host signature table. A bucket holds the records
// whose mixed key shares its top bits, few enough to stay in cache; an open-addressing table over
// the bucket finds every key that occurs more than once.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace subscale {

// One dense unit in the host table: its mixed key (a bijection of the signature, or of the sorted
// point ids in exact mode) and where it was enumerated.
struct UnitRecord {
  std::uint64_t mixed_key;
  std::uint64_t flat;
};

// The same in 8 bytes, for runs of fewer than 2^32 units: 32 bits of the mixed key (with the
// bucket's top bits, about 45 bits are compared) and a 32-bit flat index. Records whose tags
// collide are split again by the group resolver, which checks the whole signature.
struct PackedUnitRecord {
  std::uint32_t tag;
  std::uint32_t flat;
};

// What find_equal_keys needs of a record: a 32-bit slot hash, a 32-bit tag stored in the slot,
// key equality, and the record in its wide form for the resolver.
inline std::uint32_t slot_hash(const UnitRecord& r) { return static_cast<std::uint32_t>(r.mixed_key); }
inline std::uint32_t slot_tag(const UnitRecord& r) { return static_cast<std::uint32_t>(r.mixed_key >> 32); }
inline bool same_key(const UnitRecord& a, const UnitRecord& b) { return a.mixed_key == b.mixed_key; }
inline UnitRecord widen(const UnitRecord& r) { return r; }
inline std::uint32_t slot_hash(const PackedUnitRecord& r) { return r.tag; }
inline std::uint32_t slot_tag(const PackedUnitRecord& r) { return r.tag; }
inline bool same_key(const PackedUnitRecord& a, const PackedUnitRecord& b) { return a.tag == b.tag; }
inline UnitRecord widen(const PackedUnitRecord& r) { return {r.tag, r.flat}; }

// Calls on_group(group) once per key that occurs >= 2 times, with the records holding it (the
// first occurrence first, the others in input order). `scratch` is reused between calls.
struct GroupScratch {
  std::vector<std::uint64_t> slots;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> duplicates;  // (first occurrence, other)
  std::vector<UnitRecord> grouped;
};

template <class Record, class OnGroup>
void find_equal_keys(const Record* records, std::uint32_t size, GroupScratch& scratch, OnGroup&& on_group) {
  // A slot holds a 32-bit tag of the key above the record's index, so most probes never touch
  // the records.
  constexpr std::uint64_t empty = ~std::uint64_t{0};
  if (size < 2) return;
  std::uint32_t capacity = 1;
  while (capacity < 2 * size) capacity <<= 1;
  const std::uint32_t mask = capacity - 1;
  scratch.slots.assign(capacity, empty);
  auto& duplicates = scratch.duplicates;
  duplicates.clear();
  for (std::uint32_t i = 0; i < size; ++i) {
    const std::uint64_t tag = std::uint64_t{slot_tag(records[i])} << 32;
    for (std::uint32_t slot = slot_hash(records[i]) & mask;; slot = (slot + 1) & mask) {
      const std::uint64_t held = scratch.slots[slot];
      if (held == empty) {
        scratch.slots[slot] = tag | i;
        break;
      }
      if ((held & 0xffffffff00000000ULL) == tag && same_key(records[static_cast<std::uint32_t>(held)], records[i])) {
        duplicates.emplace_back(static_cast<std::uint32_t>(held), i);
        break;
      }
    }
  }
  if (duplicates.empty()) return;
  std::sort(duplicates.begin(), duplicates.end());
  for (std::size_t a = 0; a < duplicates.size();) {
    std::size_t b = a;
    scratch.grouped.clear();
    scratch.grouped.push_back(widen(records[duplicates[a].first]));
    while (b < duplicates.size() && duplicates[b].first == duplicates[a].first)
      scratch.grouped.push_back(widen(records[duplicates[b++].second]));
    on_group(scratch.grouped);
    a = b;
  }
}

}  // namespace subscale
