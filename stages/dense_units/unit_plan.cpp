#include "stages/dense_units/unit_plan.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <string>

#include "common/error.hpp"

namespace subscale {

UnitPlan::UnitPlan(const Density1dResult& density, std::uint32_t min_points) : m_(min_points) {
  const auto d = static_cast<std::uint32_t>(density.dimensions.size());
  n_ = d == 0 ? 0 : static_cast<std::uint32_t>(density.dimensions[0].order.size());
  for (const auto& dimension : density.dimensions)
    for (std::uint32_t i = 0; i < n_; ++i) largest_window_ = std::max(largest_window_, dimension.window_end[i] - i);
  binomial_values_.resize(std::size_t{largest_window_ + 1} * (m_ + 1));
  combinadic::fill_binomial_table(binomial_values_.data(), largest_window_ + 1, m_);
  const auto table = binomials();

  window_offset_.assign(std::size_t{d} * (n_ + 1), 0);
  std::vector<std::uint64_t> per_dimension(d, 0);
  tbb::parallel_for(std::uint32_t{0}, d, [&](std::uint32_t j) {
    std::uint64_t* offsets = window_offset_.data() + std::size_t{j} * (n_ + 1);
    const auto& window_end = density.dimensions[j].window_end;
    std::uint64_t sum = 0;
    for (std::uint32_t i = 0; i < n_; ++i) {
      offsets[i] = sum;
      const std::uint64_t count = table(window_end[i] - i - 1, m_ - 1);
      if (count == combinadic::kSaturated || sum + count < sum)
        throw InputError("the number of dense units overflows 64 bits in dimension " + std::to_string(j) +
                         " at the window of sorted position " + std::to_string(i) + " (size " +
                         std::to_string(window_end[i] - i) + "); lower epsilon or raise min_points");
      sum += count;
    }
    offsets[n_] = sum;
    per_dimension[j] = sum;
  });
  dimension_offset_.assign(std::size_t{d} + 1, 0);
  for (std::uint32_t j = 0; j < d; ++j) {
    if (dimension_offset_[j] + per_dimension[j] < dimension_offset_[j])
      throw InputError("the total number of dense units overflows 64 bits at dimension " + std::to_string(j) +
                       "; lower epsilon or raise min_points");
    dimension_offset_[j + 1] = dimension_offset_[j] + per_dimension[j];
  }
  build_bucket_index();
}

// The last window w in [lo, hi) with window_start(w) <= flat, given window_start(lo) <= flat <
// window_start(hi) (window_start of the end is the total). Empty windows share their start with
// the next one, so they are skipped.
std::uint64_t UnitPlan::window_of(std::uint64_t flat, std::uint64_t lo, std::uint64_t hi) const {
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (window_start(mid) <= flat)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

void UnitPlan::build_bucket_index() {
  const std::uint64_t total = total_units(), windows = std::uint64_t{n_} * dimensions();
  if (total == 0 || windows == 0) return;
  constexpr std::uint32_t kBucketBits = 16;  // 512 KiB of index: stays in cache
  while (((total - 1) >> bucket_shift_) >= (std::uint64_t{1} << kBucketBits)) ++bucket_shift_;
  const std::uint64_t buckets = ((total - 1) >> bucket_shift_) + 1;
  bucket_window_.resize(buckets + 1);
  tbb::parallel_for(std::uint64_t{0}, buckets,
                    [&](std::uint64_t b) { bucket_window_[b] = window_of(b << bucket_shift_, 0, windows); });
  bucket_window_[buckets] = windows - 1;
}

UnitLocation UnitPlan::locate(std::uint64_t flat) const {
  const std::uint64_t bucket = flat >> bucket_shift_;
  const std::uint64_t w = window_of(flat, bucket_window_[bucket], bucket_window_[bucket + 1] + 1);
  UnitLocation location;
  location.dimension = static_cast<std::uint32_t>(w / n_);
  location.position = static_cast<std::uint32_t>(w % n_);
  location.rank = flat - window_start(w);
  return location;
}

std::ostream& operator<<(std::ostream& out, const UnitLocation& location) {
  return out << "UnitLocation{dimension=" << location.dimension << ", position=" << location.position
             << ", rank=" << location.rank << "}";
}

}  // namespace subscale
