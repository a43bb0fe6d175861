#pragma once
// What run_core does differently for each mode, chosen in one place (core_mode_for): when
// `automatic` runs dense_units on the GPU, the mode's share of the plan step, and the
// dense_units and subspaces steps.
#include <chrono>
#include <cstdint>
#include <memory>

#include "common/held_values.hpp"
#include "stages/core/core_types.hpp"

namespace subscale::core {

class CoreMode {
 public:
  virtual ~CoreMode() = default;
  // Whether `automatic` walks the units on the GPU, once plan() has run.
  virtual bool gpu_worthwhile(const UnitPlan&, const CoreResult&) const = 0;
  // The mode's part of the plan step; `estimate` asks for the memory plan said before the walk
  // (not wanted when an executor walks the units).
  virtual void plan(HeldMatrixRef, const UnitPlan&, const CoreParams&, bool /*estimate*/, CoreResult&) {}
  // Direct mode's space once plan() has built it; nullptr for the other modes.
  virtual const DirectSpace* direct_space() const { return nullptr; }
  // dense_units then subspaces; `start` is when the dense_units step began (its timing).
  virtual void run(const CoreStepInputs& inputs, std::chrono::steady_clock::time_point start,
                   CoreResult& result) const = 0;
};

std::unique_ptr<CoreMode> direct_core_mode();
std::unique_ptr<CoreMode> table_core_mode();  // signature and exact: the stage's table is the difference

inline std::unique_ptr<CoreMode> core_mode_for(TableMode mode) {
  return mode == TableMode::direct ? direct_core_mode() : table_core_mode();
}

}  // namespace subscale::core
