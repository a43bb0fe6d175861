#include "stages/dense_units/unit_space.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>

namespace subscale {

std::vector<std::uint32_t> flat_orders(const Density1dResult& density, std::uint32_t points) {
  std::vector<std::uint32_t> orders(std::size_t{points} * density.dimensions.size());
  for (std::size_t j = 0; j < density.dimensions.size(); ++j)
    std::copy(density.dimensions[j].order.begin(), density.dimensions[j].order.end(),
              orders.begin() + static_cast<std::ptrdiff_t>(j * points));
  return orders;
}

UnitSpaceArrays::UnitSpaceArrays(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys) {
  const std::uint64_t n = plan.points(), d = plan.dimensions();
  window_start.resize(n * d + 1);
  window_end.resize(n * d);
  sorted_keys.resize(n * d);
  tbb::parallel_for(std::uint64_t{0}, d, [&](std::uint64_t j) {
    const std::uint64_t* offsets = plan.window_offsets(static_cast<std::uint32_t>(j));
    const auto& dimension = density.dimensions[j];
    for (std::uint64_t i = 0; i < n; ++i) {
      window_start[j * n + i] = plan.dimension_offsets()[j] + offsets[i];
      window_end[j * n + i] = dimension.window_end[i];
      sorted_keys[j * n + i] = keys.primary[dimension.order[i]];
    }
  });
  window_start[n * d] = plan.total_units();
}

enumeration::UnitSpaceView UnitSpaceArrays::view(const UnitPlan& plan) const {
  enumeration::UnitSpaceView view;
  view.window_start = window_start.data();
  view.window_end = window_end.data();
  view.sorted_keys = sorted_keys.data();
  view.binomials = plan.binomials();
  // The plan's index over the same flat space and the same window numbers (j * n + i).
  view.bucket_window = plan.bucket_window().empty() ? nullptr : plan.bucket_window().data();
  view.bucket_shift = plan.bucket_shift();
  view.points = plan.points();
  view.dimensions = plan.dimensions();
  view.k = plan.min_points() - 1;
  return view;
}

}  // namespace subscale
