// ColumnSorter's radix sort against the plain comparison sort by (value, point) it replaced.
#include "stages/consolidate/column_sorter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace subscale::consolidate {
namespace {

// Values of every sign and size, with many ties, -0 beside +0 and the extremes.
template <class T>
ColumnMatrix<T> awkward_values(std::size_t rows, std::size_t cols) {
  std::mt19937_64 rng(17);
  const std::vector<T> specials = {T(0),
                                   -T(0),
                                   T(1),
                                   T(-1),
                                   std::numeric_limits<T>::max(),
                                   std::numeric_limits<T>::lowest(),
                                   std::numeric_limits<T>::denorm_min(),
                                   -std::numeric_limits<T>::denorm_min(),
                                   std::numeric_limits<T>::min()};
  ColumnMatrix<T> values(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  std::uniform_real_distribution<double> wide(-1e6, 1e6), unit(0.0, 1.0);
  for (Eigen::Index c = 0; c < values.cols(); ++c)
    for (Eigen::Index r = 0; r < values.rows(); ++r) {
      const auto pick = rng() % 4;
      values(r, c) = pick == 0   ? specials[rng() % specials.size()]
                     : pick == 1 ? static_cast<T>(static_cast<int>(rng() % 7) - 3) / T(4)  // ties
                     : pick == 2 ? static_cast<T>(wide(rng))
                                 : static_cast<T>(unit(rng));
    }
  return values;
}

template <class T>
void expect_the_order_of_a_comparison_sort() {
  for (const std::size_t rows : {1u, 2u, 50u, 3000u}) {
    const ColumnMatrix<T> values = awkward_values<T>(rows, 4);
    const ColumnSorter<T> sorter(values);
    for (std::uint32_t d = 0; d < 4; ++d) {
      std::vector<std::uint32_t> order(rows);
      std::iota(order.begin(), order.end(), 0u);
      std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const T x = values(a, d), y = values(b, d);
        return x != y ? x < y : a < b;
      });
      std::vector<std::uint32_t> ranks;
      sorter.ranks(order, d, ranks);
      for (std::size_t k = 0; k < rows; ++k) {
        ASSERT_EQ(ranks[k], k) << rows << " rows, dimension " << d << ", point " << order[k];
        ASSERT_EQ(sorter.value_at(d, static_cast<std::uint32_t>(k)), values(order[k], d));
      }
    }
  }
}

TEST(ColumnSorter, RanksAreTheOrderByValueThenPoint) { expect_the_order_of_a_comparison_sort<double>(); }
TEST(ColumnSorter, RanksAreTheOrderByFloat32ValueThenPoint) { expect_the_order_of_a_comparison_sort<float>(); }

}  // namespace
}  // namespace subscale::consolidate
