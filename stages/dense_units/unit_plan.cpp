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
}

UnitLocation UnitPlan::locate(std::uint64_t flat) const {
  UnitLocation location;
  const auto dimension = std::upper_bound(dimension_offset_.begin(), dimension_offset_.end(), flat) - 1;
  location.dimension = static_cast<std::uint32_t>(dimension - dimension_offset_.begin());
  const std::uint64_t within = flat - *dimension;
  const std::uint64_t* offsets = window_offsets(location.dimension);
  const auto window = std::upper_bound(offsets, offsets + n_ + 1, within) - 1;
  location.position = static_cast<std::uint32_t>(window - offsets);
  location.rank = within - *window;
  return location;
}

std::ostream& operator<<(std::ostream& out, const UnitLocation& location) {
  return out << "UnitLocation{dimension=" << location.dimension << ", position=" << location.position
             << ", rank=" << location.rank << "}";
}

}  // namespace subscale
