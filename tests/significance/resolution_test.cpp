#include "stages/significance/resolution.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "common/error.hpp"
#include "significance_test_data.hpp"
#include "stages/significance/marginals.hpp"
#include "stages/significance/weak_dimensions.hpp"

namespace subscale::significance {
namespace {

// n points on `levels` integer levels, normalised: level l at l / (levels - 1).
Matrix levels_matrix(std::size_t n, std::size_t d, std::uint32_t levels, std::uint64_t seed) {
  Matrix m = testing::uniform_noise(n, d, seed);
  for (Eigen::Index j = 0; j < m.cols(); ++j) {
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      m(i, j) = std::floor(m(i, j) * levels) / static_cast<double>(levels - 1);
    m(0, j) = 0, m(1, j) = 1;
  }
  return m;
}

TEST(Resolution, IntegerLevelsAreAGridAndContinuousValuesAreNot) {
  const Matrix grid = levels_matrix(500, 2, 40, 1);
  const ColumnGrid g = grid_of(grid.col(0).data(), 500);
  ASSERT_TRUE(g.on_grid());
  EXPECT_EQ(g.levels, 40U);
  EXPECT_NEAR(g.gap, 1.0 / 39, 1e-15);
  const Matrix noise = testing::uniform_noise(500, 1, 2);
  EXPECT_FALSE(grid_of(noise.col(0).data(), 500).on_grid());
  // A constant column is no grid, nor one finer than its points (1000 levels for 300 points).
  EXPECT_FALSE(grid_of(Matrix::Zero(10, 1).eval().col(0).data(), 10).on_grid());
  const Matrix fine = levels_matrix(300, 1, 1000, 3);
  EXPECT_FALSE(grid_of(fine.col(0).data(), 300).on_grid());
}

TEST(Resolution, MissingLevelsAndFloatRoundingKeepTheGap) {
  std::vector<float> column;
  for (int copy = 0; copy < 4; ++copy)
    for (const int level : {0, 3, 4, 9, 17, 20, 20, 3}) column.push_back(static_cast<float>(level / 20.0));
  const ColumnGrid g = grid_of(column.data(), column.size());
  ASSERT_TRUE(g.on_grid());
  EXPECT_EQ(g.levels, 21U);
  EXPECT_NEAR(g.gap, 0.05, 1e-7);
}

TEST(Resolution, TheCoreReachesTheNextLevelFromAThirdOfAGap) {
  const double gap = 0.01;
  EXPECT_EQ(reach_for(0, 0.003, 0.012, gap).core, 0U);  // a tenth of a gap: one level
  EXPECT_EQ(reach_for(0, 0.003, 0.012, gap).search, 1U);
  EXPECT_EQ(reach_for(0, 0.0034, 0.0136, gap).core, 1U);
  EXPECT_EQ(reach_for(0, 0.0097, 0.0388, gap).core, 1U);
  EXPECT_EQ(reach_for(0, 0.0097, 0.0388, gap).search, 3U);
  EXPECT_EQ(reach_for(0, 0.011, 0.044, gap).core, 2U);
  EXPECT_EQ(reach_for(0, 0.05, 0.2, gap).core, 6U);
  // Four times a quarter of a gap is a gap, whatever the rounding of the quarter.
  EXPECT_EQ(reach_for(0, 0.025641025641025328, 4 * 0.025641025641025328, 0.1025641025641025641).search, 1U);
}

// In the scaled column, levels up to `reach` apart are within the strict window and the next are
// not, for every pair of levels (the half level of margin against rounding), in either precision.
template <class T>
void expect_reach_holds(std::uint32_t levels, std::uint32_t core, std::uint32_t search) {
  const std::size_t n = levels;
  ColumnMatrix<T> m(static_cast<Eigen::Index>(n), 1);
  for (std::size_t l = 0; l < n; ++l) m(static_cast<Eigen::Index>(l), 0) = static_cast<T>(l / double(levels - 1));
  const auto grids = grids_of(m);
  ASSERT_TRUE(grids[0].on_grid()) << levels;
  const double epsilon = 0.0048623685227757729, merge_epsilon = 4 * epsilon;
  const auto scales = scales_for({{0, core, search}}, grids, epsilon, merge_epsilon);
  const auto in_core = scaled(m, scales.core), in_search = scaled(m, scales.search);
  const T eps = static_cast<T>(epsilon), merge_eps = static_cast<T>(merge_epsilon);
  for (std::size_t a = 0; a + core + 1 < n; ++a) {
    EXPECT_LT(in_core(static_cast<Eigen::Index>(a + core), 0) - in_core(static_cast<Eigen::Index>(a), 0), eps);
    EXPECT_GE(in_core(static_cast<Eigen::Index>(a + core + 1), 0) - in_core(static_cast<Eigen::Index>(a), 0), eps);
  }
  for (std::size_t a = 0; a + search + 1 < n; ++a) {
    EXPECT_LE(in_search(static_cast<Eigen::Index>(a + search), 0) - in_search(static_cast<Eigen::Index>(a), 0),
              merge_eps);
    EXPECT_GT(in_search(static_cast<Eigen::Index>(a + search + 1), 0) - in_search(static_cast<Eigen::Index>(a), 0),
              merge_eps);
  }
}

TEST(Resolution, ScaledColumnsHoldTheirReachForEveryPairOfLevels) {
  for (const std::uint32_t levels : {10U, 59U, 200U, 1000U})
    for (const std::uint32_t core : {0U, 1U, 2U, 6U}) {
      expect_reach_holds<double>(levels, core, 4 * core + 1);
      expect_reach_holds<float>(levels, core, 4 * core + 1);
    }
}

TEST(Resolution, AReachForAColumnOffTheGridIsRefused) {
  const Matrix noise = testing::uniform_noise(50, 2, 4);
  try {
    scales_for({{1, 1, 2}}, grids_of(noise), 0.01, 0.04);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("dimension 1 are not on a grid"), std::string::npos) << error.what();
  }
  EXPECT_THROW(scales_for({{5, 1, 2}}, grids_of(noise), 0.01, 0.04), InputError);
}

TEST(Resolution, PointsOfALevelSpreadEvenlyOverItsGap) {
  const auto spread = spread_over_gap({0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 1.0}, 0.5);
  const std::vector<double> expected{-0.1875, -0.0625, 0.0625, 0.1875, 0.5, 0.875, 1.125};
  ASSERT_EQ(spread.size(), expected.size());
  for (std::size_t i = 0; i < spread.size(); ++i) EXPECT_DOUBLE_EQ(spread[i], expected[i]);
}

TEST(Resolution, APieceOnOneLevelWidensToTheRestOfItsClusterOnTheNext) {
  // 20 levels, 1000 points; a cluster of 150 on levels 6 and 7 of dimensions 0 and 1 (half on
  // each in dimension 0). The piece on level 6 spans no interval there: only the level floor lets
  // its box take level 7, and the whole cluster scores higher than the piece.
  Matrix m = levels_matrix(1000, 4, 20, 7);
  SubspaceCluster piece{{0, 1}, {}};
  for (std::uint32_t i = 10; i < 160; ++i) {
    m(i, 0) = (i < 85 ? 6.0 : 7.0) / 19;
    m(i, 1) = 6.0 / 19;
    if (i < 85) piece.points.push_back(i);
  }
  const auto marginals = Marginals::of(m);
  EXPECT_NEAR(marginals.level_gap(0), 1.0 / 19, 1e-15);
  const auto widened = widen_while_stronger(m, marginals, piece);
  std::size_t members = 0;
  for (const auto p : widened.points) members += p >= 10 && p < 160;
  EXPECT_EQ(members, 150U);
  // Continuous columns have no level gap, and widen as before.
  EXPECT_EQ(Marginals::of(testing::uniform_noise(200, 1, 8)).level_gap(0), 0.0);
}

TEST(Resolution, APieceOnOneCellOfACoarseGridWidensOnOneSideOnly) {
  // 10 levels, 1500 points; a cluster of 150 on levels 5 and 6 of dimension 0 (half on each) and
  // level 7 of dimension 1. A box one level wider on every side around the piece on level 6 holds
  // nine cells, seven of them background only, and scores lower than the piece: the box reaches
  // level 5 on one side alone.
  Matrix m = levels_matrix(1500, 4, 10, 11);
  SubspaceCluster piece{{0, 1}, {}};
  for (std::uint32_t i = 0; i < 150; ++i) {
    m(i, 0) = (i < 75 ? 6.0 : 5.0) / 9;
    m(i, 1) = 7.0 / 9;
    if (i < 75) piece.points.push_back(i);
  }
  const auto marginals = Marginals::of(m);
  const auto widened = widen_while_stronger(m, marginals, piece);
  std::size_t members = 0;
  for (const auto p : widened.points) members += p < 150;
  EXPECT_EQ(members, 150U);
  EXPECT_LT(widened.points.size(), 200U);  // about 30 of the background share the two cells
}

}  // namespace
}  // namespace subscale::significance
