#include "stages/dense_units/direct/direct_subspace_map.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <bit>
#include <numeric>

#include "common/bit_sets.hpp"
#include "common/error.hpp"
#include "common/page_population.hpp"
#include "gpu/hash/hash_functions.hpp"

namespace subscale::dense_units::direct {

DirectSubspaceMap::DirectSubspaceMap(std::uint32_t key_words, std::uint32_t point_words)
    : key_words_(key_words), point_words_(point_words), hashes_(64, 0), slots_(64, 0), points_(point_words) {}

std::uint64_t DirectSubspaceMap::hash(const std::uint64_t* key) const {
  std::uint64_t h = 0x243f6a8885a308d3ULL;
  for (std::uint32_t w = 0; w < key_words_; ++w) h = hash::fmix64(h ^ key[w]) + w;
  return h | 1;
}

void DirectSubspaceMap::place(std::uint64_t h, std::uint32_t entry) {
  const std::size_t mask = hashes_.size() - 1;
  std::size_t t = (h >> 1) & mask;
  while (hashes_[t] != 0) t = (t + 1) & mask;
  hashes_[t] = h;
  slots_[t] = entry;
}

void DirectSubspaceMap::grow() {
  std::vector<std::uint64_t> hashes(hashes_.size() * 2, 0);
  std::vector<std::uint32_t> slots(hashes_.size() * 2, 0);
  hashes.swap(hashes_);
  slots.swap(slots_);
  for (std::size_t s = 0; s < hashes.size(); ++s)
    if (hashes[s] != 0) place(hashes[s], slots[s]);
}

namespace {

// An index at most half full for `entries` entries.
std::size_t index_slots(std::uint64_t entries) { return std::bit_ceil(std::max<std::uint64_t>(64, entries * 2 + 2)); }

}  // namespace

void DirectSubspaceMap::build_index(std::size_t slots) {
  hashes_.assign(slots, 0);
  slots_.assign(slots, 0);
  for (std::uint32_t e = 0; e < entries_; ++e) place(hash(key(e)), e);
  indexed_ = true;
}

void DirectSubspaceMap::reserve(std::uint64_t entries) {
  keys_.reserve(entries * key_words_);
  points_.reserve(entries);
  if (indexed_ && index_slots(entries) > hashes_.size()) build_index(index_slots(entries));
}

void DirectSubspaceMap::add_distinct(std::vector<std::uint64_t>&& keys, std::vector<std::uint64_t>&& bitmaps) {
  const std::size_t count = keys.size() / key_words_;
  if (entries_ > 0) {
    for (std::size_t e = 0; e < count; ++e) add(keys.data() + e * key_words_, bitmaps.data() + e * point_words_);
    return;
  }
  if (count >= ~std::uint32_t{0} - 1) throw ResourceError("direct mode: more than 2^32 - 2 subspaces in one table");
  keys_ = std::move(keys);
  points_.adopt_bitmaps(std::move(bitmaps), static_cast<std::uint32_t>(count));
  entries_ = static_cast<std::uint32_t>(count);
  indexed_ = false;
}

std::size_t DirectSubspaceMap::probe(const std::uint64_t* key, std::uint64_t h) {
  if (!indexed_) build_index(index_slots(entries_));
  const std::size_t mask = hashes_.size() - 1;
  std::size_t s = (h >> 1) & mask;
  for (; hashes_[s] != 0; s = (s + 1) & mask)
    if (hashes_[s] == h && std::equal(key, key + key_words_, this->key(slots_[s]))) break;
  return s;
}

std::uint32_t DirectSubspaceMap::find_or_add(const std::uint64_t* key) {
  const std::uint64_t h = hash(key);
  const std::size_t s = probe(key, h);
  if (hashes_[s] != 0) return slots_[s];
  if (entries_ == ~std::uint32_t{0} - 1) throw ResourceError("direct mode: more than 2^32 - 2 subspaces in one table");
  hashes_[s] = h;
  slots_[s] = entries_;
  keys_.insert(keys_.end(), key, key + key_words_);
  points_.add_empty();
  if (2 * std::size_t{++entries_} > hashes_.size()) grow();
  return entries_ - 1;
}

std::uint32_t DirectSubspaceMap::find(const std::uint64_t* key) {
  const std::size_t s = probe(key, hash(key));
  return hashes_[s] != 0 ? slots_[s] : kAbsent;
}

void DirectSubspaceMap::add(const std::uint64_t* key, const std::uint64_t* bitmap) {
  points_.insert_bitmap(find_or_add(key), bitmap);
}

void DirectSubspaceMap::merge(const DirectSubspaceMap& other) {
  for (std::uint32_t e = 0; e < other.size(); ++e) points_.insert_all(find_or_add(other.key(e)), other.points_, e);
}

void DirectSubspaceMap::merge(DirectSubspaceMap&& other) {
  if (entries_ > 0 || key_words_ != other.key_words_ || point_words_ != other.point_words_) {
    merge(other);
  } else {
    std::swap(*this, other);
  }
  other = DirectSubspaceMap(key_words_, point_words_);
}

std::vector<SubspaceCluster> DirectSubspaceMap::to_subspaces() const {
  // The subspaces stage's order, decided on the masks.
  std::vector<std::uint32_t> sizes(entries_), order(entries_);
  tbb::parallel_for(std::uint32_t{0}, entries_, [&](std::uint32_t e) { sizes[e] = count_bits(key(e), key_words_); });
  std::iota(order.begin(), order.end(), 0u);
  tbb::parallel_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (sizes[a] != sizes[b]) return sizes[a] > sizes[b];
    return mask_before_same_size(key(a), key(b), key_words_);
  });
  std::vector<SubspaceCluster> subspaces;
  resize_populated(subspaces, entries_);
  tbb::parallel_for(std::uint32_t{0}, entries_, [&](std::uint32_t i) {
    bits_to_ids(key(order[i]), key_words_, subspaces[i].dimensions);
    std::vector<std::uint32_t>& ids = subspaces[i].points;
    ids.reserve(points_.count(order[i]));
    points_.for_each_ascending(order[i], [&](std::uint32_t p) { ids.push_back(p); });
  });
  return subspaces;
}

void resize_for_fill(std::vector<SubspaceCluster>& subspaces, std::size_t count) { resize_populated(subspaces, count); }

void fill_subspaces(const SubspaceListChunk& chunk, std::vector<SubspaceCluster>& subspaces) {
  const std::uint64_t dims_base = chunk.dimension_offsets[0], points_base = chunk.point_offsets[0];
  tbb::parallel_for(chunk.first, chunk.last, [&](std::size_t i) {
    const std::size_t at = i - chunk.first;
    subspaces[i].dimensions.assign(chunk.dimension_ids + (chunk.dimension_offsets[at] - dims_base),
                                   chunk.dimension_ids + (chunk.dimension_offsets[at + 1] - dims_base));
    subspaces[i].points.assign(chunk.point_ids + (chunk.point_offsets[at] - points_base),
                               chunk.point_ids + (chunk.point_offsets[at + 1] - points_base));
  });
}

}  // namespace subscale::dense_units::direct
