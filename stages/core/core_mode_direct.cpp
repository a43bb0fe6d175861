// Direct mode: the space is built in the plan step so that its memory plan (from the same sample
// of the walk as `plan` prints: at most 512 stretches of 1024 units) is said before the walk; the
// walk fills a subspace map itself, so the subspaces stage is only the hand-over into the sorted list.
#include <algorithm>
#include <optional>

#include "common/phase_timer.hpp"
#include "stages/core/core.hpp"
#include "stages/core/core_mode.hpp"
#include "stages/dense_units/dense_units_backend.hpp"
#include "stages/dense_units/direct/direct_memory_plan.hpp"
#include "stages/dense_units/direct/direct_units.hpp"

namespace subscale::core {
namespace {

class DirectCore final : public CoreMode {
 public:
  // The walk's cost is not its units (it skips most of them, and ties make it skip fewer), so the
  // plan's timed sample decides where there is one: it ran on this machine's threads.
  bool gpu_worthwhile(const UnitPlan& plan, const CoreResult& result) const override {
    if (result.direct_sample_units <= 0) return plan.total_units() >= kGpuWorthwhileDirectUnits;
    const double cpu_seconds = result.direct_sample_seconds *
                               std::max(1.0, static_cast<double>(plan.total_units()) / result.direct_sample_units);
    return cpu_seconds >= kGpuWorthwhileDirectSeconds;
  }

  void plan(HeldMatrixRef values, const UnitPlan& plan, const CoreParams& params, bool estimate,
            CoreResult& result) override {
    std::visit([&](const auto* matrix) { space_.emplace(*matrix, plan, result.density, params.epsilon); }, values);
    if (!estimate) return;
    const auto sampled = std::chrono::steady_clock::now();
    const DirectWalkEstimate walk = estimate_direct_walk(*space_, plan);
    result.direct_sample_seconds = seconds_since(sampled);
    result.direct_sample_units = static_cast<double>(walk.sampled_units);
    result.direct_memory = plan_direct_memory(*space_, walk);
  }

  const DirectSpace* direct_space() const override { return space_ ? &*space_ : nullptr; }

  void run(const CoreStepInputs& in, std::chrono::steady_clock::time_point start, CoreResult& result) const override {
    dense_units::direct::DirectWalkOutput walked{
        dense_units::direct::DirectSubspaceMap(space_->key_words(), space_->point_words())};
    result.dense_units =
        walk_direct_units(*space_, in.plan, in.params.units, result.backend_used, walked, in.on_units, {}, in.gpu);
    result.timings.dense_units_seconds = seconds_since(start);
    start = std::chrono::steady_clock::now();
    in.notify("subspaces");
    result.subspaces = std::move(walked).to_subspaces();
    result.timings.subspaces_seconds = seconds_since(start);
  }

 private:
  std::optional<DirectSpace> space_;
};

}  // namespace

std::unique_ptr<CoreMode> direct_core_mode() { return std::make_unique<DirectCore>(); }

}  // namespace subscale::core
