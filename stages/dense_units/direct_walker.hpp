#pragma once
// Direct mode's walk (host and device alike, so the CPU and GPU backends share every bit of it).
//
// A unit U = {p_i} + an (m-1)-subset of window W_j(i) is dense in another dimension k exactly when
// max_k(U) - min_k(U) < epsilon. The subsets are visited depth first in colex order: the largest
// element is fixed first, then the next, down to the smallest, so every prefix's subtree is one
// contiguous range of ranks. For each prefix the walker keeps the dimensions other than j in which
// the chosen points still span less than epsilon, as a bit mask. When no dimension above j is
// left, no unit below can have j = min D(U) with |D(U)| >= 2, so the whole subtree is skipped in
// closed form. A leaf whose mask has no dimension below j is emitted with D(U) = {j} + its mask:
// every unit in two or more dimensions is emitted once, from its lowest dimension.
//
// Spans are computed as max - min of the held values, the same subtraction density1d's window
// test makes, so D(U) equals what the signature and exact modes find.
#include <cstdint>

#include "common/host_device.hpp"
#include "gpu/enumeration/combinadic.hpp"

namespace subscale::direct {

// Everything the walk reads. Arrays over windows are indexed w = j * points + i.
struct DirectSpaceView {
  const double* rows = nullptr;               // points x dimensions, row-major (a point's values together)
  const std::uint32_t* sorted = nullptr;      // dimensions x points: point id at sorted position i of j
  const std::uint32_t* window_end = nullptr;  // dimensions x points: end h of W_j(i) (exclusive)
  combinadic::BinomialTable binomials;
  double epsilon = 0;
  std::uint32_t points = 0;
  std::uint32_t dimensions = 0;
  std::uint32_t words = 0;  // 64-bit words of a dimension mask
  std::uint32_t k = 0;      // m - 1
};

// A contiguous range of subset ranks [rank_begin, rank_end) of one window: the unit of work that
// threads, tasks and GPU warps are dealt.
struct DirectWorkItem {
  std::uint64_t window = 0;  // j * points + i
  std::uint64_t rank_begin = 0;
  std::uint64_t rank_end = 0;
};

// What one walk did: nodes are prefixes (and leaves) whose mask was computed.
struct DirectWalkCounts {
  std::uint64_t nodes = 0;
  std::uint64_t emitted = 0;
};

// Scratch of one walker: masks(level, word) for levels 0..k, subset(t) for t < k and point(t) for
// t <= k. The CPU keeps it in arrays, the GPU interleaves it across threads.
template <class Scratch>
struct DirectWalker {
  const DirectSpaceView& space;
  Scratch& scratch;
  std::uint32_t j = 0;       // the window's dimension
  std::uint32_t j_word = 0;  // word and bit of j in a mask
  std::uint64_t j_bit = 0;
  // Bumped whenever a level above the leaves changes: leaves with the same epoch share every
  // point but the last, which lets an emitter skip re-adding the shared ones.
  std::uint64_t prefix_epoch = 0;

  // Any dimension above j left in the mask of `level`?
  SUBSCALE_HD bool has_higher(std::uint32_t level) const {
    if ((scratch.mask(level, j_word) & ~(j_bit | (j_bit - 1))) != 0) return true;
    for (std::uint32_t w = j_word + 1; w < space.words; ++w)
      if (scratch.mask(level, w) != 0) return true;
    return false;
  }
  // No dimension below j left in the mask of `level`?
  SUBSCALE_HD bool lacks_lower(std::uint32_t level) const {
    if ((scratch.mask(level, j_word) & (j_bit - 1)) != 0) return false;
    for (std::uint32_t w = 0; w < j_word; ++w)
      if (scratch.mask(level, w) != 0) return false;
    return true;
  }

  // Mask of `level` (level points chosen after p_i, the newest being point(level)) from the one
  // above: keeps each dimension where all level + 1 points still span less than epsilon.
  SUBSCALE_HD void narrow(std::uint32_t level) {
    const std::uint32_t d = space.dimensions;
    const double* newest = space.rows + static_cast<std::uint64_t>(scratch.point(level)) * d;
    if (level == 1) {
      narrow_pair(newest);
      return;
    }
    for (std::uint32_t w = 0; w < space.words; ++w) {
      std::uint64_t live = scratch.mask(level - 1, w);
      std::uint64_t kept = 0;
      while (live != 0) {
        const std::uint32_t bit = static_cast<std::uint32_t>(count_trailing_zeros(live));
        live &= live - 1;
        const std::uint32_t dim = w * 64 + bit;
        double lo = newest[dim], hi = lo;
        for (std::uint32_t t = 0; t < level; ++t) {
          const double v = space.rows[static_cast<std::uint64_t>(scratch.point(t)) * d + dim];
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
        if (hi - lo < space.epsilon) kept |= std::uint64_t{1} << bit;
      }
      scratch.mask(level, w) = kept;
    }
  }

  // The first level compares two points in every dimension: a branch-free sweep over both rows
  // (|a - b| is exactly max - min in floating point) beats visiting the mask's bits.
  SUBSCALE_HD void narrow_pair(const double* newest) {
    const double* first = space.rows + static_cast<std::uint64_t>(scratch.point(0)) * space.dimensions;
    for (std::uint32_t w = 0; w < space.words; ++w) {
      const std::uint32_t base = w * 64;
      const std::uint32_t count = space.dimensions - base < 64 ? space.dimensions - base : 64;
      std::uint64_t close = 0;
      for (std::uint32_t b = 0; b < count; ++b) {
        const double gap = newest[base + b] - first[base + b];
        close |= static_cast<std::uint64_t>((gap < 0 ? -gap : gap) < space.epsilon) << b;
      }
      scratch.mask(1, w) = scratch.mask(0, w) & close;
    }
  }

  SUBSCALE_HD static int count_trailing_zeros(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
    return __ffsll(static_cast<long long>(x)) - 1;
#else
    return __builtin_ctzll(x);
#endif
  }

  // Level 0: every dimension but j (bits past the last dimension clear).
  SUBSCALE_HD void start_mask() {
    for (std::uint32_t w = 0; w < space.words; ++w) {
      const std::uint32_t dims_here = space.dimensions - w * 64;
      scratch.mask(0, w) = dims_here >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << dims_here) - 1;
    }
    scratch.mask(0, j_word) &= ~j_bit;
  }

  // First rank of the subtree whose prefix fixes subset(s) .. subset(k-1).
  SUBSCALE_HD std::uint64_t prefix_rank(std::uint32_t s) const {
    std::uint64_t r = 0;
    for (std::uint32_t t = s; t < space.k; ++t) r += space.binomials(scratch.subset(t), t + 1);
    return r;
  }

  // Walks the item's ranks and calls emit() for each unit with j = min D(U) and |D(U)| >= 2: its
  // mask (D(U) without j) is scratch.mask(k, .), its points scratch.point(0 .. k).
  template <class Emit>
  SUBSCALE_HD DirectWalkCounts walk(const DirectWorkItem& item, Emit&& emit) {
    DirectWalkCounts counts;
    const std::uint32_t k = space.k;
    const std::uint32_t i = static_cast<std::uint32_t>(item.window % space.points);
    j = static_cast<std::uint32_t>(item.window / space.points);
    j_word = j / 64;
    j_bit = std::uint64_t{1} << (j % 64);
    const std::uint32_t* order = space.sorted + static_cast<std::uint64_t>(j) * space.points;
    const std::uint32_t following = space.window_end[item.window] - i - 1;  // elements to choose from
    std::uint32_t c[64];
    combinadic::unrank(space.binomials, item.rank_begin, following, k, c);
    for (std::uint32_t t = 0; t < k; ++t) scratch.subset(t) = c[t];
    scratch.point(0) = order[i];
    ++prefix_epoch;
    start_mask();
    std::uint64_t rank = item.rank_begin;
    std::uint32_t valid = 0;  // levels 1 .. valid hold masks of the current prefix
    while (true) {
      // Descend: level L fixes subset(k - L).
      std::uint32_t s = k;  // lowest subset index whose subtree is left (k: a leaf was reached)
      while (valid < k) {
        const std::uint32_t level = valid + 1;
        const std::uint32_t e = k - level;
        scratch.point(level) = order[i + 1 + scratch.subset(e)];
        narrow(level);
        ++counts.nodes;
        if (level < k) ++prefix_epoch;
        if (!has_higher(level)) {
          s = e;
          break;
        }
        valid = level;
      }
      std::uint64_t next;
      if (s == k) {  // a leaf
        if (lacks_lower(k)) {
          emit();
          ++counts.emitted;
        }
        s = 0;
        next = rank + 1;
      } else {
        next = prefix_rank(s) + space.binomials(scratch.subset(s), s);
      }
      if (next >= item.rank_end) break;
      rank = next;
      // Colex successor past the subtree of subset(s): it grows, carrying upwards when it meets
      // the element above; the elements below restart at 0, 1, ...
      while (scratch.subset(s) + 1 >= (s + 1 < k ? scratch.subset(s + 1) : following)) ++s;
      scratch.subset(s) += 1;
      for (std::uint32_t t = 0; t < s; ++t) scratch.subset(t) = t;
      valid = k - s - 1;
    }
    return counts;
  }
};

}  // namespace subscale::direct
