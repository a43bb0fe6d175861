#pragma once
// The dense-unit plan (docs/method.md §4): how many dense units every window, dimension and the whole run
// has, known from the window sizes alone before anything is enumerated. Window i of dimension j
// (size w) holds C(w - 1, m - 1) units; units are numbered by one flat 64-bit index:
//   flat = dimension_offset[j] + window_offset[j][i] + rank within the window.
#include <cstdint>
#include <ostream>
#include <vector>

#include "stages/dense_units/enumeration/combinadic.hpp"
#include "stages/density1d/density1d.hpp"

namespace subscale {

// Where a unit was enumerated: its dimension, the sorted position of its lowest member, and the
// colex rank of the (m-1)-subset of the following positions.
struct UnitLocation {
  std::uint32_t dimension = 0;
  std::uint32_t position = 0;
  std::uint64_t rank = 0;
};

class UnitPlan {
 public:
  // Throws InputError naming the dimension and window when a count overflows 64 bits.
  UnitPlan(const Density1dResult& density, std::uint32_t min_points);

  std::uint32_t min_points() const noexcept { return m_; }
  std::uint64_t total_units() const noexcept { return dimension_offset_.back(); }
  std::uint64_t units_in_dimension(std::uint32_t j) const { return dimension_offset_[j + 1] - dimension_offset_[j]; }
  std::uint32_t dimensions() const noexcept { return static_cast<std::uint32_t>(dimension_offset_.size() - 1); }
  std::uint32_t points() const noexcept { return n_; }
  std::uint32_t largest_window() const noexcept { return largest_window_; }

  // Exclusive prefix sums: dimension_offsets() has d + 1 entries; window_offsets(j) has n + 1.
  const std::vector<std::uint64_t>& dimension_offsets() const noexcept { return dimension_offset_; }
  const std::uint64_t* window_offsets(std::uint32_t j) const {
    return window_offset_.data() + std::size_t{j} * (n_ + 1);
  }
  // All window offsets, dimension after dimension (d * (n + 1) entries): for the GPU.
  const std::vector<std::uint64_t>& all_window_offsets() const noexcept { return window_offset_; }

  // The location of flat index `flat`: a bucket index narrows it to a few windows, a binary
  // search over those finds it.
  UnitLocation locate(std::uint64_t flat) const;

  // bucket_window()[b]: the window (j * n + i) of flat index b << bucket_shift(); one more entry
  // holds the last window. Empty when the plan has no units.
  const std::vector<std::uint64_t>& bucket_window() const noexcept { return bucket_window_; }
  std::uint32_t bucket_shift() const noexcept { return bucket_shift_; }

  // C(n, k) for n <= largest window, k <= m: the table the enumerators use.
  combinadic::BinomialTable binomials() const noexcept { return {binomial_values_.data(), largest_window_ + 1, m_}; }
  const std::vector<std::uint64_t>& binomial_values() const noexcept { return binomial_values_; }

 private:
  std::uint32_t m_ = 0, n_ = 0, largest_window_ = 0;
  std::vector<std::uint64_t> dimension_offset_;
  std::vector<std::uint64_t> window_offset_;
  std::vector<std::uint64_t> binomial_values_;
  std::vector<std::uint64_t> bucket_window_;
  std::uint32_t bucket_shift_ = 0;

  std::uint64_t window_start(std::uint64_t w) const {
    return dimension_offset_[w / n_] + window_offset_[w / n_ * (n_ + 1) + w % n_];
  }
  std::uint64_t window_of(std::uint64_t flat, std::uint64_t lo, std::uint64_t hi) const;
  void build_bucket_index();
};

std::ostream& operator<<(std::ostream& out, const UnitLocation& location);

}  // namespace subscale
