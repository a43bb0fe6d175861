#pragma once
// CoreParams for a core test: epsilon, min_points, the mode and the key seed; everything else keeps
// CoreParams' defaults (the CPU backend, an automatic memory budget).
#include <cstdint>

#include "stages/core/core_types.hpp"

namespace subscale::testing {

inline CoreParams core_params(double epsilon, std::uint32_t min_points, TableMode mode = TableMode::signature,
                              std::uint64_t seed = 0) {
  CoreParams params;
  params.epsilon = epsilon;
  params.min_points = min_points;
  params.units.mode = mode;
  params.units.seed = seed;
  return params;
}

// The same with direct mode walking and counting every unit (no covered subtree passed over), for
// tests that compare the count of units in two or more dimensions.
inline CoreParams counting(CoreParams params) {
  params.units.direct_count_units = true;
  return params;
}

}  // namespace subscale::testing
