#include "stages/dense_units/unit_space.hpp"

#include <tbb/parallel_for.h>

namespace subscale {

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
  build_bucket_index(plan.total_units());
}

// About 2^20 buckets of 2^bucket_shift flat indices, each with the window of its first index.
void UnitSpaceArrays::build_bucket_index(std::uint64_t total) {
  if (total == 0 || window_end.empty()) return;
  constexpr std::uint32_t kBucketBits = 20;
  while (((total - 1) >> bucket_shift) >= (std::uint64_t{1} << kBucketBits)) ++bucket_shift;
  const std::uint64_t buckets = ((total - 1) >> bucket_shift) + 1;
  bucket_window.resize(buckets + 1);
  enumeration::UnitSpaceView plain;
  plain.window_start = window_start.data();
  plain.points = static_cast<std::uint32_t>(window_end.size());  // one row of all windows
  plain.dimensions = 1;
  tbb::parallel_for(std::uint64_t{0}, buckets,
                    [&](std::uint64_t b) { bucket_window[b] = enumeration::window_of(plain, b << bucket_shift); });
  bucket_window[buckets] = window_end.size() - 1;
}

enumeration::UnitSpaceView UnitSpaceArrays::view(const UnitPlan& plan) const {
  enumeration::UnitSpaceView view;
  view.window_start = window_start.data();
  view.window_end = window_end.data();
  view.sorted_keys = sorted_keys.data();
  view.binomials = plan.binomials();
  view.bucket_window = bucket_window.empty() ? nullptr : bucket_window.data();
  view.bucket_shift = bucket_shift;
  view.points = plan.points();
  view.dimensions = plan.dimensions();
  view.k = plan.min_points() - 1;
  return view;
}

}  // namespace subscale
