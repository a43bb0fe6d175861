#include "pipeline/core_pipeline.hpp"

#include <chrono>
#include <optional>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/execution_stream.hpp"
#include "stages/dense_units/dense_units_backend.hpp"
#include "stages/density1d/density1d_cuda.hpp"
#include "stages/subspaces/signature_subspaces.hpp"

namespace subscale::pipeline {

void validate_core_params(const CoreParams& params, std::size_t points) {
  if (!(params.epsilon > 0)) throw UsageError("epsilon must be > 0 (it is " + std::to_string(params.epsilon) + ")");
  if (params.min_points < 2)
    throw UsageError("min_points must be >= 2 (it is " + std::to_string(params.min_points) + ")");
  if (params.min_points > points)
    throw UsageError("min_points (" + std::to_string(params.min_points) + ") is larger than the number of points (" +
                     std::to_string(points) + "); no dense unit can exist");
  if (params.min_points > 64) throw UsageError("min_points above 64 is not supported");
}

std::uint64_t largest_window_units(const UnitPlan& plan) {
  return plan.largest_window() > 0 ? plan.binomials()(plan.largest_window() - 1, plan.min_points() - 1) : 0;
}

namespace {

// Direct mode: the walk fills a subspace map itself, so the subspaces stage is only the hand-over
// into the sorted list.
template <class Notify>
void run_direct_core(const DirectSpace& space, const UnitPlan& plan, const CoreParams& params,
                     const UnitProgress& on_units, Notify&& notify, CoreResult& result,
                     const gpu::ExecutionContext& gpu) {
  auto start = std::chrono::steady_clock::now();
  direct::DirectWalkOutput walked{direct::DirectSubspaceMap(space.key_words(), space.point_words())};
  result.dense_units = walk_direct_units(space, plan, params.units, result.backend_used, walked, on_units, {}, gpu);
  result.timings.dense_units_seconds = seconds_since(start);
  start = std::chrono::steady_clock::now();
  notify("subspaces");
  result.subspaces = std::move(walked).to_subspaces();
  result.timings.subspaces_seconds = seconds_since(start);
}

}  // namespace

template <class T>
CoreResult run_core(const ColumnMatrix<T>& values, const CoreParams& params, const StepListener& on_step,
                    const UnitProgress& on_units, const CoreExecutor& executor) {
  validate_core_params(params, static_cast<std::size_t>(values.rows()));
  CoreResult result;
  auto notify = [&](const char* step) {
    if (on_step) on_step(step, result);
  };
  // One stream for every GPU stage of the run, made when the first of them starts.
  gpu::ExecutionStream gpu_stream;
  const auto on_gpu = [&] { return gpu_stream.context(params.device_bytes); };
  auto start = std::chrono::steady_clock::now();
  notify("density1d");
  // density1d runs on the GPU only where it pays: the copies outweigh the CPU's sort on small
  // inputs (bench/core/density1d_bench measures where the GPU starts to win).
  const bool wants_gpu = params.backend == Backend::cuda ||
                         (params.backend == Backend::automatic && gpu::automatic_backend() == Backend::cuda);
  result.density1d_on_gpu = wants_gpu && static_cast<std::uint64_t>(values.size()) >= kGpuDensityValues;
  result.density = result.density1d_on_gpu
                       ? run_density1d_gpu(values, {params.epsilon, params.min_points}, {}, on_gpu())
                       : run_density1d(values, {params.epsilon, params.min_points});
  result.timings.density1d_seconds = seconds_since(start);

  start = std::chrono::steady_clock::now();
  notify("plan");
  const UnitPlan plan(result.density, params.min_points);
  result.total_units = plan.total_units();
  result.largest_window_units = largest_window_units(plan);
  for (std::uint32_t j = 0; j < plan.dimensions(); ++j)
    result.units_per_dimension.push_back(plan.units_in_dimension(j));

  // Direct mode's space is built before dense_units so that its memory plan (from the same sample
  // of the walk as `plan` prints: at most 512 stretches of 1024 units) is said before the walk.
  std::optional<DirectSpace> direct_space;
  if (params.units.mode == TableMode::direct) {
    direct_space.emplace(values, plan, result.density, params.epsilon);
    if (!executor) {
      const auto sampled = std::chrono::steady_clock::now();
      const DirectWalkEstimate estimate = estimate_direct_walk(*direct_space, plan);
      result.direct_sample_seconds = seconds_since(sampled);
      result.direct_sample_units = static_cast<double>(estimate.sampled_units);
      result.direct_memory = plan_direct_memory(*direct_space, estimate);
    }
  }
  result.timings.plan_seconds = seconds_since(start);

  start = std::chrono::steady_clock::now();
  notify("dense_units");
  result.backend_used = params.backend;
  if (params.backend == Backend::automatic) {
    const std::uint64_t worthwhile =
        params.units.mode == TableMode::direct ? kGpuWorthwhileDirectUnits : kGpuWorthwhileUnits;
    result.backend_used = plan.total_units() >= worthwhile ? gpu::automatic_backend() : Backend::cpu;
  }
  const gpu::ExecutionContext gpu = result.backend_used == Backend::cuda ? on_gpu() : gpu::ExecutionContext{};
  if (executor) {
    executor({&values, plan, params, on_units, notify, direct_space ? &*direct_space : nullptr, gpu}, result);
    return result;
  }
  if (params.units.mode == TableMode::direct) {
    run_direct_core(*direct_space, plan, params, on_units, notify, result, gpu);
    return result;
  }
  // Units stream from dense_units into the subspaces accumulator partition by partition; the
  // time spent accumulating is counted as the subspaces stage's.
  SubspaceAccumulator accumulator(plan.points());
  double accumulate_seconds = 0;
  result.dense_units = accumulate_dense_units(plan, result.density, params.units, result.backend_used, on_units,
                                              accumulator, accumulate_seconds, gpu);
  result.timings.dense_units_seconds = seconds_since(start) - accumulate_seconds;

  start = std::chrono::steady_clock::now();
  notify("subspaces");
  result.subspaces = accumulator.finish();
  result.timings.subspaces_seconds = seconds_since(start) + accumulate_seconds;
  return result;
}

template CoreResult run_core(const Matrix32&, const CoreParams&, const StepListener&, const UnitProgress&,
                             const CoreExecutor&);
template CoreResult run_core(const Matrix&, const CoreParams&, const StepListener&, const UnitProgress&,
                             const CoreExecutor&);

}  // namespace subscale::pipeline
