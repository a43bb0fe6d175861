#pragma once
// Host pieces of direct mode's walk: a walker's scratch in plain arrays, and an emitter that ORs
// units into a DirectSubspaceMap, skipping the look-up when a unit's subspace is the previous
// one's and the prefix's points when they are already in. The emitter also answers the walk's
// covering test (direct_host_cover.hpp) when asked to.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "stages/dense_units/direct/direct_entry_cache.hpp"
#include "stages/dense_units/direct/direct_host_cover.hpp"
#include "stages/dense_units/direct/direct_subspace_map.hpp"
#include "stages/dense_units/direct/direct_walker.hpp"

namespace subscale::dense_units::direct {

// T: the held precision; the prefixes' value ranges (lows, highs) are kept in it.
template <class T>
class HostWalkScratch {
 public:
  static constexpr bool kKeepsBounds = true;
  HostWalkScratch(std::uint32_t k, std::uint32_t words)
      : words_(words),
        masks_((k + 1) * std::size_t{words}),
        lows_((k + 1) * std::size_t{words} * 64),
        highs_(lows_.size()) {}
  std::uint64_t& mask(std::uint32_t level, std::uint32_t word) { return masks_[level * words_ + word]; }
  std::uint32_t& subset(std::uint32_t t) { return subsets_[t]; }
  std::uint32_t& point(std::uint32_t t) { return points_[t]; }
  // The value range of the points of `level` (p_i and point(1 .. level)) in each dimension.
  T* lows(std::uint32_t level) { return lows_.data() + std::size_t{level} * words_ * 64; }
  T* highs(std::uint32_t level) { return highs_.data() + std::size_t{level} * words_ * 64; }
  std::uint32_t lane() const { return 0; }
  std::uint32_t lanes() const { return 1; }
  std::uint64_t or_across_lanes(std::uint64_t word) const { return word; }

  // One window's candidates (its following points that can be in a unit emitted there) with their
  // pair masks: how many following points are looked at (0 for another window), room for `count`,
  // and a note of how many are looked at and kept.
  bool keeps_pairs(std::uint32_t) const { return true; }
  std::uint32_t pairs_filled(std::uint64_t window) const { return window == pair_window_ ? pairs_filled_ : 0; }
  void reserve_pairs(std::uint32_t count) {
    if (pair_rows_.size() < std::size_t{count} * words_) pair_rows_.resize(std::size_t{count} * words_);
    if (candidate_points_.size() < count) {
      candidate_points_.resize(count);
      candidate_origins_.resize(count);
    }
    const std::uint32_t column_words = (count + 63) / 64;
    if (column_words > column_words_) {  // wider columns, the bits set so far kept
      std::vector<std::uint64_t> wider(std::size_t{words_} * 64 * column_words, 0);
      for (std::size_t dim = 0; dim < std::size_t{words_} * 64; ++dim)
        std::copy_n(columns_.begin() + dim * column_words_, column_words_, wider.begin() + dim * column_words);
      columns_.swap(wider);
      column_words_ = column_words;
    }
  }
  // Per dimension, the window's candidates close to p_i there as a bitset: the pair masks turned on
  // their side, which lets the leaves of a prefix be passed over 64 at a time.
  const std::uint64_t* column(std::uint32_t dim) const { return columns_.data() + std::size_t{dim} * column_words_; }
  void add_to_columns(std::uint32_t c) { flip_columns(c); }
  // Clears the bits of the candidates kept so far (their pair masks say which).
  void forget_columns() {
    if (pair_window_ == kNoWindow) return;
    for (std::uint32_t c = 0; c < candidates_; ++c) flip_columns(c);
  }
  std::uint64_t& pair(std::uint32_t e, std::uint32_t word) { return pair_rows_[std::size_t{e} * words_ + word]; }
  void set_pairs_filled(std::uint64_t window, std::uint32_t count, std::uint32_t kept) {
    pair_window_ = window;
    pairs_filled_ = count;
    candidates_ = kept;
  }
  std::uint32_t candidates() const { return candidates_; }
  std::uint32_t& candidate_point(std::uint32_t c) { return candidate_points_[c]; }
  const std::uint32_t* candidate_points() const { return candidate_points_.data(); }
  std::uint32_t& candidate_origin(std::uint32_t c) { return candidate_origins_[c]; }

 private:
  // Toggles candidate c's bit in the column of every dimension of its pair mask.
  void flip_columns(std::uint32_t c) {
    for (std::uint32_t w = 0; w < words_; ++w)
      for (std::uint64_t bits = pair(c, w); bits != 0; bits &= bits - 1) {
        const std::size_t dim = std::size_t{w} * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits));
        columns_[dim * column_words_ + c / 64] ^= std::uint64_t{1} << (c % 64);
      }
  }

  std::uint32_t words_;
  std::vector<std::uint64_t> masks_;
  std::vector<T> lows_, highs_;
  std::vector<std::uint64_t> pair_rows_;
  static constexpr std::uint64_t kNoWindow = ~std::uint64_t{0};
  std::uint64_t pair_window_ = kNoWindow;
  std::uint32_t pairs_filled_ = 0;
  std::uint32_t candidates_ = 0;
  std::vector<std::uint64_t> columns_;  // (words * 64) x column_words_
  std::uint32_t column_words_ = 0;
  std::vector<std::uint32_t> candidate_points_, candidate_origins_;
  std::uint32_t subsets_[64] = {};
  std::uint32_t points_[65] = {};
};

class HostSubspaceEmitter {
 public:
  // `points`: the data's points (the covering test keeps an index over them).
  HostSubspaceEmitter(DirectSubspaceMap& map, std::uint32_t points)
      : map_(map),
        key_(map.key_words()),
        last_key_(map.key_words()),
        entry_cache_(map.key_words()),
        cover_test_(map, points) {}

  template <class Walker, class Scratch>
  void emit(const Walker& walker, Scratch& scratch, std::uint32_t k) {
    constexpr std::uint32_t kWords = Walker::kFixedWords;
    const std::uint32_t words = walker.words();  // a constant where the walker fixes it
    std::uint64_t* key = key_.data();
    // Each word written once: ORing j's bit into the stored key and reading it back stalled.
    for (std::uint32_t w = 0; w < words; ++w) key[w] = scratch.mask(k, w) | (w == walker.j_word ? walker.j_bit : 0);
    bool same = last_entry_ != kNone;
    for (std::uint32_t w = 0; w < words && same; ++w) same = key[w] == last_key_[w];
    std::uint32_t entry = last_entry_;
    if (!same) {
      entry = entry_cache_.entry<kWords>(key, [&](const std::uint64_t* key) { return map_.find_or_add(key); });
      std::copy_n(key, words, last_key_.data());
    }
    const bool prefix_in = entry == last_entry_ && walker.prefix_epoch == last_epoch_;
    for (std::uint32_t t = prefix_in ? k : 0; t <= k; ++t) {
      const std::uint32_t p = scratch.point(t);
      if (!map_.add_point(entry, p)) continue;
      ++additions_;
      cover_test_.added(entry, p);
    }
    last_entry_ = entry;
    last_epoch_ = walker.prefix_epoch;
  }

  // The walk's covering test (direct_host_cover.hpp), and the points added to the map so far.
  template <class Walker, class Scratch>
  bool covers(const Walker& walker, Scratch& scratch, std::uint32_t level, std::uint32_t bound) {
    return cover_test_.covers(walker, scratch, level, bound);
  }
  std::uint64_t additions() const { return additions_; }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  DirectSubspaceMap& map_;
  std::vector<std::uint64_t> key_, last_key_;
  // A cache in front of the map (S1500 at 0.005 on 2 threads: 0.130 -> 0.127 s).
  DirectEntryCache entry_cache_;
  std::uint32_t last_entry_ = kNone;
  std::uint64_t last_epoch_ = 0;
  std::uint64_t additions_ = 0;
  HostCoverTest cover_test_;
};

// What the walk is handed when covered subtrees may be passed over: the emitter's emit() and its
// covering test, for one walker and scratch.
template <class Walker, class Scratch>
struct CoveringEmit {
  HostSubspaceEmitter& emitter;
  Walker& walker;
  Scratch& scratch;
  void operator()() { emitter.emit(walker, scratch, walker.k_()); }
  bool covers(std::uint32_t level, std::uint32_t bound) { return emitter.covers(walker, scratch, level, bound); }
  std::uint64_t additions() const { return emitter.additions(); }
};

}  // namespace subscale::dense_units::direct
