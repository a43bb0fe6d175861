#include "stages/dense_units/direct/direct_point_sets.hpp"

#include <tbb/parallel_for.h>

#include <stdexcept>

#include "common/bit_sets.hpp"
#include "common/error.hpp"

namespace subscale::dense_units::direct {

DirectPointSets::DirectPointSets(std::uint32_t point_words) : point_words_(point_words) {
  // A list of c ids takes 4 c bytes, a bitmap 8 point_words: lists only where they are smaller.
  first_class_ = kBitmap;
  last_class_ = 0;
  for (std::uint8_t c = 0; c < kListSizes; ++c)
    if (std::uint64_t{capacity(c)} * 4 < std::uint64_t{point_words} * 8) {
      if (first_class_ == kBitmap) first_class_ = c;
      last_class_ = c;
    }
}

std::uint32_t DirectPointSets::take_block(std::uint8_t size_class) {
  std::vector<std::uint32_t>& freed = free_[size_class];
  if (!freed.empty()) {
    const std::uint32_t at = freed.back();
    freed.pop_back();
    return at;
  }
  std::vector<std::uint32_t>& pool = pools_[size_class];
  if (pool.size() + capacity(size_class) > ~std::uint32_t{0})
    throw ResourceError("direct mode: more than 2^32 point ids in the lists of one subspace table");
  const auto at = static_cast<std::uint32_t>(pool.size());
  pool.resize(pool.size() + capacity(size_class));
  return at;
}

std::uint32_t DirectPointSets::add_empty() {
  if (count_.size() >= ~std::uint32_t{0} - 1)
    throw ResourceError("direct mode: more than 2^32 - 2 subspaces in one table");
  const auto set = static_cast<std::uint32_t>(count_.size());
  count_.push_back(0);
  class_.push_back(first_class_);
  if (first_class_ == kBitmap) {
    place_.push_back(static_cast<std::uint32_t>(dense_.size() / std::max<std::uint32_t>(point_words_, 1)));
    dense_.resize(dense_.size() + point_words_, 0);
  } else {
    place_.push_back(take_block(first_class_));
  }
  return set;
}

void DirectPointSets::adopt_bitmaps(std::vector<std::uint64_t>&& bitmaps, std::uint32_t count) {
  if (!count_.empty()) throw std::logic_error("DirectPointSets::adopt_bitmaps on sets that are not empty");
  dense_ = std::move(bitmaps);
  count_.resize(count);
  place_.resize(count);
  class_.assign(count, kBitmap);
  // A device table of tens of millions of subspaces comes here: counted on every thread.
  tbb::parallel_for(std::uint32_t{0}, count, [&](std::uint32_t s) {
    place_[s] = s;
    count_[s] = count_bits(dense_.data() + std::size_t{s} * point_words_, point_words_);
  });
}

void DirectPointSets::reserve(std::uint64_t sets) {
  count_.reserve(sets);
  place_.reserve(sets);
  class_.reserve(sets);
}

bool DirectPointSets::contains(std::uint32_t set, std::uint32_t point) const {
  if (const std::uint64_t* bits = bitmap(set)) return (bits[point >> 6] >> (point & 63) & 1) != 0;
  const std::uint32_t* ids = list(set);
  return std::find(ids, ids + count_[set], point) != ids + count_[set];
}

void DirectPointSets::make_bitmap(std::uint32_t set) {
  const std::size_t at = dense_.size();
  dense_.resize(at + point_words_, 0);
  std::uint64_t* bits = dense_.data() + at;
  const std::uint32_t* ids = list(set);
  for (std::uint32_t i = 0; i < count_[set]; ++i) bits[ids[i] >> 6] |= std::uint64_t{1} << (ids[i] & 63);
  free_[class_[set]].push_back(place_[set]);
  class_[set] = kBitmap;
  place_[set] = static_cast<std::uint32_t>(at / point_words_);
}

void DirectPointSets::grow(std::uint32_t set) {
  const std::uint8_t from = class_[set];
  if (from == last_class_) {
    make_bitmap(set);
    return;
  }
  const std::uint32_t at = take_block(static_cast<std::uint8_t>(from + 1));
  std::vector<std::uint32_t>& old_pool = pools_[from];
  std::copy_n(old_pool.begin() + place_[set], count_[set], pools_[from + 1].begin() + at);
  free_[from].push_back(place_[set]);
  class_[set] = static_cast<std::uint8_t>(from + 1);
  place_[set] = at;
}

bool DirectPointSets::insert(std::uint32_t set, std::uint32_t point) {
  if (class_[set] == kBitmap) {
    std::uint64_t& word = dense_[std::size_t{place_[set]} * point_words_ + (point >> 6)];
    const std::uint64_t bit = std::uint64_t{1} << (point & 63);
    if ((word & bit) != 0) return false;
    word |= bit;
    ++count_[set];
    return true;
  }
  if (contains(set, point)) return false;
  if (count_[set] == capacity(class_[set])) {
    grow(set);
    if (class_[set] == kBitmap) return insert(set, point);
  }
  list(set)[count_[set]++] = point;
  return true;
}

void DirectPointSets::insert_bitmap(std::uint32_t set, const std::uint64_t* bitmap) {
  if (class_[set] != kBitmap && std::uint64_t{count_[set]} + count_bits(bitmap, point_words_) > capacity(last_class_))
    make_bitmap(set);
  if (class_[set] == kBitmap) {
    std::uint64_t* into = dense_.data() + std::size_t{place_[set]} * point_words_;
    for (std::uint32_t w = 0; w < point_words_; ++w) into[w] |= bitmap[w];
    count_[set] = count_bits(into, point_words_);
    return;
  }
  for_each_bit(bitmap, [&](std::uint32_t p) { insert(set, p); });
}

void DirectPointSets::insert_all(std::uint32_t set, const DirectPointSets& other, std::uint32_t other_set) {
  if (const std::uint64_t* bits = other.bitmap(other_set)) {
    insert_bitmap(set, bits);
    return;
  }
  other.for_each(other_set, [&](std::uint32_t p) { insert(set, p); });
}

void DirectPointSets::or_into(std::uint32_t set, std::uint64_t* bitmap) const {
  for_each(set, [&](std::uint32_t p) { bitmap[p >> 6] |= std::uint64_t{1} << (p & 63); });
}

std::uint64_t DirectPointSets::bytes() const noexcept {
  std::uint64_t total = (count_.capacity() + place_.capacity()) * 4 + class_.capacity() + dense_.capacity() * 8;
  for (std::uint32_t c = 0; c < kListSizes; ++c) total += (pools_[c].capacity() + free_[c].capacity()) * 4;
  return total;
}

}  // namespace subscale::dense_units::direct
