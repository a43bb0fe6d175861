#pragma once
// The members of DirectWalker (direct_walker.hpp) that a device warp runs with all its lanes at
// once (Scratch::kLanes == 32): the window's candidates kept 32 following points at a time, and the
// leaf runs in which the lanes share the prefix, test 32 leaves together and hand the units that
// share D(U) to the emitter as one group (emit.slot_group), so that they do not diverge. Device
// code only. direct_walker.hpp includes this at its end, so that every user of the walker has them.
#include <cstdint>

#include "common/host_device.hpp"
#include "stages/dense_units/direct/direct_walker.hpp"

namespace subscale::dense_units::direct {

#if defined(__CUDA_ARCH__)

// keep_candidates for a warp: 32 following points at a time, each lane's mask written to the
// point's own row, then the kept rows moved down to the candidates' places in order (a ballot
// gives each its place). A row only ever moves down, and every lane reads a word before any
// lane writes that word, so no row is overwritten before it is read.
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
__device__ inline void DirectWalker<Scratch, T, kWords, kK>::keep_candidates_warp(std::uint64_t window,
                                                                                  const std::uint32_t* following_points,
                                                                                  std::uint32_t scanned,
                                                                                  std::uint32_t needed,
                                                                                  std::uint32_t kept) {
  constexpr unsigned kAll = 0xffffffffu;
  const std::uint32_t lane = scratch.lane();
  for (std::uint32_t base = scanned; base < needed; base += 32) {
    const std::uint32_t e = base + lane;
    const bool keep = e < needed && pair_above_j(e, following_points[e]);
    const unsigned ballot = __ballot_sync(kAll, keep);
    const std::uint32_t to = kept + static_cast<std::uint32_t>(__popc(ballot & ((1u << lane) - 1)));
    for (std::uint32_t w = 0; w < words(); ++w) {
      const std::uint64_t word = keep ? scratch.pair(e, w) : 0;
      __syncwarp();
      if (keep) scratch.pair(to, w) = word;
    }
    if (keep) {
      scratch.candidate_point(to) = following_points[e];
      scratch.candidate_origin(to) = e;
    }
    kept += static_cast<std::uint32_t>(__popc(ballot));
    __syncwarp();
  }
  scratch.set_pairs_filled(window, needed, kept);
  // The candidates changed: every column is built again when a leaf run next needs it.
  for (std::uint32_t w = lane; w < words(); w += 32) scratch.columns_built(w) = 0;
  __syncwarp();
}

// leaf_run_one_word for a warp whose 32 lanes share the prefix: lane l holds the prefix's value
// range in dimensions l and l + 32, and every lane tests its leaf against one dimension at a time,
// the same dimension in all lanes (taken from the union of their candidates), with the range
// fetched by a shuffle. The lanes stay together instead of each running its own loop over its own
// candidates, and a test reads one value where it read k + 1. The lanes whose units share D(U)
// go out as one group (emit.slot_group), whose pattern is D(U) without j.
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
template <class Emit>
__device__ inline void DirectWalker<Scratch, T, kWords, kK>::leaf_run_one_word_warp(
    const std::uint32_t* following_points, std::uint32_t from, std::uint32_t to, DirectWalkCounts& counts,
    Emit&& emit) {
  constexpr unsigned kAll = 0xffffffffu;
  const std::uint32_t k = k_(), d = space.dimensions, lane = scratch.lane();
  T low[2], high[2];
  for (std::uint32_t half = 0; half < 2; ++half) {
    const std::uint32_t dim = lane + 32 * half;
    low[half] = high[half] = 0;
    if (dim >= d) continue;
    low[half] = high[half] = space.rows[static_cast<std::uint64_t>(scratch.point(0)) * d + dim];
    for (std::uint32_t t = 1; t < k; ++t) {
      const T v = space.rows[static_cast<std::uint64_t>(scratch.point(t)) * d + dim];
      low[half] = v < low[half] ? v : low[half];
      high[half] = v > high[half] ? v : high[half];
    }
  }
  const std::uint64_t parent = scratch.mask(k - 1, 0), below_j = j_bit - 1, above_j = ~(j_bit | below_j);
  const std::uint64_t ties = space.tie_dimensions[0];
  emit.begin_slot_run();
  // Lane l takes leaf 32 b + l, so that the lanes' leaves are one word of the emitter's slots.
  for (std::uint32_t base = from / 32 * 32; base < to; base += 32) {
    const std::uint32_t q = base + lane;
    std::uint64_t candidates = 0, tied = 0;  // tied: candidates that hold without a value read
    const T* row = space.rows;
    if (q >= from && q < to) {
      ++counts.nodes;
      candidates = parent & scratch.pair(q, 0);
      if ((candidates & above_j) == 0 || (candidates & ties & below_j) != 0) candidates = 0;
      tied = candidates & ties;
      candidates &= ~ties;
      row += static_cast<std::uint64_t>(following_points[q]) * d;
    }
    // Kept bits among `dims` (the same in every lane) of this lane's candidates.
    auto kept_of = [&](std::uint64_t dims) {
      std::uint64_t kept = 0;
      for (; dims != 0; dims &= dims - 1) {
        const auto dim = static_cast<std::uint32_t>(count_trailing_zeros(dims));
        // A select, not low[dim / 32]: an array indexed at run time would live in local memory.
        const T lo = __shfl_sync(kAll, dim < 32 ? low[0] : low[1], dim % 32);
        const T hi = __shfl_sync(kAll, dim < 32 ? high[0] : high[1], dim % 32);
        if ((candidates >> dim & 1) == 0) continue;
        const T v = row[dim];
        if (spans_less_than(v < lo ? v : lo, v > hi ? v : hi, space.epsilon)) kept |= std::uint64_t{1} << dim;
      }
      return kept;
    };
    if (kept_of(or_across_warp(candidates & below_j)) != 0) candidates = tied = 0;  // a lower dimension's unit
    const std::uint64_t kept = (tied & above_j) | kept_of(or_across_warp(candidates & above_j));
    // Every lane: the lanes whose units share D(U) go into one slot together.
    counts.emitted += emit.slot_group(kept != 0, kept, base / 32);
  }
}

// leaf_run_one_word_warp from the pair table: a leaf's D(U) without j is the prefix's mask ANDed
// with the leaf's pair mask with p_i and its words with the prefix's other points (narrow_by_pairs
// says why), a load each and no value read; lane l takes leaf 32 b + l as there.
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
template <class Emit>
__device__ inline void DirectWalker<Scratch, T, kWords, kK>::leaf_run_pairs_warp(const std::uint32_t* following_points,
                                                                                 std::uint32_t from, std::uint32_t to,
                                                                                 DirectWalkCounts& counts,
                                                                                 Emit&& emit) {
  const std::uint32_t k = k_(), lane = scratch.lane();
  const std::uint64_t parent = scratch.mask(k - 1, 0), below_j = j_bit - 1, above_j = ~(j_bit | below_j);
  with_pair_words([&](const auto* table) {
    // The rows of the prefix's points after p_i: those of m = 4 (k = 3) in registers, so that a
    // leaf's loads all go out at once.
    const auto* first_row = k >= 2 ? table + std::uint64_t{scratch.point(1)} * space.points : nullptr;
    const auto* second_row = k >= 3 ? table + std::uint64_t{scratch.point(2)} * space.points : nullptr;
    emit.begin_slot_run();
    for (std::uint32_t base = from / 32 * 32; base < to; base += 32) {
      const std::uint32_t q = base + lane;
      std::uint64_t kept = 0;
      if (q >= from && q < to) {
        ++counts.nodes;
        const std::uint32_t p = following_points[q];
        kept = parent & scratch.pair(q, 0);
        // Read whatever the pair mask says: waiting for it before the rows' loads cost more (S5500
        // 1.171 against 1.150 s) than the loads it saves.
        std::uint64_t rows = k >= 2 ? first_row[p] : ~std::uint64_t{0};
        if (k >= 3) rows &= second_row[p];
        for (std::uint32_t t = 3; t < k; ++t) rows &= table[std::uint64_t{scratch.point(t)} * space.points + p];
        kept &= rows;
        if ((kept & below_j) != 0 || (kept & above_j) == 0) kept = 0;  // a lower dimension's unit, or none
      }
      counts.emitted += emit.slot_group(kept != 0, kept, base / 32);
    }
  });
}

// The leaves of a prefix whose live dimensions are all tie dimensions, on a warp that keeps the
// candidates' columns (one bit a candidate: its pair bit with p_i in that dimension). A leaf's
// D(U) is then j plus the live dimensions its pair bit keeps, and no value is read: lane l takes
// leaf 32 b + l, reads one column word a live dimension, and the lanes whose leaves share D(U)
// go out as one group (emit.slot_group). The group's pattern names dimensions by their place
// among the top level's (with a one-word mask, by the dimensions themselves, as
// leaf_run_one_word_warp's patterns do), so an emitter may key it by top_epoch. False, doing
// nothing, when a live dimension is not a tie dimension, or there are more than kTieLive of them,
// or one's place among the top level's is 64 or more.
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
template <class Emit>
__device__ inline bool DirectWalker<Scratch, T, kWords, kK>::leaf_run_tie_columns(std::uint32_t from, std::uint32_t to,
                                                                                  DirectWalkCounts& counts,
                                                                                  Emit&& emit) {
  const std::uint32_t k = k_(), words = this->words(), lane = scratch.lane();
  // Each live dimension as its column's offset << 7 | its place among the top level's << 1 | (below j).
  std::uint32_t live[kTieLive];
  std::uint32_t count = 0, places = 0, ranks = 0;  // ranks: tie dimensions in the words before w
  for (std::uint32_t w = 0; w < words; ++w) {
    const std::uint64_t top = scratch.mask(1, w), prefix = scratch.mask(k - 1, w), ties = space.tie_dimensions[w];
    if ((prefix & ~ties) != 0) return false;
    for (std::uint64_t bits = prefix; bits != 0; bits &= bits - 1) {
      const auto bit = static_cast<std::uint32_t>(count_trailing_zeros(bits));
      const std::uint32_t dim = w * 64 + bit;
      const std::uint32_t rank = ranks + static_cast<std::uint32_t>(__popcll(ties & ((std::uint64_t{1} << bit) - 1)));
      const std::uint64_t offset = std::uint64_t{rank} * scratch.column_words;
      // One word: the dimension itself, as leaf_run_one_word_warp's patterns, which share the cache.
      const std::uint32_t place =
          words == 1 ? bit : places + static_cast<std::uint32_t>(__popcll(top & ((std::uint64_t{1} << bit) - 1)));
      if (count == kTieLive || place >= 64 || offset >= (std::uint64_t{1} << 25)) return false;
      const std::uint32_t packed = static_cast<std::uint32_t>(offset) << 7 | place << 1 | (dim < j ? 1u : 0u);
#pragma unroll
      for (std::uint32_t t = 0; t < kTieLive; ++t)  // constant indices keep the array in registers
        if (t == count) live[t] = packed;
      ++count;
    }
    places += static_cast<std::uint32_t>(__popcll(top));
    ranks += static_cast<std::uint32_t>(__popcll(ties));
  }
  build_tie_columns(k - 1);
  emit.begin_slot_run();
  const std::uint32_t* columns = scratch.tie_columns();
  for (std::uint32_t b = from / 32; b * 32 < to; ++b) {
    std::uint64_t pattern = 0;
    bool above = false, below = false;
#pragma unroll
    for (std::uint32_t t = 0; t < kTieLive; ++t) {
      if (t >= count) break;
      if ((columns[(live[t] >> 7) + b] >> lane & 1) == 0) continue;
      pattern |= std::uint64_t{1} << (live[t] >> 1 & 63);
      ((live[t] & 1) != 0 ? below : above) = true;
    }
    const std::uint32_t q = b * 32 + lane;
    counts.emitted += emit.slot_group(q >= from && q < to && above && !below, pattern, b);
  }
  if (lane == 0) counts.nodes += to - from;
  return true;
}

// Columns of the live dimensions of `level` (tie dimensions all) over all candidates, for those
// not built since the candidates last changed: a ballot over 32 candidates' pair words a column word.
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
__device__ inline void DirectWalker<Scratch, T, kWords, kK>::build_tie_columns(std::uint32_t level) {
  const std::uint32_t lane = scratch.lane(), candidate_words = (scratch.candidates() + 31) / 32;
  // first_rank: the tie dimensions in the words before w (the first column of word w's).
  for (std::uint32_t w = 0, first_rank = 0; w < words();
       first_rank += static_cast<std::uint32_t>(__popcll(space.tie_dimensions[w])), ++w) {
    const std::uint64_t needed = scratch.mask(level, w) & ~scratch.columns_built(w);
    if (needed == 0) continue;
    const std::uint64_t ties = space.tie_dimensions[w];
    for (std::uint32_t b = 0; b < candidate_words; ++b) {
      const std::uint32_t c = b * 32 + lane;
      const std::uint64_t pair = c < scratch.candidates() ? scratch.pair(c, w) : 0;
      for (std::uint64_t bits = needed; bits != 0; bits &= bits - 1) {
        const auto bit = static_cast<std::uint32_t>(count_trailing_zeros(bits));
        const unsigned column = __ballot_sync(0xffffffffu, (pair >> bit & 1) != 0);
        const std::uint32_t rank =
            first_rank + static_cast<std::uint32_t>(__popcll(ties & ((std::uint64_t{1} << bit) - 1)));
        if (lane == 0) scratch.tie_column(rank, b) = column;
      }
    }
    __syncwarp();
    if (lane == 0) scratch.columns_built(w) |= needed;
    __syncwarp();
  }
}

// Writes the key of a group's pattern (places among the top level's dimensions; with a one-word
// mask, the dimensions themselves) to mask(k).
template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
__device__ inline void DirectWalker<Scratch, T, kWords, kK>::write_pattern_key(std::uint64_t pattern) {
  if (words() == 1) {
    scratch.mask(k_(), 0) = pattern;
    return;
  }
  std::uint32_t place = 0;
  for (std::uint32_t w = 0; w < words(); ++w) {
    std::uint64_t key = 0;
    for (std::uint64_t top = scratch.mask(1, w); top != 0; top &= top - 1, ++place)
      if ((pattern >> place & 1) != 0) key |= top & (~top + 1);
    scratch.mask(k_(), w) = key;
  }
}

template <class Scratch, class T, std::uint32_t kWords, std::uint32_t kK>
__device__ inline std::uint64_t DirectWalker<Scratch, T, kWords, kK>::or_across_warp(std::uint64_t word) {
  const unsigned low = __reduce_or_sync(0xffffffffu, static_cast<unsigned>(word));
  const unsigned high = __reduce_or_sync(0xffffffffu, static_cast<unsigned>(word >> 32));
  return std::uint64_t{high} << 32 | low;
}

#endif

}  // namespace subscale::dense_units::direct
