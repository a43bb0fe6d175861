// DBSCAN on the grid of two columns' levels (stages/merge/level_grid.hpp) against dbscan_in_subspace
// (itself checked against a brute-force DBSCAN in merge_test.cpp): the same clusters, in the same
// order, and the same core, border and noise counts, on levels spaced evenly and unevenly, in both
// held precisions; and merge over every pair of such columns, where it takes the grid, gives what
// dbscan_in_subspace gives for each pair.
#include "stages/merge/level_grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "stages/merge/merge.hpp"

namespace subscale::merge {
namespace {

// n points in d columns, each column on its own set of `levels` values in [0, 1] (evenly spaced
// or not), drawn around a few centres so that clusters, borders and noise all occur.
template <class T>
ColumnMatrix<T> level_data(std::size_t n, std::size_t d, std::size_t levels, bool even, std::uint32_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  ColumnMatrix<T> x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  for (std::size_t j = 0; j < d; ++j) {
    std::vector<double> values(levels);
    for (std::size_t l = 0; l < levels; ++l)
      values[l] = even ? static_cast<double>(l) / static_cast<double>(levels - 1) : uniform(random);
    std::sort(values.begin(), values.end());
    std::normal_distribution<double> around(0.0, 0.08 * static_cast<double>(levels));
    const double centres[3] = {0.2 * levels, 0.5 * levels, 0.8 * levels};
    for (std::size_t i = 0; i < n; ++i) {
      const double at = i % 5 == 4 ? uniform(random) * levels : centres[i % 3] + around(random);
      const auto l = static_cast<std::size_t>(std::clamp(at, 0.0, static_cast<double>(levels - 1)));
      x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = static_cast<T>(values[l]);
    }
  }
  return x;
}

SubspaceCluster pair_of(std::uint32_t a, std::uint32_t b, std::size_t n, std::size_t every) {
  SubspaceCluster s{{a, b}, {}};
  for (std::uint32_t p = 0; p < n; ++p)
    if (p % every != 1) s.points.push_back(p);
  return s;
}

template <class T>
void expect_same(const SubspaceDbscanResult& grid, const SubspaceDbscanResult& reference) {
  EXPECT_EQ(grid.clusters, reference.clusters);
  EXPECT_EQ(grid.counters.core_points, reference.counters.core_points);
  EXPECT_EQ(grid.counters.border_points, reference.counters.border_points);
  EXPECT_EQ(grid.counters.noise_points, reference.counters.noise_points);
}

struct Seen {
  std::size_t clusters = 0, borders = 0, noise = 0;
};

// Adds to `seen` what the reference found, so that a test can check every case occurred.
template <class T>
void expect_grid_equals_reference(std::size_t levels, bool even, Seen& seen) {
  const std::size_t n = 900, d = 4;
  const auto x = level_data<T>(n, d, levels, even, static_cast<std::uint32_t>(levels) + (even ? 0 : 100));
  const double gap = 1.0 / static_cast<double>(levels - 1);
  for (const double epsilon : {0.3 * gap, gap, 1.01 * gap, 2.5 * gap}) {
    std::vector<std::optional<ColumnLevels<T>>> by_column;
    for (std::uint32_t j = 0; j < d; ++j) by_column.push_back(column_levels(x, j, epsilon));
    LevelGridScratch scratch;
    for (std::uint32_t a = 0; a < d; ++a) {
      for (std::uint32_t b = a + 1; b < d; ++b) {
        ASSERT_TRUE(by_column[a] && by_column[b]);
        const SubspaceCluster s = pair_of(a, b, n, 2 + a + b);
        for (const std::size_t min_points : {1, 2, 3, 5, 30}) {
          SCOPED_TRACE("levels " + std::to_string(levels) + (even ? " even" : " uneven") + " epsilon " +
                       std::to_string(epsilon) + " min_points " + std::to_string(min_points) + " pair " +
                       std::to_string(a) + "," + std::to_string(b));
          const auto grid = dbscan_on_level_grid(*by_column[a], *by_column[b], s, epsilon, min_points, scratch);
          const auto reference = dbscan_in_subspace(x, s, epsilon, min_points, false);
          expect_same<T>(grid, reference);
          seen.clusters += reference.clusters.size();
          seen.borders += reference.counters.border_points;
          seen.noise += reference.counters.noise_points;
        }
      }
    }
    // Between calls every cell of the scratch is empty again.
    EXPECT_TRUE(std::all_of(scratch.place_of_cell.begin(), scratch.place_of_cell.end(),
                            [](std::uint32_t v) { return v == 0; }));
  }
}

void expect_every_case(const Seen& seen) {
  EXPECT_GT(seen.clusters, 100u);
  EXPECT_GT(seen.borders, 100u);
  EXPECT_GT(seen.noise, 100u);
}

TEST(LevelGrid, EqualsDbscanInSubspaceOnEvenLevels) {
  Seen seen;
  for (const std::size_t levels : {3, 12, 60, 300}) {
    expect_grid_equals_reference<double>(levels, true, seen);
    expect_grid_equals_reference<float>(levels, true, seen);
  }
  expect_every_case(seen);
}

TEST(LevelGrid, EqualsDbscanInSubspaceOnUnevenLevels) {
  Seen seen;
  for (const std::size_t levels : {5, 40, 200}) {
    expect_grid_equals_reference<double>(levels, false, seen);
    expect_grid_equals_reference<float>(levels, false, seen);
  }
  expect_every_case(seen);
}

TEST(LevelGrid, ReachIsEveryLevelWhoseTermIsWithinTheRadius) {
  const auto x = level_data<double>(500, 1, 50, false, 3);
  const double epsilon = 0.04;
  const auto levels = column_levels(x, 0, epsilon);
  ASSERT_TRUE(levels);
  const auto& v = levels->values;
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  EXPECT_EQ(std::adjacent_find(v.begin(), v.end()), v.end());
  for (std::size_t a = 0; a < v.size(); ++a) {
    for (std::size_t b = 0; b < v.size(); ++b) {
      const double diff = v[a] - v[b];
      const bool inside = b >= levels->reach_low[a] && b <= levels->reach_high[a];
      EXPECT_EQ(inside, diff * diff <= epsilon * epsilon) << a << " " << b;
    }
  }
  for (Eigen::Index i = 0; i < x.rows(); ++i) EXPECT_EQ(v[levels->level[static_cast<std::size_t>(i)]], x(i, 0));
}

TEST(LevelGrid, NegativeAndPositiveZeroAreOneLevel) {
  Matrix x(6, 2);
  x << -0.0, 0.0, 0.0, -0.0, 0.5, 0.5, -0.0, 0.0, 0.0, 0.0, 0.5, -0.0;
  const auto first = column_levels(x, 0, 0.1), second = column_levels(x, 1, 0.1);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->values.size(), 2u);
  LevelGridScratch scratch;
  const SubspaceCluster s{{0, 1}, {0, 1, 2, 3, 4, 5}};
  expect_same<double>(dbscan_on_level_grid(*first, *second, s, 0.1, 2, scratch),
                      dbscan_in_subspace(x, s, 0.1, 2, false));
}

TEST(LevelGrid, ColumnsWithManyValuesOrAWideReachAreLeftToTheCellIndex) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Matrix x(5000, 2);
  for (Eigen::Index i = 0; i < x.rows(); ++i)
    x(i, 0) = uniform(random), x(i, 1) = std::round(uniform(random) * 999) / 999;
  EXPECT_FALSE(column_levels(x, 0, 0.01));  // 5000 distinct values
  const auto fine = column_levels(x, 1, 0.01);
  ASSERT_TRUE(fine);
  EXPECT_GT(fine->mean_reach, 15.0);  // about 21 levels of 1000 within 0.01
  EXPECT_FALSE(level_grid_serves(*fine, *fine));
  const auto coarse = column_levels(x, 1, 0.0011);
  ASSERT_TRUE(coarse);
  EXPECT_TRUE(level_grid_serves(*coarse, *coarse));
}

// merge reads the columns' levels once every pair of them is asked for with most points, and
// then clusters each pair on the grid: the result is dbscan_in_subspace's for each pair.
TEST(LevelGrid, MergeOverEveryPairOfLevelColumnsGivesDbscanInSubspacesClusters) {
  const std::size_t n = 600, d = 12;
  const auto x = level_data<double>(n, d, 40, true, 9);
  std::vector<SubspaceCluster> pairs;
  for (std::uint32_t a = 0; a < d; ++a)
    for (std::uint32_t b = a + 1; b < d; ++b) pairs.push_back(pair_of(a, b, n, 7));
  const double epsilon = 1.01 / 39;
  ASSERT_TRUE(column_levels(x, 0, epsilon));
  for (const std::size_t min_points : {2, 4}) {
    const MergeResult merged = merge_subspaces(x, pairs, {epsilon, min_points});
    std::vector<SubspaceCluster> expected;
    std::uint64_t core = 0, grid_distances = 0;
    LevelGridScratch scratch;
    for (const auto& s : pairs) {
      auto one = dbscan_in_subspace(x, s, epsilon, min_points, false);
      core += one.counters.core_points;
      for (auto& points : one.clusters) expected.push_back({s.dimensions, std::move(points)});
      grid_distances +=
          dbscan_on_level_grid(*column_levels(x, s.dimensions[0], epsilon), *column_levels(x, s.dimensions[1], epsilon),
                               s, epsilon, min_points, scratch)
              .counters.distance_computations;
    }
    EXPECT_EQ(merged.clusters, expected);
    EXPECT_EQ(merged.stats.core_points, core);
    EXPECT_EQ(merged.stats.distance_computations, grid_distances);  // the grid was taken
    EXPECT_GT(merged.clusters.size(), 66u);
  }
}

}  // namespace
}  // namespace subscale::merge
