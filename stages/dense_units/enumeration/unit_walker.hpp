#pragma once
// The GPU's enumeration of dense units (docs/method.md §4), written for host and device alike so that its
// logic is tested on the CPU against the CPU enumerator. A thread takes a run of consecutive flat
// indices, finds its first window by binary search, unranks its first subset once and then
// steps in colex order, keeping the signature as a running sum.
#include <cstdint>

#include "common/host_device.hpp"
#include "stages/dense_units/enumeration/combinadic.hpp"

namespace subscale::enumeration {

// The largest m - 1 the walker handles (its subset lives in a fixed-size array).
inline constexpr std::uint32_t kMaxWalkerK = 15;

// Flat arrays over all windows w = j * points + i (dimension j, sorted position i).
struct UnitSpaceView {
  const std::uint64_t* window_start = nullptr;  // windows + 1: flat index of window w's first unit
  const std::uint32_t* window_end = nullptr;    // windows: end position h of window w (exclusive)
  const std::uint64_t* sorted_keys = nullptr;   // windows: key of the point at position i of dimension j
  combinadic::BinomialTable binomials;
  // Optional: bucket_window[b] is the window of flat index b << bucket_shift (the last bucket's
  // successor holds the last window), so a search starts from a bucket's few windows.
  const std::uint64_t* bucket_window = nullptr;
  std::uint32_t bucket_shift = 0;
  std::uint32_t points = 0;
  std::uint32_t dimensions = 0;
  std::uint32_t k = 0;  // m - 1

  SUBSCALE_HD std::uint64_t windows() const { return static_cast<std::uint64_t>(points) * dimensions; }
};

// The window holding flat index `flat`: the last w with window_start[w] <= flat (empty windows
// share their start with the next one, so this skips them).
SUBSCALE_HD std::uint64_t window_of(const UnitSpaceView& space, std::uint64_t flat) {
  std::uint64_t lo = 0, hi = space.windows();  // window_start[lo] <= flat < window_start[hi]
  if (space.bucket_window) {
    const std::uint64_t bucket = flat >> space.bucket_shift;
    lo = space.bucket_window[bucket];
    hi = space.bucket_window[bucket + 1] + 1;
  }
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (space.window_start[mid] <= flat)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// visit(flat, signature) for the units with flat index in [begin, end) that fall to walker `lane`
// of Lanes walkers going through the range in step: every run of the lowest element is dealt out
// among them, so together they visit each unit once, and neighbouring walkers read neighbouring
// keys (coalesced loads on a GPU, where the walkers are the lanes of a warp). K, when not 0, is
// space.k known at compile time: the subset then lives in registers and its loops unroll.
template <std::uint32_t K = 0, std::uint32_t Lanes = 1, class Visit>
SUBSCALE_HD void walk_units_dealt(const UnitSpaceView& space, std::uint64_t begin, std::uint64_t end,
                                  std::uint32_t lane, Visit&& visit) {
  static_assert(K <= kMaxWalkerK);
  if (begin >= end) return;
  const std::uint32_t k = K != 0 ? K : space.k;
  std::uint32_t c[K != 0 ? K : kMaxWalkerK];
  std::uint64_t w = window_of(space, begin);
  std::uint64_t rank = begin - space.window_start[w];
  std::uint64_t flat = begin;
  while (flat < end) {
    const std::uint32_t i = static_cast<std::uint32_t>(w % space.points);
    const std::uint32_t following = space.window_end[w] - i - 1;
    const std::uint64_t* keys = space.sorted_keys + w + 1;
    const std::uint64_t lowest = space.sorted_keys[w];
    std::uint64_t remaining = space.window_start[w + 1] - space.window_start[w] - rank;
    combinadic::unrank(space.binomials, rank, following, k, c);
    while (true) {
      std::uint64_t base = lowest;
      for (std::uint32_t t = 1; t < k; ++t) base += keys[c[t]];
      const std::uint32_t limit = k > 1 ? c[1] : following;
      // The lowest element runs up to the next one; one count bounds the loop, so its body is
      // only the visit.
      std::uint64_t count = limit - c[0];
      if (count > remaining) count = remaining;
      if (count > end - flat) count = end - flat;
      const std::uint64_t* run_keys = keys + c[0];
      for (std::uint32_t t = lane; t < static_cast<std::uint32_t>(count); t += Lanes)
        visit(flat + t, base + run_keys[t]);
      flat += count;
      remaining -= count;
      if (remaining == 0 || flat >= end) break;
      c[0] = limit - 1;
      combinadic::next_colex(c, k, following);
    }
    // Next window with units; empty ones share their start with their successor.
    do {
      ++w;
    } while (flat < end && space.window_start[w + 1] == space.window_start[w]);
    rank = 0;
  }
}

// visit(flat, signature) for every unit with flat index in [begin, end), by one walker.
template <std::uint32_t K = 0, class Visit>
SUBSCALE_HD void walk_units(const UnitSpaceView& space, std::uint64_t begin, std::uint64_t end, Visit&& visit) {
  walk_units_dealt<K, 1>(space, begin, end, 0, visit);
}

}  // namespace subscale::enumeration
