#include "stages/core/core.hpp"

#include <chrono>
#include <memory>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/execution_stream.hpp"
#include "stages/core/core_mode.hpp"
#include "stages/density1d/density1d_cuda.hpp"

namespace subscale::core {

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

// The one place the backends are chosen. density1d runs on the GPU only where it pays: the copies
// outweigh the CPU's sort on small inputs (bench/core/density1d_bench measures where the GPU
// starts to win). The size is checked before the device is asked, because asking starts a CUDA
// context, which costs more than a small run.
bool density1d_wants_gpu(const CoreParams& params, std::uint64_t values) {
  if (values < kGpuDensityValues) return false;
  return params.backend == Backend::cuda ||
         (params.backend == Backend::automatic && gpu::automatic_backend() == Backend::cuda);
}

Backend dense_units_backend(const CoreParams& params, const UnitPlan& plan, const CoreMode& mode,
                            const CoreResult& result) {
  if (params.backend != Backend::automatic) return params.backend;
  return mode.gpu_worthwhile(plan, result) ? gpu::automatic_backend() : Backend::cpu;
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
  result.density1d_on_gpu = density1d_wants_gpu(params, static_cast<std::uint64_t>(values.size()));
  result.density = result.density1d_on_gpu
                       ? run_density1d_cuda(values, {params.epsilon, params.min_points}, {}, on_gpu())
                       : run_density1d(values, {params.epsilon, params.min_points});
  result.timings.density1d_seconds = seconds_since(start);

  start = std::chrono::steady_clock::now();
  notify("plan");
  const UnitPlan plan(result.density, params.min_points);
  result.total_units = plan.total_units();
  result.largest_window_units = largest_window_units(plan);
  for (std::uint32_t j = 0; j < plan.dimensions(); ++j)
    result.units_per_dimension.push_back(plan.units_in_dimension(j));

  const std::unique_ptr<CoreMode> mode = core_mode_for(params.units.mode);
  mode->plan(HeldMatrixRef(&values), plan, params, !executor, result);
  result.timings.plan_seconds = seconds_since(start);

  start = std::chrono::steady_clock::now();
  notify("dense_units");
  result.backend_used = dense_units_backend(params, plan, *mode, result);
  const gpu::ExecutionContext gpu = result.backend_used == Backend::cuda ? on_gpu() : gpu::ExecutionContext{};
  const CoreStepInputs inputs{&values, plan, params, on_units, notify, mode->direct_space(), gpu};
  if (executor)
    executor(inputs, result);
  else
    mode->run(inputs, start, result);
  return result;
}

template CoreResult run_core(const Matrix32&, const CoreParams&, const StepListener&, const UnitProgress&,
                             const CoreExecutor&);
template CoreResult run_core(const Matrix&, const CoreParams&, const StepListener&, const UnitProgress&,
                             const CoreExecutor&);

}  // namespace subscale::core
