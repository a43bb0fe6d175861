// Signature and exact mode: the units stream from dense_units into the subspaces accumulator
// partition by partition (the stage's table, keyed by signature or by point ids, is what the modes
// differ in); the time spent accumulating is counted as the subspaces stage's.
#include "common/phase_timer.hpp"
#include "stages/core/core.hpp"
#include "stages/core/core_mode.hpp"
#include "stages/dense_units/dense_units_backend.hpp"
#include "stages/subspaces/signature_subspaces.hpp"

namespace subscale::core {
namespace {

class TableCore final : public CoreMode {
 public:
  bool gpu_worthwhile(const UnitPlan& plan, const CoreResult&) const override {
    return plan.total_units() >= kGpuWorthwhileUnits;
  }

  void run(const CoreStepInputs& in, std::chrono::steady_clock::time_point start, CoreResult& result) const override {
    SubspaceAccumulator accumulator(in.plan.points());
    double accumulate_seconds = 0;
    result.dense_units = accumulate_dense_units(in.plan, result.density, in.params.units, result.backend_used,
                                                in.on_units, accumulator, accumulate_seconds, in.gpu);
    result.timings.dense_units_seconds = seconds_since(start) - accumulate_seconds;

    start = std::chrono::steady_clock::now();
    in.notify("subspaces");
    result.subspaces = accumulator.finish();
    result.timings.subspaces_seconds = seconds_since(start) + accumulate_seconds;
  }
};

}  // namespace

std::unique_ptr<CoreMode> table_core_mode() { return std::make_unique<TableCore>(); }

}  // namespace subscale::core
