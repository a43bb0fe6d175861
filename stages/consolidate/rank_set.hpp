#pragma once
// A set of ranks 0 .. universe-1 (a cluster's points in one dimension, each by its rank in that
// dimension's sorted order; ColumnSorter gives the ranks and the value of each): the consolidate
// stage's sorted columns. The order statistics the span test needs are the k-th smallest rank,
// and joining clusters adds and removes a few points, so the set is kept in one of two forms:
//   - dense: a bitmap of universe bits; adding or removing a point is one bit, the k-th rank a
//     scan of universe / 64 words;
//   - sparse: the ranks as a sorted list, while the set holds fewer than universe / 64 ranks, so
//     that the sets never take more memory than sorted columns of values (8 bytes a point) would,
//     however many small clusters there are over however many points (10^5 clusters of a few
//     dozen points each over 10^5 points would take 10^5 x 12.5 kB a dimension as bitmaps).
// The form changes with the size and never shows in the results: both hold the same set.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace subscale::consolidate {

class RankSet {
 public:
  RankSet() = default;
  // The set of `ranks` (distinct, any order) out of 0 .. universe-1.
  RankSet(std::size_t universe, std::span<const std::uint32_t> ranks);

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  bool dense() const noexcept { return dense_; }

  // Adds ranks not in the set / removes ranks in it (distinct, any order; the vector is reordered).
  void insert(std::vector<std::uint32_t>& ranks);
  void erase(std::vector<std::uint32_t>& ranks);

  // The i-th and j-th smallest ranks (0-based, i <= j < size()).
  std::pair<std::uint32_t, std::uint32_t> select(std::size_t i, std::size_t j) const;
  // The same of the set together with `extra` (ranks not in the set, any order; reordered),
  // without building the union: a join asks this of a cluster and the few points the other side
  // adds. `scratch` is a bitmap of the universe, all zero, and is left so.
  std::pair<std::uint32_t, std::uint32_t> select(std::size_t i, std::size_t j, std::vector<std::uint32_t>& extra,
                                                 std::vector<std::uint64_t>& scratch) const;
  std::uint32_t front() const;  // the smallest; the set is not empty
  std::uint32_t back() const;   // the largest; the set is not empty

  // Calls visit(rank) on the ranks in ascending (scan_up) or descending (scan_down) order until
  // it returns false: the few ranks at either end, without reading the rest.
  template <class Visit>
  void scan_up(Visit&& visit) const {
    if (!dense_) {
      for (std::uint32_t r : sparse_)
        if (!visit(r)) return;
      return;
    }
    for (std::size_t w = first_word_; w <= last_word_ && w < words_.size(); ++w)
      for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1)
        if (!visit(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))))) return;
  }
  template <class Visit>
  void scan_down(Visit&& visit) const {
    if (!dense_) {
      for (auto r = sparse_.rbegin(); r != sparse_.rend(); ++r)
        if (!visit(*r)) return;
      return;
    }
    for (std::size_t w = std::min(last_word_ + 1, words_.size()); w-- > first_word_;)
      for (std::uint64_t bits = words_[w]; bits != 0;) {
        const auto top = static_cast<std::size_t>(63 - std::countl_zero(bits));
        if (!visit(static_cast<std::uint32_t>(w * 64 + top))) return;
        bits &= ~(std::uint64_t{1} << top);
      }
  }

  // All ranks, ascending (for tests and checks).
  std::vector<std::uint32_t> ranks() const;

 private:
  void make_dense();
  void make_sparse();
  bool wants_dense() const noexcept { return size_ * 64 >= universe_; }
  std::pair<std::uint32_t, std::uint32_t> select_sparse(std::size_t i, std::size_t j,
                                                        std::span<const std::uint32_t> extra) const;
  // Scans words first_word .. last_word only: no bit of the set or of extra_bits lies outside.
  std::pair<std::uint32_t, std::uint32_t> select_dense(std::size_t i, std::size_t j, const std::uint64_t* extra_bits,
                                                       std::size_t total_size, std::size_t first_word,
                                                       std::size_t last_word) const;
  void set_bit(std::uint32_t r) {
    words_[r >> 6] |= std::uint64_t{1} << (r & 63);
    first_word_ = std::min<std::size_t>(first_word_, r >> 6);
    last_word_ = std::max<std::size_t>(last_word_, r >> 6);
  }

  std::size_t universe_ = 0;
  std::size_t size_ = 0;
  bool dense_ = false;
  std::vector<std::uint32_t> sparse_;  // sorted, while !dense_
  std::vector<std::uint64_t> words_;   // universe_ bits, while dense_
  // While dense_: no bit is set below word first_word_ or above last_word_. A cluster's ranks in
  // a dimension where it is dense lie in a narrow window, so the order statistics and the ends
  // are found in a few words instead of a scan over universe / 64 of them.
  std::size_t first_word_ = 0;
  std::size_t last_word_ = 0;
};

}  // namespace subscale::consolidate
