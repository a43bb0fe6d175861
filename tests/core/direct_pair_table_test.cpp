// The direct walk's pair table against a pair-by-pair reference and its budget, and the CPU walk
// with the table against the walk without it (value ranges): the same subspaces, units and nodes,
// in float64 and float32, with masks of one and of several words, tie dimensions beside others,
// and spans within rounding of epsilon.
#include "stages/dense_units/direct/direct_pair_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/density1d/density1d.hpp"
#include "stages/subspaces/subspaces.hpp"
#include "tests/core/core_test_data.hpp"

namespace subscale {
namespace {

// `density` gives the sorted orders the table's scans start from.
template <class T>
void expect_table_matches_pairs(const ColumnMatrix<T>& values, const Density1dResult& density, double eps,
                                const std::string& what) {
  const UnitPlan plan(density, 3);
  const DirectSpace space(values, plan, density, eps);
  const DirectPairTable table = build_direct_pair_table(space, kDirectPairTableBytes);
  const std::uint32_t n = space.points, d = space.dimensions, words = space.key_words();
  ASSERT_EQ(table.size(), std::size_t{n} * n * words) << what;
  const std::vector<T>& rows = space.held_rows<T>();
  const T held_eps = held_epsilon<T>(eps);
  std::size_t close = 0, mismatches = 0;
  for (std::uint32_t a = 0; a < n; ++a)
    for (std::uint32_t b = 0; b < n; ++b)
      for (std::uint32_t j = 0; j < d; ++j) {
        const T x = rows[std::size_t{a} * d + j], y = rows[std::size_t{b} * d + j];
        const bool expected = (x < y ? y - x : x - y) < held_eps;
        const bool found = (table[(std::size_t{a} * n + b) * words + j / 64] >> (j % 64) & 1) != 0;
        close += expected ? 1 : 0;
        mismatches += expected != found ? 1 : 0;
      }
  EXPECT_EQ(mismatches, 0u) << what;
  EXPECT_GT(close, std::size_t{n} * d) << what << ": pairs other than a point with itself are close";
  // Bits past the last dimension stay clear.
  if (d % 64 != 0) {
    for (std::size_t cell = 0; cell < std::size_t{n} * n; ++cell)
      ASSERT_EQ(table[cell * words + words - 1] >> (d % 64), 0u) << what;
  }
}

template <class T>
void expect_table_matches_pairs(const ColumnMatrix<T>& values, double eps, const std::string& what) {
  expect_table_matches_pairs(values, run_density1d(values, {eps, 3}), eps, what);
}

TEST(DirectPairTable, HoldsTheDimensionsWhereEachTwoPointsAreClose) {
  const double eps = 0.02;
  // Spans within a few 1e-8 of epsilon, where the held precision decides; one and two mask words.
  for (std::uint32_t d : {12u, 20u, 70u}) {  // table words of 2, 4 and 8 bytes (two a pair at 70)
    const Matrix values = testing::near_epsilon_data(45, d, 3, eps);
    expect_table_matches_pairs(values, eps, "float64 d=" + std::to_string(d));
    expect_table_matches_pairs(Matrix32(values.cast<float>()), eps, "float32 d=" + std::to_string(d));
  }
}

// A dimension with few close pairs is scanned from each point's place in its sorted order, one with
// many (large groups of equal values) is swept over every point: both give the reference's bits,
// side by side in one mask word and across two.
TEST(DirectPairTable, ScannedAndSweptDimensionsHoldTheSameBits) {
  const double eps = 0.02;
  Matrix values = testing::near_epsilon_data(200, 70, 5, eps);
  for (Eigen::Index j = 0; j < values.cols(); j += 5)
    for (Eigen::Index p = 0; p < values.rows(); ++p) values(p, j) = static_cast<double>(p % 3) * 0.5;
  expect_table_matches_pairs(values, eps, "float64");
  expect_table_matches_pairs(Matrix32(values.cast<float>()), eps, "float32");
}

// Sorted orders from values in another precision (the float32 copy: distinct float64 values that
// round to one float are ordered by point id) are not ascending in the held values; such a
// dimension is swept, and the bits stay the reference's.
TEST(DirectPairTable, OrdersFromAnotherPrecisionKeepTheBits) {
  const double eps = 0.02;
  const Matrix values = testing::near_epsilon_data(200, 20, 6, eps);
  const Matrix32 rounded = values.cast<float>();
  expect_table_matches_pairs(values, run_density1d(rounded, {eps, 3}), eps, "float64 values, float32 orders");
  // Points 1 and 2 round to one float, so point 1 comes first; it is not within epsilon of point 0
  // and point 2 is: a scan from point 0 that stopped at point 1 would miss point 2.
  Matrix straddling(6, 2);
  straddling << 0.0, 0.1, eps + 3e-10, 0.1, eps - 3e-10, 0.1, 0.5, 0.3, 0.7, 0.3, 0.9, 0.3;
  expect_table_matches_pairs(straddling, run_density1d(Matrix32(straddling.cast<float>()), {eps, 3}), eps,
                             "a float group straddling epsilon");
}

TEST(DirectPairTable, IsBuiltOnlyWithinItsBudget) {
  const Matrix values = testing::tied_data(50, 70, 2, 40);
  const Density1dResult density = run_density1d(values, {0.05, 3});
  const DirectSpace space(values, UnitPlan(density, 3), density, 0.05);
  const std::uint64_t bytes = direct_pair_table_bytes(space);
  EXPECT_EQ(bytes, 50u * 50u * 2u * 8u);
  const DirectPairTable table = build_direct_pair_table(space, bytes);
  EXPECT_EQ(table.size() * table.word_bytes(), bytes);
  EXPECT_TRUE(build_direct_pair_table(space, bytes - 1).empty());
  // By default a walk builds it only when it has at least as many units as the table has words.
  EXPECT_TRUE(pair_table_pays(space, bytes / 8));
  EXPECT_FALSE(pair_table_pays(space, bytes / 8 - 1));
  // The rule both backends ask: a budget given is the only test, else it must pay and fit the default.
  EXPECT_TRUE(pair_table_wanted(space, 0, bytes, 0));
  EXPECT_FALSE(pair_table_wanted(space, bytes / 8, bytes - 1, bytes));
  EXPECT_TRUE(pair_table_wanted(space, bytes / 8, 0, bytes));
  EXPECT_FALSE(pair_table_wanted(space, bytes / 8 - 1, 0, bytes));
  EXPECT_FALSE(pair_table_wanted(space, bytes / 8, 0, bytes - 1));
  // With at most 32 dimensions a word takes 4 bytes; a walk pays at as many units as words.
  const Matrix narrow = testing::tied_data(50, 20, 2, 40);
  const Density1dResult narrow_density = run_density1d(narrow, {0.05, 3});
  const DirectSpace narrow_space(narrow, UnitPlan(narrow_density, 3), narrow_density, 0.05);
  EXPECT_EQ(pair_table_word_bytes(narrow_space), 4u);
  EXPECT_EQ(direct_pair_table_bytes(narrow_space), 50u * 50u * 4u);
  EXPECT_TRUE(pair_table_pays(narrow_space, 50u * 50u));
  EXPECT_FALSE(pair_table_pays(narrow_space, 50u * 50u - 1));
}

struct WalkOutcome {
  std::string subspaces;
  std::uint64_t multi = 0, nodes = 0;
  bool table = false;  // the walk built a pair table
};

template <class T>
WalkOutcome walk_cpu(const ColumnMatrix<T>& values, double eps, std::uint32_t m, std::uint64_t table_bytes) {
  const Density1dResult density = run_density1d(values, {eps, m});
  const UnitPlan plan(density, m);
  const DirectSpace space(values, plan, density, eps);
  dense_units::direct::DirectSubspaceMap map(space.key_words(), space.point_words());
  const DenseUnitsResult result = run_direct_units_cpu(space, plan, map, {}, {}, table_bytes);
  const bool table = std::any_of(result.phase_seconds.begin(), result.phase_seconds.end(),
                                 [](const auto& phase) { return phase.first == "direct: pair table"; });
  return {subspaces_text(map.to_subspaces()), result.distinct_multi_units, result.walk_nodes, table};
}

template <class T>
void expect_walks_agree(const ColumnMatrix<T>& values, double eps, std::uint32_t m, const std::string& what) {
  const WalkOutcome ranges = walk_cpu(values, eps, m, 1);                     // a budget no table fits
  const WalkOutcome pairs = walk_cpu(values, eps, m, kDirectPairTableBytes);  // a budget given: built
  ASSERT_FALSE(ranges.table) << what;
  ASSERT_TRUE(pairs.table) << what;
  EXPECT_EQ(pairs.subspaces, ranges.subspaces) << what;
  EXPECT_EQ(pairs.multi, ranges.multi) << what;
  EXPECT_EQ(pairs.nodes, ranges.nodes) << what;
  EXPECT_GT(ranges.multi, 0u) << what << ": the case has units in two or more dimensions";
}

TEST(DirectPairTable, WalkWithTheTableEqualsTheWalkOnValueRanges) {
  for (std::uint32_t m : {2u, 3u, 4u, 5u, 6u})
    expect_walks_agree(testing::tied_data(200, 8, 3, 60), 0.04, m, "tied m=" + std::to_string(m));
  // Tie dimensions (a grid step above epsilon) beside a finer grid, across word boundaries.
  const Matrix mixed = testing::mixed_tie_data(150, 70, 5);
  for (std::uint32_t m : {3u, 4u}) expect_walks_agree(mixed, 0.01, m, "mixed m=" + std::to_string(m));
  expect_walks_agree(testing::tied_data(70, 130, 9, 12), 0.09, 3, "three words");
  expect_walks_agree(testing::tied_data(150, 30, 3, 60), 0.04, 4, "30 dimensions: table words of 4 bytes");
  const Matrix near = testing::near_epsilon_data(160, 12, 4, 0.02);
  for (std::uint32_t m : {3u, 4u}) {
    expect_walks_agree(near, 0.02, m, "near epsilon, float64, m=" + std::to_string(m));
    expect_walks_agree(Matrix32(near.cast<float>()), 0.02, m, "near epsilon, float32, m=" + std::to_string(m));
  }
}

}  // namespace
}  // namespace subscale
