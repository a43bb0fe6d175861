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
// test makes, so D(U) equals what the signature and exact modes find. On the host, when the data
// is small enough, a pair table holds for every two points the dimensions where they lie within
// epsilon; a set spans less than epsilon exactly where each two of its points do, so the masks are
// then ANDs of table words, with the same result.
//
// In a tie dimension (no two distinct values within epsilon: integer levels at an epsilon below
// their step) points are close exactly when they are equal, so a set spans less than epsilon
// exactly when each point's pair bit with p_i is set. Where pair masks are kept, the walk reads
// those dimensions from the masks alone and reads values only for the others.
#include <concepts>
#include <cstdint>

#include "common/host_device.hpp"
#include "stages/dense_units/enumeration/combinadic.hpp"

namespace subscale::dense_units::direct {

// Everything the walk reads. Arrays over windows are indexed w = j * points + i. T is the held
// precision (float or double); epsilon is already rounded to it (held_epsilon), so every span is
// computed and compared in T, on host and device alike.
template <class T>
struct DirectSpaceView {
  const T* rows = nullptr;                        // points x dimensions, row-major (a point's values together)
  const std::uint32_t* sorted = nullptr;          // dimensions x points: point id at sorted position i of j
  const std::uint32_t* window_end = nullptr;      // dimensions x points: end h of W_j(i) (exclusive)
  const std::uint64_t* tie_dimensions = nullptr;  // words: the mask of tie dimensions
  // Or null: the pair table, points x points x words, word w of row a at column b holding the
  // dimensions in which points a and b lie within epsilon (direct_pair_table.hpp); its words are
  // pair_word_bytes wide (2, 4 or 8). The device has one only with one-word masks.
  const void* pair_table = nullptr;
  std::uint32_t pair_word_bytes = 8;
  combinadic::BinomialTable binomials;
  T epsilon = 0;
  std::uint32_t points = 0;
  std::uint32_t dimensions = 0;
  std::uint32_t words = 0;  // 64-bit words of a dimension mask
  std::uint32_t k = 0;      // m - 1
};

// A row of the pair table: word i read at the table's width.
struct PairRow {
  const void* words = nullptr;
  std::uint32_t word_bytes = 8;
  SUBSCALE_HD std::uint64_t operator[](std::uint64_t i) const {
    if (word_bytes == 4) return static_cast<const std::uint32_t*>(words)[i];
    if (word_bytes == 2) return static_cast<const std::uint16_t*>(words)[i];
    return static_cast<const std::uint64_t*>(words)[i];
  }
};

// A contiguous range of subset ranks [rank_begin, rank_end) of one window: the unit of work that
// threads, tasks and GPU warps are dealt.
struct DirectWorkItem {
  std::uint64_t window = 0;  // j * points + i
  std::uint64_t rank_begin = 0;
  std::uint64_t rank_end = 0;
};

// What one walk did: nodes are prefixes (and leaves) whose mask was computed; covered are the
// subtrees passed over because their units would add no point to any subspace (an emitter with
// covers(), below).
struct DirectWalkCounts {
  std::uint64_t nodes = 0;
  std::uint64_t emitted = 0;
  std::uint64_t covered = 0;
};

// Candidates below a prefix for which an emitter's covering test is worth asking: for fewer, the
// subtree is walked sooner than tested. Above the leaves a subtree is only as many leaves, each a
// few ANDs: on the CPU (walk seconds, 2 threads, asking there from 8 / 16 / 24 / 32 leaves / never)
// ties_like_real_350g's first 300 rows took 2.02 / 2.06 / 2.12 / 2.27 / 2.98 s, D75 at 0.005 1.59 /
// 1.47 / 1.42 / 1.45 / 1.44 s (1.35 s counting every unit), S1500 the same at each.
inline constexpr std::uint32_t kCoverAtLeast = 8;
inline constexpr std::uint32_t kCoverLeavesAtLeast = 24;

// Scratch of one walker: masks(level, word) for levels 0..k, subset(t) for t < k and point(t) for
// t <= k. The CPU keeps it in arrays, the GPU interleaves it across threads. keeps_pairs(n) says
// whether it has room for the candidates among n following elements of a window: their points
// (candidate_point), their places among the following elements (candidate_origin) and their pair
// masks pair(c, word) (pairs_filled, candidates, reserve_pairs and set_pairs_filled say how many
// following elements were looked at and how many kept). One with kKeepsBounds (the host's) also
// has room for each level's value range in every dimension (lows(level), highs(level)), which
// narrow and the leaves use, and keeps the candidates as one bitset a dimension (column,
// add_to_columns, forget_columns). lanes() walkers may share one item (the GPU's warp): each walks
// every prefix and takes every lanes()-th leaf from lane(); they share the candidates and deal out
// a prefix's live dimensions, whose results or_across_lanes() joins.
// An emitter that can tell covered subtrees (walk() says how they are passed over).
template <class Emit>
concept CoveringEmitter = requires(Emit& emit, std::uint32_t level, std::uint32_t bound) {
  { emit.covers(level, bound) } -> std::same_as<bool>;
  { emit.additions() } -> std::convertible_to<std::uint64_t>;
};

// kWords, when not 0, is the number of mask words, fixed at compile time: both backends compile
// the walk apart for one-word masks (at most 64 dimensions), which drops the loops over words and
// the paths only several words take from the code it runs (walk_direct_items, run_direct_units_cpu).
// kK, when not 0, fixes k (m - 1) the same way: the host compiles m = 4 apart, whose loops over a
// prefix's points then have a known length.
template <class Scratch, class T, std::uint32_t kWords = 0, std::uint32_t kK = 0>
struct DirectWalker {
  const DirectSpaceView<T>& space;
  Scratch& scratch;
  std::uint32_t j = 0;       // the window's dimension
  std::uint32_t j_word = 0;  // word and bit of j in a mask
  std::uint64_t j_bit = 0;
  // Bumped whenever a level above the leaves changes: leaves with the same epoch share every
  // point but the last, which lets an emitter skip re-adding the shared ones.
  std::uint64_t prefix_epoch = 0;
  // Bumped whenever the top level (the subsets' largest element) changes: a prefix's live
  // dimensions always lie among the top level's, so what is keyed by those stays valid below it.
  std::uint64_t top_epoch = 0;

  // kWords, for code beside the walk that fixes its loops over mask words the same way (the host
  // emitter and covering test).
  static constexpr std::uint32_t kFixedWords = kWords;

  // Words of a dimension mask.
  SUBSCALE_HD std::uint32_t words() const { return kWords != 0 ? kWords : space.words; }
  // Elements a unit takes besides p_i (m - 1).
  SUBSCALE_HD std::uint32_t k_() const { return kK != 0 ? kK : space.k; }

  // Any dimension above j left in the mask of `level`?
  SUBSCALE_HD bool has_higher(std::uint32_t level) const {
    if ((scratch.mask(level, j_word) & ~(j_bit | (j_bit - 1))) != 0) return true;
    for (std::uint32_t w = j_word + 1; w < words(); ++w)
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

  // Mask of `level` (level points chosen after p_i, the newest being point(level), following element
  // e) from the one above: keeps each dimension where all level + 1 points still span less than
  // epsilon. With pairs kept, the newest point's pair mask with p_i narrows the candidates first (a
  // dimension outside it cannot hold), and with a pair table too no value is read (narrow_by_pairs).
  SUBSCALE_HD void narrow(std::uint32_t level, bool pairs, std::uint32_t e, bool shared = false) {
    if constexpr (Scratch::kKeepsBounds) {
      narrow_with_bounds(level, e);
      return;
    }
    // Only one-word masks have a table on the device: the check stays out of the other kernel.
    if (kWords == 1 && pairs && space.pair_table != nullptr) {
      narrow_by_pairs(level, e);
      return;
    }
    const std::uint32_t d = space.dimensions;
    const T* newest = space.rows + static_cast<std::uint64_t>(scratch.point(level)) * d;
    if (level == 1) {
      for (std::uint32_t w = 0; w < words(); ++w)
        scratch.mask(1, w) = pairs ? scratch.pair(e, w) : scratch.mask(0, w) & close_to_first(newest, w);
      return;
    }
    // A prefix that all lanes share (shared) has its live dimensions dealt out among them.
    const std::uint32_t lanes = shared ? scratch.lanes() : 1, lane = shared ? scratch.lane() : 0;
    std::uint32_t index = 0;
    for (std::uint32_t w = 0; w < words(); ++w) {
      std::uint64_t live = scratch.mask(level - 1, w) & (pairs ? scratch.pair(e, w) : ~std::uint64_t{0});
      // A tie dimension live in the prefix and in the newest point's pair mask holds.
      const std::uint64_t tied = pairs ? live & space.tie_dimensions[w] : 0;
      live &= ~tied;
      std::uint64_t kept = tied;
      while (live != 0) {
        const std::uint32_t bit = static_cast<std::uint32_t>(count_trailing_zeros(live));
        live &= live - 1;
        if (index++ % lanes != lane) continue;
        const std::uint32_t dim = w * 64 + bit;
        T lo = newest[dim], hi = lo;
        for (std::uint32_t t = 0; t < level; ++t) {
          const T v = space.rows[static_cast<std::uint64_t>(scratch.point(t)) * d + dim];
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
        if (spans_less_than(lo, hi, space.epsilon)) kept |= std::uint64_t{1} << bit;
      }
      scratch.mask(level, w) = shared ? scratch.or_across_lanes(kept) : kept;
    }
  }

  // narrow for a scratch that keeps each level's value ranges (direct_host_leaves.hpp).
  SUBSCALE_HD void narrow_with_bounds(std::uint32_t level, std::uint32_t e);

  // Does candidate e's pair mask with p_i keep a live dimension above j of `level`? If not, no unit
  // that adds it to that level's points is emitted here.
  SUBSCALE_HD bool pair_keeps_above_j(std::uint32_t level, std::uint32_t e) {
    std::uint64_t any_above = 0;
    for (std::uint32_t w = j_word; w < words() && any_above == 0; ++w)
      any_above = scratch.mask(level, w) & scratch.pair(e, w) & words_above_j(w);
    return any_above != 0;
  }

  // The pair table's row of point p: its words with every point.
  SUBSCALE_HD PairRow pair_row(std::uint32_t p) const {
    const std::uint64_t at = static_cast<std::uint64_t>(p) * space.points * words() * space.pair_word_bytes;
    return {static_cast<const unsigned char*>(space.pair_table) + at, space.pair_word_bytes};
  }

  // Calls f with the pair table's words as an array of their width (a one-word mask's hot loops
  // then read them without asking the width each time).
  template <class F>
  SUBSCALE_HD void with_pair_words(F&& f) const {
    if (space.pair_word_bytes == 4)
      f(static_cast<const std::uint32_t*>(space.pair_table));
    else if (space.pair_word_bytes == 2)
      f(static_cast<const std::uint16_t*>(space.pair_table));
    else
      f(static_cast<const std::uint64_t*>(space.pair_table));
  }

  // narrow_with_bounds from the pair table: a set spans less than epsilon in a dimension exactly
  // when each two of its points do (the computed max - min is the widest pair's own difference,
  // and rounding keeps a narrower pair's no wider), so the newest point's words with the points
  // before it, ANDed into the mask above, are the mask. No value is read.
  SUBSCALE_HD void narrow_by_pairs(std::uint32_t level, std::uint32_t e) {
    const std::uint32_t words = this->words(), newest = scratch.point(level);
    const bool any_above = pair_keeps_above_j(level - 1, e);
    for (std::uint32_t w = 0; w < words; ++w) {
      std::uint64_t kept = any_above ? scratch.mask(level - 1, w) & scratch.pair(e, w) : 0;
      for (std::uint32_t t = 1; t < level && kept != 0; ++t)
        kept &= pair_row(scratch.point(t))[std::uint64_t{newest} * words + w];
      scratch.mask(level, w) = kept;
    }
  }

  // Word w of the dimensions above j, and of those below j.
  SUBSCALE_HD std::uint64_t words_above_j(std::uint32_t w) const {
    return w < j_word ? 0 : w > j_word ? ~std::uint64_t{0} : ~(j_bit | (j_bit - 1));
  }
  SUBSCALE_HD std::uint64_t words_below_j(std::uint32_t w) const {
    return w > j_word ? 0 : w < j_word ? ~std::uint64_t{0} : j_bit - 1;
  }

  // Word w of the dimensions in which `other` lies within epsilon of p_i: a branch-free sweep over
  // both rows.
  SUBSCALE_HD std::uint64_t close_to_first(const T* other, std::uint32_t w) const {
    const T* first = space.rows + static_cast<std::uint64_t>(scratch.point(0)) * space.dimensions;
    const std::uint32_t base = w * 64;
    const std::uint32_t count = space.dimensions - base < 64 ? space.dimensions - base : 64;
    std::uint64_t close = 0;
    for (std::uint32_t b = 0; b < count; ++b)
      close |= static_cast<std::uint64_t>(pair_within(first[base + b], other[base + b], space.epsilon)) << b;
    return close;
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
    for (std::uint32_t w = 0; w < words(); ++w) {
      const std::uint32_t dims_here = space.dimensions - w * 64;
      scratch.mask(0, w) = dims_here >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << dims_here) - 1;
    }
    scratch.mask(0, j_word) &= ~j_bit;
  }

  // The largest element of the item's last subset: the largest c with C(c, k) <= rank_end - 1.
  SUBSCALE_HD std::uint32_t last_top(const DirectWorkItem& item, std::uint32_t following) const {
    return combinadic::largest_with_binomial_at_most(space.binomials, k_(), item.rank_end - 1, k_() - 1, following);
  }

  // First rank of the subtree whose prefix fixes subset(s) .. subset(k-1).
  SUBSCALE_HD std::uint64_t prefix_rank(std::uint32_t s) const {
    std::uint64_t r = 0;
    for (std::uint32_t t = s; t < k_(); ++t) r += space.binomials(scratch.subset(t), t + 1);
    return r;
  }

  // The leaves under the current prefix (levels 1 .. k-1 hold its masks): subset(0) from `from`
  // to `to` (exclusive), each tested against every dimension still live in the prefix.
  template <class Emit>
  SUBSCALE_HD void leaf_run(const std::uint32_t* following_points, bool pairs, std::uint32_t from, std::uint32_t to,
                            DirectWalkCounts& counts, Emit&& emit) {
    const std::uint32_t k = k_();
#if defined(__CUDA_ARCH__)
    if constexpr (Scratch::kLanes == 32) {
      if (pairs && k >= 2 && scratch.keeps_tie_columns() && leaf_run_tie_columns(from, to, counts, emit)) return;
    }
#endif
    if constexpr (Scratch::kKeepsBounds) {
      leaf_run_with_bounds(following_points, from, to, counts, emit);
    } else if (words() == 1 && pairs) {
#if defined(__CUDA_ARCH__)
      if constexpr (Scratch::kLanes == 32) {
        if (kWords == 1 && space.pair_table != nullptr)
          leaf_run_pairs_warp(following_points, from, to, counts, emit);
        else
          leaf_run_one_word_warp(following_points, from, to, counts, emit);
        return;
      }
#endif
      leaf_run_one_word(following_points, from, to, counts, emit);
    } else if (words() == 1 || !leaf_run_compact(following_points, pairs, from, to, counts, emit)) {
      for (std::uint32_t q = from + scratch.lane(); q < to; q += scratch.lanes()) {
        scratch.point(k) = following_points[q];
        narrow(k, pairs, q);
        ++counts.nodes;
        if (has_higher(k) && lacks_lower(k)) {
          emit();
          ++counts.emitted;
        }
      }
    }
  }

  // The leaves when a mask is one word and pair masks are kept (the device's common case): the
  // prefix's mask stays in a register, a leaf whose pair mask leaves no live dimension above j is
  // turned away with one load, and the others test only the dimensions their pair mask leaves,
  // the ones below j first (one that holds ends the test). Measured on an H100, local arrays of the
  // prefix's ranges (leaf_run_compact) cost more here than they save.
  template <class Emit>
  SUBSCALE_HD void leaf_run_one_word(const std::uint32_t* following_points, std::uint32_t from, std::uint32_t to,
                                     DirectWalkCounts& counts, Emit&& emit) {
    const std::uint32_t k = k_(), d = space.dimensions;
    const std::uint64_t parent = scratch.mask(k - 1, 0), below_j = j_bit - 1, above_j = ~(j_bit | below_j);
    const std::uint64_t ties = space.tie_dimensions[0];
    for (std::uint32_t q = from + scratch.lane(); q < to; q += scratch.lanes()) {
      ++counts.nodes;
      std::uint64_t candidates = parent & scratch.pair(q, 0);
      if ((candidates & above_j) == 0) continue;
      const std::uint64_t tied = candidates & ties;  // these hold
      if ((tied & below_j) != 0) continue;
      candidates &= ~tied;
      const T* row = space.rows + static_cast<std::uint64_t>(following_points[q]) * d;
      auto holds = [&](std::uint32_t dim) {
        T lo = row[dim], hi = lo;
        for (std::uint32_t t = 0; t < k; ++t) {
          const T v = space.rows[static_cast<std::uint64_t>(scratch.point(t)) * d + dim];
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
        return spans_less_than(lo, hi, space.epsilon);
      };
      bool below = false;
      for (std::uint64_t bits = candidates & below_j; bits != 0 && !below; bits &= bits - 1)
        below = holds(static_cast<std::uint32_t>(count_trailing_zeros(bits)));
      if (below) continue;
      std::uint64_t kept = tied & above_j;
      for (std::uint64_t bits = candidates & above_j; bits != 0; bits &= bits - 1) {
        const auto dim = static_cast<std::uint32_t>(count_trailing_zeros(bits));
        if (holds(dim)) kept |= std::uint64_t{1} << dim;
      }
      if (kept == 0) continue;
      scratch.mask(k, 0) = kept;
      scratch.point(k) = following_points[q];
      emit();
      ++counts.emitted;
    }
  }

#if defined(__CUDA_ARCH__)
  // A warp's own parts of the walk (direct_warp_leaves.hpp): the candidates kept by all lanes, the
  // leaf runs in which they share the prefix, and what those leaf runs use.
  __device__ void keep_candidates_warp(std::uint64_t window, const std::uint32_t* following_points,
                                       std::uint32_t scanned, std::uint32_t needed, std::uint32_t kept);
  template <class Emit>
  __device__ void leaf_run_one_word_warp(const std::uint32_t* following_points, std::uint32_t from, std::uint32_t to,
                                         DirectWalkCounts& counts, Emit&& emit);
  template <class Emit>
  __device__ void leaf_run_pairs_warp(const std::uint32_t* following_points, std::uint32_t from, std::uint32_t to,
                                      DirectWalkCounts& counts, Emit&& emit);
  // Live dimensions a prefix may have for leaf_run_tie_columns, which keeps them in registers.
  static constexpr std::uint32_t kTieLive = 8;
  template <class Emit>
  __device__ bool leaf_run_tie_columns(std::uint32_t from, std::uint32_t to, DirectWalkCounts& counts, Emit&& emit);
  __device__ void build_tie_columns(std::uint32_t level);
  __device__ void write_pattern_key(std::uint64_t pattern);
  __device__ static std::uint64_t or_across_warp(std::uint64_t word);
#endif

  // Live dimensions a prefix may have for leaf_run_compact, which keeps them in local arrays.
  static constexpr std::uint32_t kCompactLive = 32;

  // The leaves with the prefix's live dimensions and their value ranges gathered once into small
  // arrays (false, doing nothing, when there are more than kCompactLive): a leaf whose pair mask
  // leaves no live dimension above j is turned away with one word; otherwise it costs one value a
  // live dimension, the ones below j first (one that holds ends the test).
  template <class Emit>
  SUBSCALE_HD bool leaf_run_compact(const std::uint32_t* following_points, bool pairs, std::uint32_t from,
                                    std::uint32_t to, DirectWalkCounts& counts, Emit&& emit) {
    const std::uint32_t k = k_(), d = space.dimensions, words = this->words();
    std::uint32_t dims[kCompactLive];
    T lo[kCompactLive], hi[kCompactLive];
    bool tied[kCompactLive];             // a tie dimension with pair masks kept: its pair bit decides
    std::uint32_t count = 0, lower = 0;  // dims[0 .. lower) are below j
    for (std::uint32_t w = 0; w < words; ++w) {
      for (std::uint64_t bits = scratch.mask(k - 1, w); bits != 0; bits &= bits - 1) {
        if (count == kCompactLive) return false;
        const std::uint32_t dim = w * 64 + static_cast<std::uint32_t>(count_trailing_zeros(bits));
        T l = space.rows[static_cast<std::uint64_t>(scratch.point(0)) * d + dim], h = l;
        for (std::uint32_t t = 1; t < k; ++t) {
          const T v = space.rows[static_cast<std::uint64_t>(scratch.point(t)) * d + dim];
          l = v < l ? v : l;
          h = v > h ? v : h;
        }
        dims[count] = dim;
        lo[count] = l;
        hi[count] = h;
        tied[count] = pairs && (space.tie_dimensions[w] >> (dim % 64) & 1) != 0;
        if (dim < j) lower = count + 1;
        ++count;
      }
    }
    const std::uint64_t above_j = ~(j_bit | (j_bit - 1));
    const std::uint64_t only_word = words == 1 ? scratch.mask(k - 1, 0) & above_j : 0;
    for (std::uint32_t q = from + scratch.lane(); q < to; q += scratch.lanes()) {
      ++counts.nodes;
      if (pairs) {  // any live dimension above j left after the pair with p_i?
        std::uint64_t any = 0;
        if (words == 1) {
          any = only_word & scratch.pair(q, 0);
        } else {
          for (std::uint32_t w = j_word; w < words && any == 0; ++w)
            any = scratch.mask(k - 1, w) & scratch.pair(q, w) & (w == j_word ? above_j : ~std::uint64_t{0});
        }
        if (any == 0) continue;
      }
      const T* row = space.rows + static_cast<std::uint64_t>(following_points[q]) * d;
      auto holds = [&](std::uint32_t l) {
        if (tied[l]) return (scratch.pair(q, dims[l] / 64) >> (dims[l] % 64) & 1) != 0;
        const T v = row[dims[l]];
        return spans_less_than(v < lo[l] ? v : lo[l], v > hi[l] ? v : hi[l], space.epsilon);
      };
      bool below = false;
      for (std::uint32_t l = 0; l < lower && !below; ++l) below = holds(l);
      if (below) continue;
      std::uint32_t first = lower;
      while (first < count && !holds(first)) ++first;
      if (first == count) continue;
      for (std::uint32_t w = 0; w < words; ++w) scratch.mask(k, w) = 0;
      for (std::uint32_t l = first; l < count; ++l)
        if (l == first || holds(l)) scratch.mask(k, dims[l] / 64) |= std::uint64_t{1} << (dims[l] % 64);
      scratch.point(k) = following_points[q];
      emit();
      ++counts.emitted;
    }
    return true;
  }

  // The leaf runs of a scratch that keeps each level's value ranges and the candidates' columns
  // (direct_host_leaves.hpp).
  template <class Emit>
  SUBSCALE_HD void leaf_run_with_bounds(const std::uint32_t* following_points, std::uint32_t from, std::uint32_t to,
                                        DirectWalkCounts& counts, Emit&& emit);
  template <class Emit>
  SUBSCALE_HD void leaf_run_by_pairs(const std::uint32_t* following_points, std::uint32_t from, std::uint32_t to,
                                     DirectWalkCounts& counts, Emit&& emit);
  template <class Emit>
  SUBSCALE_HD void leaf_run_one_word_with_bounds(const std::uint32_t* following_points, std::uint32_t from,
                                                 std::uint32_t to, const T* lo, const T* hi, DirectWalkCounts& counts,
                                                 Emit&& emit);
  // Dimensions a prefix may have for visit_by_columns.
  static constexpr std::uint32_t kColumnDimensions = 16;
  template <class Visit>
  SUBSCALE_HD bool visit_by_columns(std::uint32_t from, std::uint32_t to, Visit&& visit);

  // in some dimension above j, in order, with their pair masks (with p_i, within level 0). A unit
  // holding any other point spans epsilon or more in every dimension above j, so it is never
  // emitted here, and the walk chooses its subsets among the candidates alone. Kept once a window
  // on a scratch that keeps pairs, for the window's items that come to it one after another.
  SUBSCALE_HD void keep_candidates(std::uint64_t window, const std::uint32_t* following_points, std::uint32_t needed) {
    const std::uint32_t scanned = scratch.pairs_filled(window);
    if (scanned >= needed) return;
    std::uint32_t kept = scanned == 0 ? 0 : scratch.candidates();
    scratch.reserve_pairs(needed);
#if defined(__CUDA_ARCH__)
    keep_candidates_warp(window, following_points, scanned, needed, kept);
#else
    if constexpr (Scratch::kKeepsBounds) {
      if (scanned == 0) scratch.forget_columns();  // the last window's, while its pair masks are there
    }
    // Every point is written at the next candidate's place and kept by counting it: about half are
    // kept, at random, and a branch on it mispredicted that often.
    const std::uint32_t kept_before = kept;
    for (std::uint32_t e = scanned; e < needed; ++e) {
      const bool keep = pair_above_j(kept, following_points[e]);
      scratch.candidate_point(kept) = following_points[e];
      scratch.candidate_origin(kept) = e;
      kept += keep ? 1 : 0;
    }
    if constexpr (Scratch::kKeepsBounds)
      for (std::uint32_t c = kept_before; c < kept; ++c) scratch.add_to_columns(c);
    scratch.set_pairs_filled(window, needed, kept);
#endif
  }

  // Writes the pair mask of `point` with p_i to pair row `row`; does it hold a dimension above j?
  SUBSCALE_HD bool pair_above_j(std::uint32_t row, std::uint32_t point) {
    const T* other = space.rows + static_cast<std::uint64_t>(point) * space.dimensions;
    const std::uint64_t above_j = ~(j_bit | (j_bit - 1));
    std::uint64_t any_above = 0;
    // The device has a table only with one-word masks (the host's scratch, with any).
    const bool table = (Scratch::kKeepsBounds || kWords == 1) && space.pair_table != nullptr;
    for (std::uint32_t w = 0; w < words(); ++w) {
      std::uint64_t close =
          table ? pair_row(scratch.point(0))[std::uint64_t{point} * words() + w] : close_to_first(other, w);
      close &= scratch.mask(0, w);
      scratch.pair(row, w) = close;
      if (w >= j_word) any_above |= close & (w == j_word ? above_j : ~std::uint64_t{0});
    }
    return any_above != 0;
  }

  // Subsets of the candidates whose rank among all subsets of the following points is below r (or
  // at most r, `inclusive`). Both orders are colex and the candidates keep their order, so an item's
  // ranks [b, e) hold exactly the candidate subsets [candidate_rank(b), candidate_rank(e - 1, true)).
  // Reads only candidates up to the largest element of subset r.
  SUBSCALE_HD std::uint64_t candidate_rank(std::uint64_t r, std::uint32_t following, bool inclusive) const {
    const std::uint32_t k = k_(), kept = scratch.candidates();
    std::uint32_t c[64];
    combinadic::unrank(space.binomials, r, following, k, c);
    std::uint64_t below_r = 0;
    for (std::uint32_t t = k; t-- > 0;) {
      // Candidates before element c[t]: a subset agreeing above t and smaller at t is smaller.
      std::uint32_t lo = 0, hi = kept;
      while (lo < hi) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (scratch.candidate_origin(mid) < c[t])
          lo = mid + 1;
        else
          hi = mid;
      }
      below_r += space.binomials(lo, t + 1);
      if (lo == kept || scratch.candidate_origin(lo) != c[t]) return below_r;
    }
    return below_r + (inclusive ? 1 : 0);
  }

  // Walks the item's ranks and calls emit() for each unit with j = min D(U) and |D(U)| >= 2: its
  // mask (D(U) without j) is scratch.mask(k, .), its points scratch.point(0 .. k). A device warp's
  // one-word and tie-column leaf runs instead hand a word of leaves at a time to
  // emit.slot_group, in all 32 lanes at once.
  //
  // An emitter with covers(level, bound) and additions() (when asked to) may have
  // subtrees passed over: covers says whether every unit below the prefix of `level`, whose other
  // elements lie among the candidates before `bound`, would add no point to its subspace, and
  // additions() counts the points it added so far. A prefix is asked when it is made, and a
  // top-level prefix again before each of its children once points were added since it was last
  // asked (the units found below it may have completed what it lacked). The bound counts the
  // window's candidates, so only a walk that keeps them asks. Those units are then not
  // emitted, so counts.emitted no longer counts every unit in two or more dimensions.
  template <class Emit>
  SUBSCALE_HD DirectWalkCounts walk(const DirectWorkItem& item, Emit&& emit) {
    DirectWalkCounts counts;
    const std::uint32_t k = k_();
    const std::uint32_t i = static_cast<std::uint32_t>(item.window % space.points);
    j = static_cast<std::uint32_t>(item.window / space.points);
    j_word = j / 64;
    j_bit = std::uint64_t{1} << (j % 64);
    const std::uint32_t* order = space.sorted + static_cast<std::uint64_t>(j) * space.points;
    std::uint32_t following = space.window_end[item.window] - i - 1;  // elements to choose from
    const std::uint32_t* following_points = order + i + 1;
    scratch.point(0) = order[i];
    ++prefix_epoch;
    ++top_epoch;
    start_mask();
    // Every element of the item's subsets lies below its last unit's largest one.
    const bool pairs = scratch.keeps_pairs(following);
    std::uint64_t rank_begin = item.rank_begin, rank_end = item.rank_end;
    if (pairs) {
      keep_candidates(item.window, following_points, last_top(item, following) + 1);
      rank_begin = candidate_rank(item.rank_begin, following, false);
      rank_end = candidate_rank(item.rank_end - 1, following, true);
      if (rank_begin == rank_end) return counts;
      following = scratch.candidates();
      following_points = scratch.candidate_points();
    }
    std::uint32_t c[64];
    combinadic::unrank(space.binomials, rank_begin, following, k, c);
    for (std::uint32_t t = 0; t < k; ++t) scratch.subset(t) = c[t];
    std::uint64_t rank = rank_begin;
    std::uint32_t valid = 0;         // levels 1 .. valid hold masks of the current prefix
    std::uint64_t top_asked_at = 0;  // emit.additions() when the top-level prefix was last asked
    while (true) {
      // Descend to the level above the leaves: level L fixes subset(k - L).
      std::uint32_t s = 0;  // the subset index whose subtree is left behind
      bool pruned = false;
      if constexpr (CoveringEmitter<Emit>) {
        if (pairs && valid >= 1 && k >= 3 && emit.additions() != top_asked_at &&
            scratch.subset(k - 1) >= kCoverAtLeast) {
          top_asked_at = emit.additions();
          if (emit.covers(1, scratch.subset(k - 1))) {
            ++counts.covered;
            s = k - 1;
            pruned = true;
          }
        }
      }
      while (!pruned && valid + 1 < k) {
        const std::uint32_t level = valid + 1;
        const std::uint32_t e = k - level;
        scratch.point(level) = following_points[scratch.subset(e)];
        narrow(level, pairs, scratch.subset(e), true);
        if (scratch.lane() == 0) ++counts.nodes;  // lanes that share an item walk its prefixes alike
        ++prefix_epoch;
        if (level == 1) ++top_epoch;
        if (!has_higher(level)) {
          s = e;
          pruned = true;
          break;
        }
        if constexpr (CoveringEmitter<Emit>) {
          if (level == 1) top_asked_at = emit.additions();
          const std::uint32_t at_least = level + 1 == k ? kCoverLeavesAtLeast : kCoverAtLeast;
          if (pairs && scratch.subset(e) >= at_least && emit.covers(level, scratch.subset(e))) {
            ++counts.covered;
            s = e;
            pruned = true;
            break;
          }
        }
        valid = level;
      }
      std::uint64_t next;
      if (pruned) {
        next = prefix_rank(s) + space.binomials(scratch.subset(s), s);
      } else {
        // The leaves: subset(0) runs up to the element above it, or to the item's end.
        const std::uint32_t limit = k > 1 ? scratch.subset(1) : following;
        std::uint64_t run = limit - scratch.subset(0);
        if (run > rank_end - rank) run = rank_end - rank;
        const auto from = scratch.subset(0), to = static_cast<std::uint32_t>(from + run);
        leaf_run(following_points, pairs, from, to, counts, emit);
        scratch.subset(0) = to - 1;
        next = rank + run;
      }
      if (next >= rank_end) break;
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

}  // namespace subscale::dense_units::direct

// The members that only a warp or only the host's scratch runs, defined apart from the core above.
#include "stages/dense_units/direct/direct_host_leaves.hpp"
#include "stages/dense_units/direct/direct_warp_leaves.hpp"
