#include "stages/dense_units/unit_plan.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "tests/core/core_test_data.hpp"

namespace subscale {
namespace {

// Brute force: every m-subset of points whose span in dimension j is < eps, counted directly.
std::uint64_t brute_force_count(const Matrix& values, std::uint32_t j, double eps, std::uint32_t m) {
  const auto n = static_cast<std::uint32_t>(values.rows());
  std::vector<std::uint32_t> c(m);
  for (std::uint32_t i = 0; i < m; ++i) c[i] = i;
  std::uint64_t count = 0;
  while (true) {
    double lo = values(c[0], j), hi = lo;
    for (auto p : c) lo = std::min(lo, values(p, j)), hi = std::max(hi, values(p, j));
    count += hi - lo < eps;
    if (!combinadic::next_colex(c.data(), m, n)) break;
  }
  return count;
}

TEST(UnitPlan, CountsEqualBruteForceOnTiedData) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Matrix values = testing::tied_data(40, 3, seed, 30);
    for (std::uint32_t m : {2u, 3u, 4u}) {
      for (double eps : {1.0 / 30, 0.1}) {
        const Density1dResult density = run_density1d(values, {eps, m});
        const UnitPlan plan(density, m);
        std::uint64_t total = 0;
        for (std::uint32_t j = 0; j < 3; ++j) {
          EXPECT_EQ(plan.units_in_dimension(j), brute_force_count(values, j, eps, m)) << "m=" << m << " eps=" << eps;
          total += plan.units_in_dimension(j);
        }
        EXPECT_EQ(plan.total_units(), total);
      }
    }
  }
}

TEST(UnitPlan, LocateInvertsTheFlatIndex) {
  // A small plan (one bucket of the index per unit) and one of millions of units (buckets of
  // many units and windows), both with empty windows.
  struct Case {
    std::uint32_t n, d, grid;
    double eps;
    std::uint32_t m;
    std::uint64_t stride;
  };
  for (const Case& c : {Case{60, 3, 40, 0.06, 3, 7}, Case{3000, 5, 300, 0.02, 4, 9973}}) {
    const Matrix values = testing::tied_data(c.n, c.d, 9, c.grid);
    const Density1dResult density = run_density1d(values, {c.eps, c.m});
    const UnitPlan plan(density, c.m);
    ASSERT_GT(plan.total_units(), 0u);
    if (c.n > 1000) {
      ASSERT_GT(plan.total_units(), std::uint64_t{1} << 20);
    }
    for (std::uint64_t flat = 0; flat < plan.total_units(); flat += c.stride) {
      const UnitLocation at = plan.locate(flat);
      const std::uint64_t back =
          plan.dimension_offsets()[at.dimension] + plan.window_offsets(at.dimension)[at.position] + at.rank;
      ASSERT_EQ(back, flat);
      ASSERT_LT(at.rank,
                plan.window_offsets(at.dimension)[at.position + 1] - plan.window_offsets(at.dimension)[at.position]);
    }
  }
}

TEST(UnitPlan, OverflowingCountIsAnErrorNamingDimensionAndWindow) {
  // 200 identical values and m = 40: C(199, 39) > 2^64.
  Matrix values = Matrix::Zero(200, 2);
  for (int i = 0; i < 200; ++i) values(i, 0) = i;  // dimension 0 is spread out
  const Density1dResult density = run_density1d(values, {0.5, 40});
  try {
    UnitPlan plan(density, 40);
    FAIL() << "expected an overflow error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("dimension 1"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("window"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace subscale
