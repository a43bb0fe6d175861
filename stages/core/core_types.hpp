#pragma once
// What the core's steps (density1d -> plan -> dense_units -> subspaces) take and give, shared by
// stages/core/core.hpp's run_core, which composes them, and by distributed/, whose executor
// runs dense_units and subspaces over several processes in run_core's place.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/backend.hpp"
#include "common/held_values.hpp"
#include "common/subspace_cluster.hpp"
#include "gpu/execution_context.hpp"
#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/direct/direct_memory_plan.hpp"
#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/density1d/density1d.hpp"

namespace subscale {

struct CoreParams {
  double epsilon = 0;
  std::uint32_t min_points = 0;
  DenseUnitsParams units;
  Backend backend = Backend::cpu;
  std::uint64_t device_bytes = 0;  // the GPU stages' memory budget (gpu/device_budget.hpp); 0: automatic
};

struct CoreTimings {
  double density1d_seconds = 0, plan_seconds = 0, dense_units_seconds = 0, subspaces_seconds = 0;
};

struct CoreResult {
  Density1dResult density;
  bool density1d_on_gpu = false;
  std::vector<std::uint64_t> units_per_dimension;
  std::uint64_t total_units = 0;
  std::uint64_t largest_window_units = 0;  // dense units of the fullest single window
  Backend backend_used = Backend::cpu;
  // Direct mode's host memory plan, made before dense_units starts (absent with a CoreExecutor).
  std::optional<DirectMemoryPlan> direct_memory;
  // The sample of the walk that plan came from: units walked and seconds taken (a rate for a time
  // estimate); 0 units without one.
  double direct_sample_units = 0, direct_sample_seconds = 0;
  DenseUnitsResult dense_units;
  std::vector<SubspaceCluster> subspaces;
  CoreTimings timings;
};

// Called as each step starts, with its name and the result so far (the finished steps' parts are
// filled in), so a caller can report on the step that just ended; may be empty.
using StepListener = std::function<void(const std::string& step, const struct CoreResult& so_far)>;

// What dense_units and subspaces start from, for a CoreExecutor.
struct CoreStepInputs {
  HeldMatrixRef values;
  const UnitPlan& plan;
  const CoreParams& params;
  const UnitProgress& on_units;
  std::function<void(const char* step)> notify;  // to be called with "subspaces" between the two
  const DirectSpace* direct_space = nullptr;     // direct mode's space, built once by run_core
  gpu::ExecutionContext gpu;                     // for the GPU stages (result.backend_used cuda)
};

// Runs dense_units and subspaces in place of run_core's own steps (a cluster run deals the work
// out to processes and records it in a checkpoint); fills result.dense_units and result.subspaces.
// result.backend_used says where the units are to be walked.
using CoreExecutor = std::function<void(const CoreStepInputs& inputs, CoreResult& result)>;

}  // namespace subscale
