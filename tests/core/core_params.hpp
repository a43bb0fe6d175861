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

}  // namespace subscale::testing
