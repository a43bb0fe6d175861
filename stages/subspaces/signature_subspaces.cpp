#include "stages/subspaces/signature_subspaces.hpp"

#include <chrono>

#include "common/phase_timer.hpp"
#include "stages/dense_units/dense_units_backend.hpp"
#include "stages/dense_units/table/signature_keys.hpp"

namespace subscale {

DenseUnitsResult accumulate_dense_units(const UnitPlan& plan, const Density1dResult& density,
                                        const DenseUnitsParams& params, Backend backend, const UnitProgress& on_units,
                                        SubspaceAccumulator& into, double& accumulate_seconds,
                                        const gpu::ExecutionContext& gpu) {
  const SignatureKeys keys = make_signature_keys(plan.points(), params.keys, params.seed);
  const UnitSink sink = [&](const MaximalUnits& batch) {
    const auto begin = std::chrono::steady_clock::now();
    into.add(batch);
    accumulate_seconds += seconds_since(begin);
  };
  const SubspaceSink subspace_sink = [&](const std::vector<SubspaceCluster>& subspaces) {
    const auto begin = std::chrono::steady_clock::now();
    into.add(subspaces);
    accumulate_seconds += seconds_since(begin);
  };
  return find_dense_units(
      plan, density, keys, params, backend, on_units, sink, subspace_sink,
      [&](std::span<const std::uint32_t> points, std::span<const std::uint32_t> dims) { into.add_unit(points, dims); },
      gpu);
}

}  // namespace subscale
