#include "stages/consolidate/rank_set.hpp"

#include <algorithm>
#include <bit>
#include <iterator>

namespace subscale::consolidate {
namespace {

// The position of the k-th (0-based) set bit of `word`, which has more than k.
unsigned select_in_word(std::uint64_t word, std::size_t k) {
  for (; k > 0; --k) word &= word - 1;
  return static_cast<unsigned>(std::countr_zero(word));
}

}  // namespace

RankSet::RankSet(std::size_t universe, std::span<const std::uint32_t> ranks)
    : universe_(universe), size_(ranks.size()) {
  if (wants_dense()) {
    dense_ = true;
    words_.assign((universe_ + 63) / 64, 0);
    first_word_ = words_.size();
    for (std::uint32_t r : ranks) set_bit(r);
    if (ranks.empty()) first_word_ = 0;
  } else {
    sparse_.assign(ranks.begin(), ranks.end());
    std::sort(sparse_.begin(), sparse_.end());
  }
}

void RankSet::insert(std::vector<std::uint32_t>& ranks) {
  if (ranks.empty()) return;
  size_ += ranks.size();
  if (!dense_ && wants_dense()) make_dense();
  if (dense_) {
    for (std::uint32_t r : ranks) set_bit(r);
    return;
  }
  std::sort(ranks.begin(), ranks.end());
  const auto middle = sparse_.insert(sparse_.end(), ranks.begin(), ranks.end());
  std::inplace_merge(sparse_.begin(), middle, sparse_.end());
}

void RankSet::erase(std::vector<std::uint32_t>& ranks) {
  if (ranks.empty()) return;
  size_ -= ranks.size();
  if (dense_) {
    for (std::uint32_t r : ranks) words_[r >> 6] &= ~(std::uint64_t{1} << (r & 63));
    while (first_word_ < last_word_ && words_[first_word_] == 0) ++first_word_;
    while (last_word_ > first_word_ && words_[last_word_] == 0) --last_word_;
    // Back to a list only well under the threshold, so that a set near it does not switch back
    // and forth.
    if (size_ * 128 < universe_) make_sparse();
    return;
  }
  std::sort(ranks.begin(), ranks.end());
  std::vector<std::uint32_t> kept;
  kept.reserve(size_);
  std::set_difference(sparse_.begin(), sparse_.end(), ranks.begin(), ranks.end(), std::back_inserter(kept));
  sparse_ = std::move(kept);
}

std::pair<std::uint32_t, std::uint32_t> RankSet::select(std::size_t i, std::size_t j) const {
  return dense_ ? select_dense(i, j, nullptr, size_, first_word_, last_word_) : select_sparse(i, j, {});
}

std::pair<std::uint32_t, std::uint32_t> RankSet::select(std::size_t i, std::size_t j, std::vector<std::uint32_t>& extra,
                                                        std::vector<std::uint64_t>& scratch) const {
  if (!dense_) {
    std::sort(extra.begin(), extra.end());
    return select_sparse(i, j, extra);
  }
  std::size_t first = first_word_, last = last_word_;
  for (std::uint32_t r : extra) {
    scratch[r >> 6] |= std::uint64_t{1} << (r & 63);
    first = std::min<std::size_t>(first, r >> 6);
    last = std::max<std::size_t>(last, r >> 6);
  }
  const auto found = select_dense(i, j, scratch.data(), size_ + extra.size(), first, last);
  for (std::uint32_t r : extra) scratch[r >> 6] = 0;
  return found;
}

std::pair<std::uint32_t, std::uint32_t> RankSet::select_sparse(std::size_t i, std::size_t j,
                                                               std::span<const std::uint32_t> extra) const {
  // Merge the two sorted lists up to position j.
  std::pair<std::uint32_t, std::uint32_t> found{0, 0};
  std::size_t a = 0, b = 0;
  for (std::size_t position = 0; position <= j; ++position) {
    const bool from_set = b == extra.size() || (a < sparse_.size() && sparse_[a] < extra[b]);
    const std::uint32_t rank = from_set ? sparse_[a++] : extra[b++];
    if (position == i) found.first = rank;
    if (position == j) found.second = rank;
  }
  return found;
}

std::pair<std::uint32_t, std::uint32_t> RankSet::select_dense(std::size_t i, std::size_t j,
                                                              const std::uint64_t* extra_bits, std::size_t total_size,
                                                              std::size_t first_word, std::size_t last_word) const {
  // A cluster's ranks in a dimension where it is dense lie in a narrow window, and the span's
  // ends are near the set's ends, so the low end is sought from the front and the high end from
  // the back, over empty words without counting them.
  const auto word = [&](std::size_t w) { return extra_bits ? words_[w] | extra_bits[w] : words_[w]; };
  std::pair<std::uint32_t, std::uint32_t> found{0, 0};
  std::size_t total = 0;  // set bits below word w
  for (std::size_t w = first_word;; ++w) {
    const std::uint64_t bits = word(w);
    if (bits == 0) continue;
    const auto count = static_cast<std::size_t>(std::popcount(bits));
    if (i < total + count) {
      found.first = static_cast<std::uint32_t>(w * 64 + select_in_word(bits, i - total));
      break;
    }
    total += count;
  }
  const std::size_t from_top = total_size - 1 - j;
  total = 0;  // set bits above word w
  for (std::size_t w = last_word + 1; w-- > 0;) {
    const std::uint64_t bits = word(w);
    if (bits == 0) continue;
    const auto count = static_cast<std::size_t>(std::popcount(bits));
    if (from_top < total + count) {
      found.second = static_cast<std::uint32_t>(w * 64 + select_in_word(bits, count - 1 - (from_top - total)));
      break;
    }
    total += count;
  }
  return found;
}

std::uint32_t RankSet::front() const {
  if (!dense_) return sparse_.front();
  std::size_t w = first_word_;
  while (words_[w] == 0) ++w;
  return static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(words_[w])));
}

std::uint32_t RankSet::back() const {
  if (!dense_) return sparse_.back();
  std::size_t w = last_word_;
  while (words_[w] == 0) --w;
  return static_cast<std::uint32_t>(w * 64 + 63 - static_cast<std::size_t>(std::countl_zero(words_[w])));
}

std::vector<std::uint32_t> RankSet::ranks() const {
  if (!dense_) return sparse_;
  std::vector<std::uint32_t> out;
  out.reserve(size_);
  for (std::size_t w = 0; w < words_.size(); ++w)
    for (std::uint64_t word = words_[w]; word != 0; word &= word - 1)
      out.push_back(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(word))));
  return out;
}

void RankSet::make_dense() {
  words_.assign((universe_ + 63) / 64, 0);
  first_word_ = words_.size();
  last_word_ = 0;
  for (std::uint32_t r : sparse_) set_bit(r);
  sparse_ = {};
  dense_ = true;
}

void RankSet::make_sparse() {
  sparse_ = ranks();
  words_ = {};
  dense_ = false;
}

}  // namespace subscale::consolidate
