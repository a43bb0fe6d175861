#pragma once
// The core stages composed in order (density1d -> plan -> dense_units -> subspaces) over their
// public calls, for the runner, the tests and the benchmarks. Each step's output is kept so
// callers can report on it.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "common/held_values.hpp"
#include "common/subspace_cluster.hpp"
#include "gpu/execution_context.hpp"
#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/direct_memory_plan.hpp"
#include "stages/dense_units/direct_units.hpp"
#include "stages/density1d/density1d.hpp"

namespace subscale::pipeline {

enum class Backend { cpu, cuda, automatic };

const char* to_string(Backend backend);

// Dense units below which `automatic` stays on the CPU: the GPU's start-up and transfers cost
// more than they save on small plans.
inline constexpr std::uint64_t kGpuWorthwhileUnits = 20'000'000;
// The same for direct mode, whose CPU walk skips most units: on an H100 machine S1500 at eps 0.005
// (110 M units) took 0.05 s on 16 cores and 0.13 s on the GPU, S5500 at 0.005 (13 G) 0.67 s on the
// GPU and 11.7 s on 2 cores (bench/RESULTS.md); the crossing lies near a billion units.
inline constexpr std::uint64_t kGpuWorthwhileDirectUnits = 1'000'000'000;
// Values (points x dimensions) from which density1d runs on the GPU when the backend is cuda or
// automatic with a device (measured with bench/core/density1d_bench, see bench/RESULTS.md).
inline constexpr std::uint64_t kGpuDensityValues = 4'000'000;

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
  DenseUnitsResult dense_units;
  std::vector<SubspaceCluster> subspaces;
  CoreTimings timings;
};

// Checks the parameters against the data before any work (SPEC 2, issue 3's bad-input list).
void validate_core_params(const CoreParams& params, std::size_t points);

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
  gpu::ExecutionContext gpu;                     // for the GPU stages (result.backend_used cuda)
};

// Runs dense_units and subspaces in place of run_core's own steps (a cluster run deals the work
// out to processes and records it in a checkpoint); fills result.dense_units and result.subspaces.
// result.backend_used says where the units are to be walked.
using CoreExecutor = std::function<void(const CoreStepInputs& inputs, CoreResult& result)>;

// T is the held precision (float or double); every span is compared with epsilon in it.
template <class T>
CoreResult run_core(const ColumnMatrix<T>& values, const CoreParams& params, const StepListener& on_step = {},
                    const UnitProgress& on_units = {}, const CoreExecutor& executor = {});

// The single-process steps, for executors that run them on a share of the work: the direct walk
// of the units in `only` (all when empty) on result.backend_used, ORed into output.map (or, when
// output.list_on_device and the device held every subspace, listed into output.listed).
DenseUnitsResult walk_direct_units(const DirectSpace& space, const UnitPlan& plan, const CoreParams& params,
                                   Backend backend, direct::DirectWalkOutput& output, const UnitProgress& on_units,
                                   std::span<const UnitRange> only, const gpu::ExecutionContext& gpu);
// The signature or exact path on the partitions params.units selects; the subspaces found.
DenseUnitsResult group_signature_units(const UnitPlan& plan, const Density1dResult& density, const CoreParams& params,
                                       Backend backend, const UnitProgress& on_units,
                                       std::vector<SubspaceCluster>& subspaces, const gpu::ExecutionContext& gpu);

}  // namespace subscale::pipeline
