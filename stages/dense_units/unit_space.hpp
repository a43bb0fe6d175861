#pragma once
// The flat arrays behind enumeration::UnitSpaceView, built on the host from the plan, the 1-D
// orders and the keys; the GPU backend copies them to the device as they are.
#include <cstdint>
#include <vector>

#include "stages/dense_units/enumeration/unit_walker.hpp"
#include "stages/dense_units/table/signature_keys.hpp"
#include "stages/dense_units/unit_plan.hpp"

namespace subscale {

// Every dimension's 1-D order (point id at sorted position i of j) in one array, dimension after
// dimension, as the device resolver and direct mode's walk read it.
std::vector<std::uint32_t> flat_orders(const Density1dResult& density, std::uint32_t points);

struct UnitSpaceArrays {
  std::vector<std::uint64_t> window_start;
  std::vector<std::uint32_t> window_end;
  std::vector<std::uint64_t> sorted_keys;

  UnitSpaceArrays(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys);
  // A view over these host arrays (the GPU backend makes one over its device copies).
  enumeration::UnitSpaceView view(const UnitPlan& plan) const;
};

}  // namespace subscale
