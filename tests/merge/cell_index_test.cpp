// The grid index must never miss a neighbour: every pair within epsilon has its partner inside
// one of the candidate ranges, including pairs at exactly epsilon along a grid dimension.
#include "stages/merge/cell_index.hpp"

#include <gtest/gtest.h>

#include <random>

namespace subscale::merge {
namespace {

void expect_complete(const Matrix& x, const std::vector<std::uint32_t>& dims, const std::vector<std::uint32_t>& points,
                     double epsilon, std::size_t expected_grid) {
  const CellIndex index(x, dims, points, epsilon);
  const CellIndex in_parallel(x, dims, points, epsilon, true);
  ASSERT_EQ(in_parallel.cells(), index.cells());
  for (std::size_t c = 0; c < index.cells(); ++c) {
    ASSERT_EQ(in_parallel.candidates(c).size(), index.candidates(c).size());
    for (std::size_t r = 0; r < index.candidates(c).size(); ++r) {
      EXPECT_EQ(in_parallel.candidates(c)[r].begin, index.candidates(c)[r].begin);
      EXPECT_EQ(in_parallel.candidates(c)[r].end, index.candidates(c)[r].end);
    }
  }
  ASSERT_EQ(index.size(), points.size());
  EXPECT_EQ(index.grid_dimensions(), expected_grid);
  std::vector<std::size_t> cell_of(index.size());
  std::vector<bool> seen(points.size(), false);
  for (std::size_t c = 0; c < index.cells(); ++c) {
    for (std::uint32_t i = index.cell(c).begin; i < index.cell(c).end; ++i) {
      cell_of[i] = c;
      EXPECT_FALSE(seen[index.position(i)]);
      seen[index.position(i)] = true;
      for (std::size_t t = 0; t < dims.size(); ++t)
        EXPECT_EQ(index.coordinates(i)[t], x(points[index.position(i)], dims[t]));
    }
  }
  for (std::size_t i = 0; i < index.size(); ++i) {
    const auto ranges = index.candidates(cell_of[i]);
    ASSERT_FALSE(ranges.empty());
    EXPECT_LE(ranges[0].begin, i);
    EXPECT_GT(ranges[0].end, i);
    for (std::size_t j = 0; j < index.size(); ++j) {
      double sum = 0;
      for (std::size_t t = 0; t < dims.size(); ++t) {
        const double diff = index.coordinates(i)[t] - index.coordinates(j)[t];
        sum += diff * diff;
      }
      if (sum > epsilon * epsilon) continue;
      std::size_t found = 0;
      for (const auto& r : ranges) found += (r.begin <= j && j < r.end) ? 1 : 0;
      EXPECT_EQ(found, 1u) << "pair " << i << ", " << j << " within epsilon: a candidate exactly once";
    }
  }
}

TEST(CellIndex, CandidatesHoldEveryNeighbour) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Matrix x(300, 5);
  for (Eigen::Index i = 0; i < x.rows(); ++i)
    for (Eigen::Index j = 0; j < x.cols(); ++j) x(i, j) = uniform(random);
  std::vector<std::uint32_t> points;
  for (std::uint32_t p = 0; p < 300; p += 2) points.push_back(p);
  expect_complete(x, {0, 2, 3, 4}, points, 0.15, 3);
  expect_complete(x, {1, 4}, points, 0.1, 2);
  expect_complete(x, {3}, points, 0.05, 1);
  expect_complete(x, {0, 1}, points, 0.5, 0);      // fewer than three cells per dimension: no grid
  expect_complete(x, {0, 1}, {1, 2, 3}, 0.01, 0);  // too few points for a grid
}

TEST(CellIndex, PairsAtExactlyEpsilonAreCandidates) {
  // Multiples of 1/16 with epsilon 1/8: many pairs at exactly epsilon, on cell boundaries.
  Matrix x(64, 2);
  for (Eigen::Index i = 0; i < 64; ++i) {
    x(i, 0) = static_cast<double>(i % 16) / 16.0;
    x(i, 1) = static_cast<double>(i / 16) / 16.0 * 4.0;
  }
  std::vector<std::uint32_t> points(64);
  for (std::uint32_t p = 0; p < 64; ++p) points[p] = p;
  expect_complete(x, {0, 1}, points, 0.125, 2);
  expect_complete(x, {0, 1}, points, 0.25, 2);

  // Every multiple of 2^-10 in [0, 1] with epsilon 2^-10: cells narrower than epsilon would drift
  // against the points and, far from the origin, put neighbours two cells apart.
  Matrix line(1025, 1);
  std::vector<std::uint32_t> all(1025);
  for (std::uint32_t i = 0; i < 1025; ++i) {
    line(i, 0) = static_cast<double>(i) / 1024.0;
    all[i] = i;
  }
  expect_complete(line, {0}, all, 1.0 / 1024.0, 1);
}

// Cells in key order (the first grid dimension the coarsest) and each cell's points in id order,
// on enough points that many share a cell.
TEST(CellIndex, CellsComeInKeyOrderAndACellsPointsInIdOrder) {
  std::mt19937_64 random(9);
  std::uniform_int_distribution<int> level(0, 40);
  Matrix x(3000, 3);
  for (Eigen::Index i = 0; i < x.rows(); ++i)
    for (Eigen::Index j = 0; j < x.cols(); ++j) x(i, j) = level(random) / 40.0;
  std::vector<std::uint32_t> points;
  for (std::uint32_t p = 0; p < 3000; p += 2) points.push_back(p);
  // Cells of 0.02 put each level (0.025 apart) in a cell of its own, so that coordinates order
  // like the cells.
  expect_complete(x, {0, 1, 2}, points, 0.02, 3);
  const CellIndex index(x, {0, 1, 2}, points, 0.02);
  for (std::size_t c = 0; c < index.cells(); ++c) {
    for (std::uint32_t i = index.cell(c).begin + 1; i < index.cell(c).end; ++i)
      EXPECT_LT(index.position(i - 1), index.position(i));
    if (c > 0) {
      const std::uint32_t i = index.cell(c).begin;
      std::vector<double> now(index.coordinates(i), index.coordinates(i) + 3);
      std::vector<double> before(index.coordinates(i - 1), index.coordinates(i - 1) + 3);
      EXPECT_LT(before, now) << "cells of one grid in ascending key order";
    }
  }
}

}  // namespace
}  // namespace subscale::merge
