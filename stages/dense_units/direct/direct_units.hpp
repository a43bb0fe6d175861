#pragma once
// Direct mode of dense_units (no signatures, no table): every unit's maximal subspace D(U) is
// computed from the coordinates while a window's subsets are walked depth first, subtrees that
// can only hold units of one dimension are skipped, and each unit in two or more dimensions is
// ORed once into the point bitmap of its subspace. The output equals the exact and signature
// modes' subspaces, always. See direct_walker.hpp for the walk.
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "common/dataset.hpp"
#include "common/held_values.hpp"
#include "common/subspace_cluster.hpp"
#include "gpu/execution_context.hpp"
#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/direct/direct_subspace_map.hpp"
#include "stages/dense_units/direct/direct_walker.hpp"

namespace subscale {

// What the walk reads, in host memory: the values row-major in the held precision (float or
// double, as the matrix given), the 1-D orders and window ends dimension after dimension. view()
// points into these arrays.
struct DirectSpace {
  std::variant<std::vector<double>, std::vector<float>> rows;
  std::vector<std::uint32_t> sorted, window_end;
  // Mask of the dimensions in which no two distinct held values lie within epsilon (the walker's
  // tie dimensions: there, close means equal).
  std::vector<std::uint64_t> tie_dimensions;
  double epsilon = 0;  // as configured; view<T>() rounds it to T (held_epsilon)
  std::uint32_t points = 0, dimensions = 0, k = 0;

  template <class T>
  DirectSpace(const ColumnMatrix<T>& values, const UnitPlan& plan, const Density1dResult& density, double epsilon);
  std::uint32_t key_words() const { return (dimensions + 63) / 64; }
  std::uint32_t point_words() const { return (points + 63) / 64; }
  bool float32() const { return std::holds_alternative<std::vector<float>>(rows); }
  std::size_t rows_bytes() const {
    return std::visit([](const auto& r) { return r.size() * sizeof(r[0]); }, rows);
  }
  template <class T>
  const std::vector<T>& held_rows() const {
    return std::get<std::vector<T>>(rows);
  }
  // T must be the held type.
  template <class T>
  dense_units::direct::DirectSpaceView<T> view(const UnitPlan& plan) const;
  // Calls f(T{}) with T the held type, for code templated on it.
  template <class F>
  decltype(auto) visit_precision(F&& f) const {
    return float32() ? f(float{}) : f(double{});
  }
};

// Units a work item covers at most: small enough that one window of millions of units is spread
// over many threads, large enough that locating and unranking an item's start is noise.
inline constexpr std::uint64_t kDirectUnitsPerItem = std::uint64_t{1} << 14;
// The same on the GPU, where a warp walks an item: each item costs it a scan of the window's
// candidates and a flush of its slots to the subspace table, so items there are larger. Measured
// on an H200 (S5500 at 0.01, dense_units seconds, one call): see bench/RESULTS.md, "the pair table
// on the device".
inline constexpr std::uint64_t kDeviceUnitsPerItem = std::uint64_t{1} << 18;

// A stretch [begin, end) of the plan's flat unit indices. A cluster run deals such stretches out to
// its processes, and a checkpoint records them as done.
struct UnitRange {
  std::uint64_t begin = 0, end = 0;
};

// Every window's rank space cut into items of at most `units_per_item` units, window after window;
// with `only`, just the units inside those ranges (items clipped at their ends).
std::vector<dense_units::direct::DirectWorkItem> make_direct_work_items(
    const UnitPlan& plan, std::uint64_t units_per_item = kDirectUnitsPerItem, std::span<const UnitRange> only = {});

// The plan's forecast of the walk: nodes (masks computed) and units in two or more dimensions,
// estimated from a sample of items drawn in proportion to their units (exact when the sample
// covers every item).
struct DirectWalkEstimate {
  double nodes = 0;
  double multi_units = 0;
  std::uint64_t sampled_items = 0;
  std::uint64_t sampled_units = 0;
  std::uint64_t sampled_subspaces = 0;  // distinct subspaces of the sampled units (all of them when exact)
  bool exact = false;
};
DirectWalkEstimate estimate_direct_walk(const DirectSpace& space, const UnitPlan& plan, std::uint32_t samples = 512,
                                        std::uint64_t seed = 1);

// Runs the walk on the CPU (oneTBB; items are dealt to threads as they free up) and ORs every unit
// found in two or more dimensions into `subspaces`. The result's distinct_multi_units counts them
// and walk_nodes the nodes visited. With `only`, just the units in those ranges are walked. The
// walk keeps a pair table (direct_pair_table.hpp) when it fits `pair_table_bytes`, or with 0 when
// it fits the default budget and pair_table_pays; the result is the same without it. With
// `skip_covered`, subtrees whose units would add no point to any subspace are passed over
// (direct_host_cover.hpp): the same subspaces, but distinct_multi_units counts only the units
// emitted.
DenseUnitsResult run_direct_units_cpu(const DirectSpace& space, const UnitPlan& plan,
                                      dense_units::direct::DirectSubspaceMap& subspaces,
                                      const UnitProgress& progress = {}, std::span<const UnitRange> only = {},
                                      std::uint64_t pair_table_bytes = 0, bool skip_covered = false);

// One item walked on the calling thread, its units ORed into `subspaces`.
dense_units::direct::DirectWalkCounts walk_direct_item(const DirectSpace& space, const UnitPlan& plan,
                                                       const dense_units::direct::DirectWorkItem& item,
                                                       dense_units::direct::DirectSubspaceMap& subspaces);

// The same on the GPU, bit for bit; throws ResourceError when there is no CUDA backend or device.
// When the device table holds every subspace, `output` gets the ordered list made on the device;
// otherwise its map is filled as the CPU walk fills it. Runs with `context`
// (gpu/execution_context.hpp). Defined by direct_units_cuda.cu, or dense_units_cuda_unavailable.cpp.
DenseUnitsResult run_direct_units_cuda(const DirectSpace& space, const UnitPlan& plan, const DenseUnitsParams& params,
                                       dense_units::direct::DirectWalkOutput& output, const UnitProgress& progress = {},
                                       std::span<const UnitRange> only = {}, const gpu::ExecutionContext& context = {});

// Units in the ranges (all of the plan's when `only` is empty).
std::uint64_t units_in(const UnitPlan& plan, std::span<const UnitRange> only);

}  // namespace subscale
