#pragma once
// Direct mode's host-side subspace table: a dimension set (a bit mask of `key_words` words) maps to
// the points of that subspace (a set of ids below 64 point_words, direct_point_sets.hpp). Units'
// points are added to their subspace's set, so adding the same unit twice changes nothing, and
// tables of several threads (or a device's spills) merge by uniting their sets. Keys live in one
// flat array, not one allocation per subspace.
#include <cstdint>
#include <optional>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "stages/dense_units/direct/direct_point_sets.hpp"

namespace subscale::dense_units::direct {

class DirectSubspaceMap {
 public:
  DirectSubspaceMap(std::uint32_t key_words, std::uint32_t point_words);

  // The entry of `key`, added (with no points) when new. Entry numbers stay valid as the map grows.
  std::uint32_t find_or_add(const std::uint64_t* key);
  // The entry of `key`, or kAbsent.
  static constexpr std::uint32_t kAbsent = ~std::uint32_t{0};
  std::uint32_t find(const std::uint64_t* key);
  const std::uint64_t* key(std::uint32_t entry) const { return keys_.data() + std::size_t{entry} * key_words_; }
  const DirectPointSets& points() const noexcept { return points_; }
  // Adds `point` to the entry's points; true when it was not yet in.
  bool add_point(std::uint32_t entry, std::uint32_t point) { return points_.insert(entry, point); }

  // Adds the points of `bitmap` to those of `key`.
  void add(const std::uint64_t* key, const std::uint64_t* bitmap);
  void merge(const DirectSubspaceMap& other);
  // As merge(other), taking other's arrays over when this map is empty; other is left empty.
  void merge(DirectSubspaceMap&& other);
  // Room for `entries` entries in all, so that adding up to that many moves nothing.
  void reserve(std::uint64_t entries);
  // Adds entries given as flat key and bitmap arrays whose keys are distinct from each other (a
  // device table's contents). An empty map takes the arrays over and indexes them only when next
  // looked up, so a table that never spilled reaches to_subspaces() without a hash per entry.
  void add_distinct(std::vector<std::uint64_t>&& keys, std::vector<std::uint64_t>&& bitmaps);

  std::uint32_t size() const noexcept { return entries_; }
  std::uint32_t key_words() const noexcept { return key_words_; }
  std::uint32_t point_words() const noexcept { return point_words_; }
  // The most a map of many entries takes per entry: its key, its points as a bitmap, and the
  // index's slots (a 64-bit hash and a 32-bit entry each), of which there are at least two per entry.
  static std::uint64_t bytes_per_entry(std::uint32_t key_words, std::uint32_t point_words) noexcept {
    return std::uint64_t{key_words} * 8 + DirectPointSets::bytes_per_set_at_most(point_words) + 2 * (8 + 4);
  }
  std::uint64_t bytes() const noexcept {
    return (keys_.capacity() + hashes_.capacity()) * 8 + slots_.capacity() * 4 + points_.bytes();
  }

  // Every subspace with its points, sorted by |S| descending, then S (the subspaces stage's order).
  std::vector<SubspaceCluster> to_subspaces() const;

 private:
  std::uint64_t hash(const std::uint64_t* key) const;
  void grow();
  void place(std::uint64_t hash, std::uint32_t entry);  // into an empty slot
  // The slot holding `key` (hash h), or the empty slot where it would go.
  std::size_t probe(const std::uint64_t* key, std::uint64_t h);
  void build_index(std::size_t slots);

  std::uint32_t key_words_, point_words_;
  std::uint32_t entries_ = 0;
  bool indexed_ = true;                // hashes_ and slots_ cover every entry
  std::vector<std::uint64_t> hashes_;  // per slot: the key's hash | 1, or 0 when empty
  std::vector<std::uint32_t> slots_;   // per slot: its entry
  std::vector<std::uint64_t> keys_;
  DirectPointSets points_;
};

// Subspaces [first, last) as id lists (compressed sparse rows) that hold only this chunk: subspace
// i's dimensions are dimension_ids[dimension_offsets[i - first] - dimension_offsets[0] ..] up to
// the next offset (offsets count from the start of all subspaces' ids), its points likewise.
struct SubspaceListChunk {
  std::size_t first = 0, last = 0;
  const std::uint64_t* dimension_offsets = nullptr;  // last - first + 1 of them
  const std::uint32_t* dimension_ids = nullptr;
  const std::uint64_t* point_offsets = nullptr;
  const std::uint32_t* point_ids = nullptr;
};

// An empty vector resized to `count` empty subspaces for fill_subspaces, its pages populated by
// all threads first (a single thread faulting them in took 0.7-1.0 s for 29.5 M subspaces).
void resize_for_fill(std::vector<SubspaceCluster>& subspaces, std::size_t count);

// Makes subspaces[first .. last) from a chunk, in parallel.
void fill_subspaces(const SubspaceListChunk& chunk, std::vector<SubspaceCluster>& subspaces);

// What a direct walk hands to the subspaces stage: the host map, or, when a device table held
// every subspace, the finished list that the device ordered and converted itself.
struct DirectWalkOutput {
  DirectSubspaceMap map;
  std::optional<std::vector<SubspaceCluster>> listed;
  bool list_on_device = true;  // false: the map always gets the subspaces (a cluster run combines maps)

  std::vector<SubspaceCluster> to_subspaces() && { return listed ? std::move(*listed) : map.to_subspaces(); }
};

}  // namespace subscale::dense_units::direct
