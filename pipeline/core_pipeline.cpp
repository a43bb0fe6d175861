#include "pipeline/core_pipeline.hpp"

#include <chrono>
#include <optional>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/execution_stream.hpp"
#include "stages/dense_units/dense_units_cuda.hpp"
#include "stages/dense_units/direct_units.hpp"
#include "stages/density1d/density1d_cuda.hpp"
#include "stages/subspaces/subspaces.hpp"

namespace subscale::pipeline {

const char* to_string(Backend backend) {
  switch (backend) {
    case Backend::cpu:
      return "cpu";
    case Backend::cuda:
      return "cuda";
    case Backend::automatic:
      return "auto";
  }
  return "?";
}

void validate_core_params(const CoreParams& params, std::size_t points) {
  if (!(params.epsilon > 0)) throw UsageError("epsilon must be > 0 (it is " + std::to_string(params.epsilon) + ")");
  if (params.min_points < 2)
    throw UsageError("min_points must be >= 2 (it is " + std::to_string(params.min_points) + ")");
  if (params.min_points > points)
    throw UsageError("min_points (" + std::to_string(params.min_points) + ") is larger than the number of points (" +
                     std::to_string(points) + "); no dense unit can exist");
  if (params.min_points > 64) throw UsageError("min_points above 64 is not supported");
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
  result.dense_units = walk_direct_units(space, plan, params, result.backend_used, walked, on_units, {}, gpu);
  result.timings.dense_units_seconds = seconds_since(start);
  start = std::chrono::steady_clock::now();
  notify("subspaces");
  result.subspaces = std::move(walked).to_subspaces();
  result.timings.subspaces_seconds = seconds_since(start);
}

}  // namespace

DenseUnitsResult walk_direct_units(const DirectSpace& space, const UnitPlan& plan, const CoreParams& params,
                                   Backend backend, direct::DirectWalkOutput& output, const UnitProgress& on_units,
                                   std::span<const UnitRange> only, const gpu::ExecutionContext& gpu) {
  return backend == Backend::cuda ? run_direct_units_gpu(space, plan, params.units, output, on_units, only, gpu)
                                  : run_direct_units_cpu(space, plan, output.map, on_units, only);
}

DenseUnitsResult group_signature_units(const UnitPlan& plan, const Density1dResult& density, const CoreParams& params,
                                       Backend backend, const UnitProgress& on_units,
                                       std::vector<SubspaceCluster>& subspaces, const gpu::ExecutionContext& gpu) {
  const SignatureKeys keys = make_signature_keys(plan.points(), params.units.keys, params.units.seed);
  SubspaceAccumulator accumulator(plan.points());
  const UnitSink sink = [&](const MaximalUnits& batch) { accumulator.add(batch); };
  const SubspaceSink subspace_sink = [&](const std::vector<SubspaceCluster>& found) { accumulator.add(found); };
  DenseUnitsResult result =
      backend == Backend::cuda
          ? run_dense_units_gpu(plan, density, keys, params.units, on_units, sink, subspace_sink, gpu)
          : run_dense_units_cpu(plan, density, keys, params.units, on_units, sink,
                                [&](std::span<const std::uint32_t> points, std::span<const std::uint32_t> dims) {
                                  accumulator.add_unit(points, dims);
                                });
  subspaces = accumulator.finish();
  return result;
}

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
  const bool wants_gpu =
      params.backend == Backend::cuda || (params.backend == Backend::automatic && gpu::query_device().available);
  result.density1d_on_gpu = wants_gpu && static_cast<std::uint64_t>(values.size()) >= kGpuDensityValues;
  result.density = result.density1d_on_gpu
                       ? run_density1d_gpu(values, {params.epsilon, params.min_points}, {}, on_gpu())
                       : run_density1d(values, {params.epsilon, params.min_points});
  result.timings.density1d_seconds = seconds_since(start);

  start = std::chrono::steady_clock::now();
  notify("plan");
  const UnitPlan plan(result.density, params.min_points);
  result.total_units = plan.total_units();
  result.largest_window_units =
      plan.largest_window() > 0 ? plan.binomials()(plan.largest_window() - 1, params.min_points - 1) : 0;
  for (std::uint32_t j = 0; j < plan.dimensions(); ++j)
    result.units_per_dimension.push_back(plan.units_in_dimension(j));

  // Direct mode's space is built before dense_units so that its memory plan (from the same sample
  // of the walk as `plan` prints: at most 512 stretches of 1024 units) is said before the walk.
  std::optional<DirectSpace> direct_space;
  if (params.units.mode == TableMode::direct && !executor) {
    direct_space.emplace(values, plan, result.density, params.epsilon);
    result.direct_memory = plan_direct_memory(*direct_space, estimate_direct_walk(*direct_space, plan));
  }
  result.timings.plan_seconds = seconds_since(start);

  start = std::chrono::steady_clock::now();
  notify("dense_units");
  result.backend_used = params.backend;
  if (params.backend == Backend::automatic) {
    const std::uint64_t worthwhile =
        params.units.mode == TableMode::direct ? kGpuWorthwhileDirectUnits : kGpuWorthwhileUnits;
    result.backend_used =
        plan.total_units() >= worthwhile && gpu::query_device().available ? Backend::cuda : Backend::cpu;
  }
  const gpu::ExecutionContext gpu = result.backend_used == Backend::cuda ? on_gpu() : gpu::ExecutionContext{};
  if (executor) {
    executor({&values, plan, params, on_units, notify, gpu}, result);
    return result;
  }
  if (params.units.mode == TableMode::direct) {
    run_direct_core(*direct_space, plan, params, on_units, notify, result, gpu);
    return result;
  }
  const SignatureKeys keys = make_signature_keys(plan.points(), params.units.keys, params.units.seed);
  // Units stream from dense_units into the subspaces accumulator partition by partition; the
  // time spent accumulating is counted as the subspaces stage's.
  SubspaceAccumulator accumulator(plan.points());
  double accumulate_seconds = 0;
  const UnitSink sink = [&](const MaximalUnits& batch) {
    const auto begin = std::chrono::steady_clock::now();
    accumulator.add(batch);
    accumulate_seconds += seconds_since(begin);
  };
  const SubspaceSink subspace_sink = [&](const std::vector<SubspaceCluster>& subspaces) {
    const auto begin = std::chrono::steady_clock::now();
    accumulator.add(subspaces);
    accumulate_seconds += seconds_since(begin);
  };
  result.dense_units =
      result.backend_used == Backend::cuda
          ? run_dense_units_gpu(plan, result.density, keys, params.units, on_units, sink, subspace_sink, gpu)
          : run_dense_units_cpu(plan, result.density, keys, params.units, on_units, sink,
                                [&](std::span<const std::uint32_t> points, std::span<const std::uint32_t> dims) {
                                  accumulator.add_unit(points, dims);
                                });
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
