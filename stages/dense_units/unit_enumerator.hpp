#pragma once
// Enumerates the dense units of a contiguous range of flat indices on the CPU (docs/method.md §4). The
// first unit of the range is found by unranking; the rest follow by colex stepping, with the
// signature kept as a running sum so that the innermost loop costs one add per unit. Ranges are
// cut by flat index, not by window, so one huge window does not leave a core idle.
#include <cstdint>
#include <vector>

#include "stages/dense_units/enumeration/combinadic.hpp"
#include "stages/dense_units/unit_plan.hpp"

namespace subscale {

// What a visitor sees of a unit: its flat index, dimension, the sorted position of its lowest
// member, the positions (relative to position + 1) of the other m - 1 members, and the running
// sum of the primary keys.
struct UnitView {
  std::uint64_t flat;
  std::uint32_t dimension;
  std::uint32_t position;
  const std::uint32_t* subset;  // m - 1 ascending offsets; member t is at position + 1 + subset[t]
  std::uint64_t signature;
};

// visit(const UnitView&) for every unit with flat index in [begin, end).
template <class Visitor>
void enumerate_units(const UnitPlan& plan, const Density1dResult& density, const std::uint64_t* keys,
                     std::uint64_t begin, std::uint64_t end, Visitor&& visit) {
  if (begin >= end) return;
  const std::uint32_t k = plan.min_points() - 1;
  const auto table = plan.binomials();
  const UnitLocation start = plan.locate(begin);
  std::vector<std::uint32_t> subset(k);
  std::vector<std::uint64_t> window_keys;
  std::uint64_t flat = begin;
  std::uint64_t rank = start.rank;
  for (std::uint32_t j = start.dimension; flat < end; ++j, rank = 0) {
    const auto& dimension = density.dimensions[j];
    const std::uint32_t n = plan.points();
    const std::uint64_t* offsets = plan.window_offsets(j);
    for (std::uint32_t i = (j == start.dimension ? start.position : 0); i < n && flat < end; ++i, rank = 0) {
      const std::uint64_t count = offsets[i + 1] - offsets[i];
      if (count == 0) continue;
      const std::uint32_t following = dimension.window_end[i] - i - 1;
      window_keys.resize(following);
      for (std::uint32_t t = 0; t < following; ++t) window_keys[t] = keys[dimension.order[i + 1 + t]];
      combinadic::unrank(table, rank, following, k, subset.data());
      const std::uint64_t lowest_key = keys[dimension.order[i]];
      std::uint64_t remaining = count - rank;
      UnitView view{flat, j, i, subset.data(), 0};
      while (true) {
        std::uint64_t base = lowest_key;
        for (std::uint32_t t = 1; t < k; ++t) base += window_keys[subset[t]];
        const std::uint32_t limit = k > 1 ? subset[1] : following;
        for (std::uint32_t c0 = subset[0]; c0 < limit && remaining > 0 && flat < end; ++c0) {
          subset[0] = c0;
          view.flat = flat;
          view.signature = base + window_keys[c0];
          visit(view);
          ++flat;
          --remaining;
        }
        if (remaining == 0 || flat >= end) break;
        subset[0] = limit - 1;
        combinadic::next_colex(subset.data(), k, following);
      }
    }
  }
}

// The point ids of a unit, in sorted-position order (ascending value).
inline void unit_points(const DimensionDensity& dimension, std::uint32_t position, const std::uint32_t* subset,
                        std::uint32_t k, std::uint32_t* out) {
  out[0] = dimension.order[position];
  for (std::uint32_t t = 0; t < k; ++t) out[t + 1] = dimension.order[position + 1 + subset[t]];
}

}  // namespace subscale
