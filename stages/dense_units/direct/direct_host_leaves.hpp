#pragma once
// The members of DirectWalker (direct_walker.hpp) that only the host's scratch runs, the one that
// keeps each level's value range in every dimension and the candidates as one bitset a dimension
// (Scratch::kKeepsBounds): with the ranges a prefix's mask costs one value a live dimension, with
// the bitsets the leaves worth testing are found 64 at a time. direct_walker.hpp includes this at
// its end, so that every user of the walker has them.
#include <cstdint>
#include <type_traits>

#include "common/host_device.hpp"
#include "stages/dense_units/direct/direct_walker.hpp"

namespace subscale::dense_units::direct {

// narrow for a scratch that keeps each level's value ranges (and pair masks): a level's range in
// a dimension is the level above's widened by the newest point, so a live dimension costs one
// value. A prefix whose pair mask leaves no live dimension above j is pruned before any value is
// read (its mask is left empty). With a pair table the ranges are not needed (narrow_by_pairs).
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
SUBSCALE_HD void DirectWalker<Scratch, T, kWords, kK>::narrow_with_bounds(std::uint32_t level, std::uint32_t e) {
  if (space.pair_table != nullptr) {
    narrow_by_pairs(level, e);
    return;
  }
  const std::uint32_t d = space.dimensions, words = this->words();
  const T* first = space.rows + static_cast<std::uint64_t>(scratch.point(0)) * d;
  const T* newest = space.rows + static_cast<std::uint64_t>(scratch.point(level)) * d;
  const T* parent_lo = level == 1 ? first : scratch.lows(level - 1);
  const T* parent_hi = level == 1 ? first : scratch.highs(level - 1);
  T* lo = scratch.lows(level);
  T* hi = scratch.highs(level);
  const bool any_above = pair_keeps_above_j(level - 1, e);
  for (std::uint32_t w = 0; w < words; ++w) {
    std::uint64_t live = any_above ? scratch.mask(level - 1, w) & scratch.pair(e, w) : 0;
    const std::uint64_t tied = live & space.tie_dimensions[w];  // these hold
    // At level 1 the pair mask is the mask; the ranges are still wanted below.
    std::uint64_t kept = level == 1 ? live : tied;
    for (live &= ~tied; live != 0; live &= live - 1) {
      const std::uint32_t bit = static_cast<std::uint32_t>(count_trailing_zeros(live));
      const std::uint32_t dim = w * 64 + bit;
      const T v = newest[dim];
      const T l = v < parent_lo[dim] ? v : parent_lo[dim], h = v > parent_hi[dim] ? v : parent_hi[dim];
      lo[dim] = l;
      hi[dim] = h;
      kept |= static_cast<std::uint64_t>(spans_less_than(l, h, space.epsilon)) << bit;
    }
    scratch.mask(level, w) = kept;
  }
}

// The leaves as leaf_run_compact's, with the prefix's span in every live dimension computed once
// and each leaf's dimensions narrowed first by its pair mask with p_i: a leaf then costs a few mask
// words and one value a remaining dimension, and the first dimension below j that holds ends its
// test (the unit belongs to a lower dimension's walk).
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
template <class Emit>
SUBSCALE_HD void DirectWalker<Scratch, T, kWords, kK>::leaf_run_with_bounds(const std::uint32_t* following_points,
                                                                            std::uint32_t from, std::uint32_t to,
                                                                            DirectWalkCounts& counts, Emit&& emit) {
  const std::uint32_t k = k_(), d = space.dimensions, words = this->words();
  // With no prefix (k = 1) the range is p_i's values.
  if (space.pair_table != nullptr) {
    counts.nodes += to - from;
    leaf_run_by_pairs(following_points, from, to, counts, emit);
    return;
  }
  const T* first = space.rows + static_cast<std::uint64_t>(scratch.point(0)) * d;
  const T* lo = k == 1 ? first : scratch.lows(k - 1);
  const T* hi = k == 1 ? first : scratch.highs(k - 1);
  auto visit = [&](std::uint32_t q) {
    // A leaf whose pair mask leaves no live dimension above j has no unit to emit: one word a
    // mask turns it away before any value is read (two thirds of the leaves on S1500 at 0.005,
    // which the test of the dimensions below j read values for first).
    if (!pair_keeps_above_j(k - 1, q)) return;
    const T* row = space.rows + static_cast<std::uint64_t>(following_points[q]) * d;
    // Kept bits of one word of candidates (dimensions where all k + 1 points span < epsilon).
    auto kept = [&](std::uint32_t w, std::uint64_t candidates) {
      std::uint64_t out = candidates & space.tie_dimensions[w];  // these hold
      for (candidates &= ~out; candidates != 0; candidates &= candidates - 1) {
        const std::uint32_t bit = static_cast<std::uint32_t>(count_trailing_zeros(candidates));
        const std::uint32_t dim = w * 64 + bit;
        const T v = row[dim];
        out |= static_cast<std::uint64_t>(
                   spans_less_than(v < lo[dim] ? v : lo[dim], v > hi[dim] ? v : hi[dim], space.epsilon))
               << bit;
      }
      return out;
    };
    bool below = false;
    for (std::uint32_t w = 0; w <= j_word && !below; ++w)
      below = kept(w, scratch.mask(k - 1, w) & scratch.pair(q, w) & words_below_j(w)) != 0;
    if (below) return;
    std::uint64_t any = 0;
    for (std::uint32_t w = j_word; w < words; ++w)
      any |= scratch.mask(k, w) = kept(w, scratch.mask(k - 1, w) & scratch.pair(q, w) & words_above_j(w));
    if (any == 0) return;
    for (std::uint32_t w = 0; w < j_word; ++w) scratch.mask(k, w) = 0;
    scratch.point(k) = following_points[q];
    emit();
    ++counts.emitted;
  };
  counts.nodes += to - from;
  if (words == 1) {
    leaf_run_one_word_with_bounds(following_points, from, to, lo, hi, counts, emit);
    return;
  }
  if (!visit_by_columns(from, to, visit))
    for (std::uint32_t q = from; q < to; ++q) visit(q);
}

// leaf_run_with_bounds from the pair table: a leaf's D(U) without j is the prefix's mask ANDed
// with the leaf's words with each of the prefix's points (narrow_by_pairs says why).
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
template <class Emit>
SUBSCALE_HD void DirectWalker<Scratch, T, kWords, kK>::leaf_run_by_pairs(const std::uint32_t* following_points,
                                                                         std::uint32_t from, std::uint32_t to,
                                                                         DirectWalkCounts& counts, Emit&& emit) {
  const std::uint32_t k = k_(), words = this->words();
  if (words == 1) {
    with_pair_words([&](const auto* table) {
      using Word = std::remove_cvref_t<decltype(*table)>;
      const Word* rows[64];  // the prefix points' rows
      for (std::uint32_t t = 1; t < k; ++t) rows[t] = table + std::uint64_t{scratch.point(t)} * space.points;
      const std::uint64_t below_j = j_bit - 1, above_j = ~(j_bit | below_j), parent = scratch.mask(k - 1, 0);
      auto visit = [&](std::uint32_t q) {
        std::uint64_t kept = parent & scratch.pair(q, 0);
        const std::uint32_t p = following_points[q];
        for (std::uint32_t t = 1; t < k; ++t) kept &= rows[t][p];
        if ((kept & below_j) != 0 || (kept & above_j) == 0) return;
        scratch.mask(k, 0) = kept;
        scratch.point(k) = p;
        emit();
        ++counts.emitted;
      };
      if (!visit_by_columns(from, to, visit))
        for (std::uint32_t q = from; q < to; ++q) visit(q);
    });
    return;
  }
  PairRow rows[64];  // the prefix points' rows
  for (std::uint32_t t = 1; t < k; ++t) rows[t] = pair_row(scratch.point(t));
  auto visit = [&](std::uint32_t q) {
    const std::uint32_t p = following_points[q];
    std::uint64_t below = 0, above = 0;
    for (std::uint32_t w = 0; w < words; ++w) {
      std::uint64_t kept = scratch.mask(k - 1, w) & scratch.pair(q, w);
      for (std::uint32_t t = 1; t < k; ++t) kept &= rows[t][std::uint64_t{p} * words + w];
      below |= kept & words_below_j(w);
      above |= kept & words_above_j(w);
      scratch.mask(k, w) = kept;
    }
    if (below != 0 || above == 0) return;
    scratch.point(k) = p;
    emit();
    ++counts.emitted;
  };
  if (!visit_by_columns(from, to, visit))
    for (std::uint32_t q = from; q < to; ++q) visit(q);
}

// leaf_run_with_bounds when a mask is one word: the prefix's mask stays in a register and the
// first dimension below j that holds ends a leaf's test.
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
template <class Emit>
SUBSCALE_HD void DirectWalker<Scratch, T, kWords, kK>::leaf_run_one_word_with_bounds(
    const std::uint32_t* following_points, std::uint32_t from, std::uint32_t to, const T* lo, const T* hi,
    DirectWalkCounts& counts, Emit&& emit) {
  const std::uint32_t k = k_(), d = space.dimensions;
  const std::uint64_t below_j = j_bit - 1, above_j = ~(j_bit | below_j);
  const std::uint64_t parent = scratch.mask(k - 1, 0), ties = space.tie_dimensions[0];
  auto visit = [&](std::uint32_t q) {
    const std::uint64_t candidates = parent & scratch.pair(q, 0);
    if ((candidates & above_j) == 0 || (candidates & below_j & ties) != 0) return;
    const T* row = space.rows + static_cast<std::uint64_t>(following_points[q]) * d;
    auto holds = [&](std::uint32_t dim) {
      const T v = row[dim];
      return spans_less_than(v < lo[dim] ? v : lo[dim], v > hi[dim] ? v : hi[dim], space.epsilon);
    };
    for (std::uint64_t bits = candidates & below_j & ~ties; bits != 0; bits &= bits - 1)
      if (holds(static_cast<std::uint32_t>(count_trailing_zeros(bits)))) return;
    std::uint64_t kept = candidates & above_j & ties;
    for (std::uint64_t bits = candidates & above_j & ~ties; bits != 0; bits &= bits - 1) {
      const auto dim = static_cast<std::uint32_t>(count_trailing_zeros(bits));
      kept |= static_cast<std::uint64_t>(holds(dim)) << dim;
    }
    if (kept == 0) return;
    scratch.mask(k, 0) = kept;
    scratch.point(k) = following_points[q];
    emit();
    ++counts.emitted;
  };
  if (!visit_by_columns(from, to, visit))
    for (std::uint32_t q = from; q < to; ++q) visit(q);
}

// Calls visit(q) for the leaves q in [from, to) that the candidates' columns leave: those close
// to p_i in a live dimension above j and in no live tie dimension below j (which would make the
// unit a lower dimension's), 64 leaves a word; the others would turn themselves away. False,
// doing nothing, when the prefix has more than kColumnDimensions such dimensions.
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
template <class Visit>
SUBSCALE_HD bool DirectWalker<Scratch, T, kWords, kK>::visit_by_columns(std::uint32_t from, std::uint32_t to,
                                                                        Visit&& visit) {
  const std::uint32_t k = k_();
  const std::uint64_t* above[kColumnDimensions];
  const std::uint64_t* lower_ties[kColumnDimensions];
  std::uint32_t above_count = 0, lower_count = 0;
  for (std::uint32_t w = 0; w < words(); ++w) {
    const std::uint64_t live = scratch.mask(k - 1, w);
    const std::uint64_t up = live & words_above_j(w);
    const std::uint64_t down = live & space.tie_dimensions[w] & words_below_j(w);
    for (std::uint64_t bits = up; bits != 0; bits &= bits - 1) {
      if (above_count == kColumnDimensions) return false;
      above[above_count++] = scratch.column(w * 64 + static_cast<std::uint32_t>(count_trailing_zeros(bits)));
    }
    for (std::uint64_t bits = down; bits != 0; bits &= bits - 1) {
      if (lower_count == kColumnDimensions) return false;
      lower_ties[lower_count++] = scratch.column(w * 64 + static_cast<std::uint32_t>(count_trailing_zeros(bits)));
    }
  }
  for (std::uint32_t base = from / 64 * 64; base < to; base += 64) {
    const std::uint32_t b = base / 64;
    std::uint64_t worth = 0, lower = 0;
    for (std::uint32_t a = 0; a < above_count; ++a) worth |= above[a][b];
    for (std::uint32_t l = 0; l < lower_count; ++l) lower |= lower_ties[l][b];
    worth &= ~lower;
    if (base < from) worth &= ~std::uint64_t{0} << (from - base);
    if (to - base < 64) worth &= (std::uint64_t{1} << (to - base)) - 1;
    for (; worth != 0; worth &= worth - 1) visit(base + static_cast<std::uint32_t>(count_trailing_zeros(worth)));
  }
  return true;
}

}  // namespace subscale::dense_units::direct
