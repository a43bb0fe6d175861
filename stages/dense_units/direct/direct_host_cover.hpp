#pragma once
// The host walk's covering test: may a subtree of the walk be passed over because none of its
// units would add a point to its subspace?
//
// Every unit U below a prefix (p_i and the points chosen so far, its mask M) has D(U) = {j} + B
// for a non-empty set B of M's live dimensions above j (a unit with a lower dimension is emitted
// elsewhere), and each point of U is close to every other in B: to p_i, which the candidates'
// columns say, and to the prefix's points, which the pair table says. So the subtree adds nothing
// when, for every such B, either fewer candidates than the unit still needs can join the prefix
// in B, or the subspace {j} + B already holds the prefix's points and every candidate that can.
// The map only grows, so what it holds stays held, and the subspaces come out the same; only the
// units passed over are not counted.
//
// The test looks at a subspace's points as a bitset over the window's candidates (a slot), made
// from the map's bitmap when the window first asks and kept up to date as units are ORed in, so
// that 64 candidates are checked at a time.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "stages/dense_units/direct/direct_entry_cache.hpp"
#include "stages/dense_units/direct/direct_subspace_map.hpp"

namespace subscale::dense_units::direct {

// Which of the current window's candidates (and whether p_i) each subspace holds.
class HostCoverage {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  HostCoverage(DirectSubspaceMap& map, std::uint32_t points) : map_(map), position_(points, kNone) {}

  // Starts over when the window (told by its dimension and p_i) or its candidates changed.
  void begin(std::uint32_t j, std::uint32_t first, const std::uint32_t* candidate_points, std::uint32_t candidates) {
    if (j == j_ && first == first_ && candidates == candidates_) return;
    for (std::uint32_t c = 0; c < candidates_; ++c) position_[candidate_points_[c]] = kNone;
    for (const std::uint32_t entry : used_entries_) slot_of_entry_[entry] = kNone;
    used_entries_.clear();
    j_ = j;
    first_ = first;
    candidates_ = candidates;
    words_ = (candidates + 63) / 64;
    candidate_points_.assign(candidate_points, candidate_points + candidates);
    for (std::uint32_t c = 0; c < candidates; ++c) position_[candidate_points[c]] = c;
    bits_.clear();
    first_in_.clear();
    made_.clear();
  }

  // The slot of map entry `entry`, its first `words` words made from the entry's bitmap if they
  // are not yet (a test often needs only the first word).
  std::uint32_t slot(std::uint32_t entry, std::uint32_t words) {
    if (entry >= slot_of_entry_.size())
      slot_of_entry_.resize(std::max<std::size_t>(entry + 1, 2 * slot_of_entry_.size()), kNone);
    std::uint32_t& s = slot_of_entry_[entry];
    const DirectPointSets& sets = map_.points();
    const std::uint64_t* points = sets.bitmap(entry);
    if (s == kNone) {
      s = static_cast<std::uint32_t>(first_in_.size());
      used_entries_.push_back(entry);
      first_in_.push_back(0);
      made_.push_back(0);
      bits_.resize(bits_.size() + words_, 0);
      if (points == nullptr) {  // a short list: each of its points placed among the candidates
        std::uint64_t* own = bits_.data() + std::size_t{s} * words_;
        sets.for_each(entry, [&](std::uint32_t p) {
          if (p == first_) first_in_[s] = 1;
          const std::uint32_t c = position_[p];
          if (c != kNone) own[c / 64] |= std::uint64_t{1} << (c % 64);
        });
        made_[s] = words_;
      } else {
        first_in_[s] = (points[first_ >> 6] >> (first_ & 63) & 1) != 0 ? 1 : 0;
      }
    }
    if (points == nullptr) return s;
    auto has = [&](std::uint32_t p) { return (points[p >> 6] >> (p & 63) & 1) != 0; };
    std::uint64_t* own = bits_.data() + std::size_t{s} * words_;
    words = std::min(words, words_);
    for (std::uint32_t w = made_[s]; w < words; ++w) {
      std::uint64_t word = 0;
      for (std::uint32_t c = w * 64; c < std::min(candidates_, w * 64 + 64); ++c)
        word |= static_cast<std::uint64_t>(has(candidate_points_[c])) << (c % 64);
      own[w] = word;
    }
    made_[s] = std::max(made_[s], words);
    return s;
  }

  // Point p was added to map entry `entry`.
  void added(std::uint32_t entry, std::uint32_t p) {
    if (entry >= slot_of_entry_.size() || slot_of_entry_[entry] == kNone) return;
    const std::uint32_t s = slot_of_entry_[entry];
    if (p == first_) {
      first_in_[s] = 1;
      return;
    }
    const std::uint32_t c = position_[p];
    if (c != kNone && c / 64 < made_[s]) bits_[std::size_t{s} * words_ + c / 64] |= std::uint64_t{1} << (c % 64);
  }

  const std::uint64_t* bits(std::uint32_t s) const { return bits_.data() + std::size_t{s} * words_; }
  bool holds_first(std::uint32_t s) const { return first_in_[s] != 0; }
  bool holds(std::uint32_t s, std::uint32_t c) const { return (bits(s)[c / 64] >> (c % 64) & 1) != 0; }

 private:
  DirectSubspaceMap& map_;
  std::uint32_t j_ = kNone, first_ = kNone, candidates_ = 0, words_ = 0;
  std::vector<std::uint32_t> candidate_points_;
  std::vector<std::uint32_t> position_;       // point -> its place among the candidates, or kNone
  std::vector<std::uint32_t> slot_of_entry_;  // map entry -> slot, or kNone
  std::vector<std::uint32_t> used_entries_;
  std::vector<std::uint64_t> bits_;  // slots x words_
  std::vector<std::uint8_t> first_in_;
  std::vector<std::uint32_t> made_;  // per slot: words made so far
};

// The covering test over a thread's map.
class HostCoverTest {
 public:
  HostCoverTest(DirectSubspaceMap& map, std::uint32_t points)
      : map_(map), coverage_(map, points), key_(map.key_words()), entry_cache_(map.key_words()) {}

  // Point p was added to map entry `entry`.
  void added(std::uint32_t entry, std::uint32_t p) { coverage_.added(entry, p); }

  // Is the subtree of the prefix of `level`, whose other elements lie among the candidates before
  // `bound`, covered? False, too, when the prefix has more than kMostDimensions live dimensions
  // above j (2^n subspaces to look at).
  template <class Walker, class Scratch>
  bool covers(const Walker& walker, Scratch& scratch, std::uint32_t level, std::uint32_t bound) {
    if (!take_dimensions(walker, scratch, level, bound)) return false;
    coverage_.begin(walker.j, scratch.point(0), scratch.candidate_points(), scratch.candidates());
    const std::uint32_t need = walker.k_() - level;  // points a unit needs besides the prefix's
    for (std::uint32_t b = 1; b < (1u << count_); ++b)
      if (!covered_in(walker, scratch, level, b, need)) return false;
    return true;
  }

  static constexpr std::uint32_t kMostDimensions = 4;

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  // The prefix's live dimensions above j, and each one's column of candidates before `bound`
  // (those close to p_i there).
  template <class Walker, class Scratch>
  bool take_dimensions(const Walker& walker, Scratch& scratch, std::uint32_t level, std::uint32_t bound) {
    count_ = 0;
    for (std::uint32_t w = 0; w < walker.words(); ++w)
      for (std::uint64_t bits = scratch.mask(level, w) & walker.words_above_j(w); bits != 0; bits &= bits - 1) {
        if (count_ == kMostDimensions) return false;
        dims_[count_++] = w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits));
      }
    words_ = (bound + 63) / 64;
    if (close_.size() < words_) {  // only grown: a resize is a call on every test
      columns_.resize(std::size_t{kMostDimensions} * words_);
      close_.resize(words_);
    }
    for (std::uint32_t d = 0; d < count_; ++d)
      for (std::uint32_t w = 0; w < words_; ++w) {
        const std::uint64_t in_bound =
            bound - w * 64 < 64 ? (std::uint64_t{1} << (bound - w * 64)) - 1 : ~std::uint64_t{0};
        columns_[d * words_ + w] = scratch.column(dims_[d])[w] & in_bound;
      }
    return true;
  }

  // Does subspace {j} + B (B: the dimensions whose bits `b` sets) lack nothing the subtree could add?
  template <class Walker, class Scratch>
  bool covered_in(const Walker& walker, Scratch& scratch, std::uint32_t level, std::uint32_t b, std::uint32_t need) {
    std::uint32_t close_count = 0;  // up to need
    for (std::uint32_t w = 0; w < words_; ++w) {
      std::uint64_t close = ~std::uint64_t{0};
      for (std::uint32_t d = 0; d < count_; ++d)
        if ((b >> d & 1) != 0) close &= columns_[d * words_ + w];
      close_[w] = close;
      for (; close != 0 && close_count < need; close &= close - 1) ++close_count;
    }
    if (close_count < need) return true;  // no unit below is dense in B
    if (held_all(walker, scratch, level, b)) return true;
    // Something may be missing: harmless only when too few candidates can join the prefix in B.
    std::uint32_t joining = 0;
    for (std::uint32_t w = 0; w < words_ && joining < need; ++w)
      for (std::uint64_t close = close_[w]; close != 0 && joining < need; close &= close - 1)
        joining += joins(walker, scratch, level, candidate(scratch, w, close), b) ? 1 : 0;
    return joining < need;
  }

  // Does {j} + B hold the prefix's points and each candidate of close_ that can join them?
  template <class Walker, class Scratch>
  bool held_all(const Walker& walker, Scratch& scratch, std::uint32_t level, std::uint32_t b) {
    for (std::uint32_t w = 0; w < walker.words(); ++w) key_[w] = 0;
    key_[walker.j_word] |= walker.j_bit;
    for (std::uint32_t d = 0; d < count_; ++d)
      if ((b >> d & 1) != 0) key_[dims_[d] / 64] |= std::uint64_t{1} << (dims_[d] % 64);
    // The map entry of the key, or kNone (a look-up adds nothing).
    const std::uint32_t entry =
        entry_cache_.entry<Walker::kFixedWords>(key_.data(), [&](const std::uint64_t* key) { return map_.find(key); });
    if (entry == kNone) return false;
    const std::uint32_t slot = coverage_.slot(entry, words_);
    if (!coverage_.holds_first(slot)) return false;
    for (std::uint32_t t = 1; t <= level; ++t)
      if (!coverage_.holds(slot, scratch.subset(walker.k_() - t))) return false;
    const std::uint64_t* held = coverage_.bits(slot);
    for (std::uint32_t w = 0; w < words_; ++w)
      for (std::uint64_t missing = close_[w] & ~held[w]; missing != 0; missing &= missing - 1)
        if (joins(walker, scratch, level, candidate(scratch, w, missing), b)) return false;
    return true;
  }

  // Is point p close to each prefix point after p_i in every dimension of B? Without a pair table
  // every candidate is taken to join (the test is then only weaker).
  template <class Walker, class Scratch>
  bool joins(const Walker& walker, Scratch& scratch, std::uint32_t level, std::uint32_t p, std::uint32_t b) const {
    if (walker.space.pair_table == nullptr) return true;
    const std::uint32_t words = walker.words();
    for (std::uint32_t t = 1; t <= level; ++t) {
      const auto row = walker.pair_row(scratch.point(t));
      for (std::uint32_t d = 0; d < count_; ++d)
        if ((b >> d & 1) != 0 && (row[std::uint64_t{p} * words + dims_[d] / 64] >> (dims_[d] % 64) & 1) == 0)
          return false;
    }
    return true;
  }

  template <class Scratch>
  static std::uint32_t candidate(Scratch& scratch, std::uint32_t w, std::uint64_t bits) {
    return scratch.candidate_point(w * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits)));
  }

  DirectSubspaceMap& map_;
  HostCoverage coverage_;
  std::uint32_t dims_[kMostDimensions] = {};
  std::uint32_t count_ = 0, words_ = 0;
  std::vector<std::uint64_t> columns_;  // kMostDimensions x words_
  std::vector<std::uint64_t> close_;    // words_: the candidates close to p_i in B
  std::vector<std::uint64_t> key_;
  DirectEntryCache entry_cache_;
};

}  // namespace subscale::dense_units::direct
