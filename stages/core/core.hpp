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
#include "stages/core/core_types.hpp"
#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/direct/direct_memory_plan.hpp"
#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/density1d/density1d.hpp"

namespace subscale::core {

// Dense units below which `automatic` stays on the CPU: the GPU's start-up and transfers cost
// more than they save on small plans.
inline constexpr std::uint64_t kGpuWorthwhileUnits = 20'000'000;
// The same for direct mode where no timed sample of the walk was taken (a cluster run's executor
// walks the units): its CPU walk skips most units. On an H100 machine S1500 at eps 0.005 (110 M
// units) took 0.05 s on 16 cores and 0.13 s on the GPU, S5500 at 0.005 (13 G) 0.67 s on the GPU
// and 11.7 s on 2 cores; the crossing lies near a billion units.
inline constexpr std::uint64_t kGpuWorthwhileDirectUnits = 1'000'000'000;
// Direct mode with the plan's timed sample: the CPU walk's forecast time on this machine's threads
// from which the GPU is used. The GPU's start (context, copies) costs about 0.35 s and
// ties_like_real_350g's walk (21.6 M units) took 0.52 s there against 2.9 s on 16 cores; the
// forecast is within about a factor of two of the walk.
inline constexpr double kGpuWorthwhileDirectSeconds = 1.0;
// Values (points x dimensions) from which density1d runs on the GPU when the backend is cuda or
// automatic with a device: bench/core/density1d_bench found the GPU faster than 16 CPU cores from
// 4 M values on (1.3x at 5 M, 1.7x at 100 M); below, the copies cost more than the sort saves.
inline constexpr std::uint64_t kGpuDensityValues = 4'000'000;

// Checks the parameters against the data before any work (docs/method.md §2).
void validate_core_params(const CoreParams& params, std::size_t points);

// Dense units of the fullest single window: what one partition must hold at least (run and plan).
std::uint64_t largest_window_units(const UnitPlan& plan);

// T is the held precision (float or double); every span is compared with epsilon in it.
template <class T>
CoreResult run_core(const ColumnMatrix<T>& values, const CoreParams& params, const StepListener& on_step = {},
                    const UnitProgress& on_units = {}, const CoreExecutor& executor = {});

}  // namespace subscale::core
