#include "stages/dense_units/direct_subspace_map.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <numeric>

#include "common/error.hpp"
#include "gpu/hash/hash_functions.hpp"

namespace subscale::direct {

DirectSubspaceMap::DirectSubspaceMap(std::uint32_t key_words, std::uint32_t point_words)
    : key_words_(key_words), point_words_(point_words), hashes_(64, 0), slots_(64, 0) {}

std::uint64_t DirectSubspaceMap::hash(const std::uint64_t* key) const {
  std::uint64_t h = 0x243f6a8885a308d3ULL;
  for (std::uint32_t w = 0; w < key_words_; ++w) h = hash::fmix64(h ^ key[w]) + w;
  return h | 1;
}

void DirectSubspaceMap::grow() {
  const std::size_t capacity = hashes_.size() * 2;
  std::vector<std::uint64_t> hashes(capacity, 0);
  std::vector<std::uint32_t> slots(capacity, 0);
  for (std::size_t s = 0; s < hashes_.size(); ++s) {
    if (hashes_[s] == 0) continue;
    std::size_t t = (hashes_[s] >> 1) & (capacity - 1);
    while (hashes[t] != 0) t = (t + 1) & (capacity - 1);
    hashes[t] = hashes_[s];
    slots[t] = slots_[s];
  }
  hashes_.swap(hashes);
  slots_.swap(slots);
}

std::uint32_t DirectSubspaceMap::find_or_add(const std::uint64_t* key) {
  const std::uint64_t h = hash(key);
  const std::size_t mask = hashes_.size() - 1;
  std::size_t s = (h >> 1) & mask;
  for (; hashes_[s] != 0; s = (s + 1) & mask)
    if (hashes_[s] == h && std::equal(key, key + key_words_, this->key(slots_[s]))) return slots_[s];
  if (entries_ == ~std::uint32_t{0} - 1) throw ResourceError("direct mode: more than 2^32 - 2 subspaces in one table");
  hashes_[s] = h;
  slots_[s] = entries_;
  keys_.insert(keys_.end(), key, key + key_words_);
  bitmaps_.resize(bitmaps_.size() + point_words_, 0);
  if (2 * std::size_t{++entries_} > hashes_.size()) grow();
  return entries_ - 1;
}

void DirectSubspaceMap::add(const std::uint64_t* key, const std::uint64_t* bitmap) {
  std::uint64_t* into = points(find_or_add(key));
  for (std::uint32_t w = 0; w < point_words_; ++w) into[w] |= bitmap[w];
}

void DirectSubspaceMap::merge(const DirectSubspaceMap& other) {
  for (std::uint32_t e = 0; e < other.size(); ++e) add(other.key(e), other.points(e));
}

std::vector<SubspaceCluster> DirectSubspaceMap::to_subspaces() const {
  std::vector<SubspaceCluster> subspaces(entries_);
  tbb::parallel_for(std::uint32_t{0}, entries_, [&](std::uint32_t e) {
    auto bits_to_ids = [](const std::uint64_t* words, std::uint32_t count, std::vector<std::uint32_t>& ids) {
      std::size_t total = 0;
      for (std::uint32_t w = 0; w < count; ++w) total += static_cast<std::size_t>(std::popcount(words[w]));
      ids.reserve(total);
      for (std::uint32_t w = 0; w < count; ++w)
        for (std::uint64_t word = words[w]; word != 0; word &= word - 1)
          ids.push_back(w * 64 + static_cast<std::uint32_t>(std::countr_zero(word)));
    };
    bits_to_ids(key(e), key_words_, subspaces[e].dimensions);
    bits_to_ids(points(e), point_words_, subspaces[e].points);
  });
  std::sort(subspaces.begin(), subspaces.end(), [](const SubspaceCluster& a, const SubspaceCluster& b) {
    if (a.dimensions.size() != b.dimensions.size()) return a.dimensions.size() > b.dimensions.size();
    return a.dimensions < b.dimensions;
  });
  return subspaces;
}

}  // namespace subscale::direct
