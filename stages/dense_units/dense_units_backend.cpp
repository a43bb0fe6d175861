#include "stages/dense_units/dense_units_backend.hpp"

#include "stages/dense_units/table/dense_units_cuda.hpp"

namespace subscale {

DenseUnitsResult walk_direct_units(const DirectSpace& space, const UnitPlan& plan, const DenseUnitsParams& params,
                                   Backend backend, dense_units::direct::DirectWalkOutput& output,
                                   const UnitProgress& on_units, std::span<const UnitRange> only,
                                   const gpu::ExecutionContext& gpu) {
  return backend == Backend::cuda ? run_direct_units_cuda(space, plan, params, output, on_units, only, gpu)
                                  : run_direct_units_cpu(space, plan, output.map, on_units, only,
                                                         params.host_pair_table_bytes, !params.direct_count_units);
}

DenseUnitsResult find_dense_units(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                                  const DenseUnitsParams& params, Backend backend, const UnitProgress& on_units,
                                  const UnitSink& sink, const SubspaceSink& subspace_sink,
                                  const ConcurrentUnitSink& concurrent_sink, const gpu::ExecutionContext& gpu) {
  return backend == Backend::cuda
             ? run_dense_units_cuda(plan, density, keys, params, on_units, sink, subspace_sink, gpu)
             : run_dense_units_cpu(plan, density, keys, params, on_units, sink, concurrent_sink);
}

}  // namespace subscale
