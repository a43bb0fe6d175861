// Merge in the held precision: the distance test computes differences, squares and their sum in
// float for float32 data (against float(epsilon) squared in float), so a pair whose distance lies
// within rounding of epsilon is a neighbour in one precision and not in the other; on values that
// both precisions hold exactly (a dyadic grid) the two give the same clusters.
#include <gtest/gtest.h>

#include <random>

#include "stages/merge/merge.hpp"

namespace subscale::merge {
namespace {

MergeResult merged(const auto& values, double epsilon, std::uint32_t min_points) {
  std::vector<std::uint32_t> points(static_cast<std::size_t>(values.rows()));
  for (std::uint32_t i = 0; i < points.size(); ++i) points[i] = i;
  std::vector<std::uint32_t> dims(static_cast<std::size_t>(values.cols()));
  for (std::uint32_t j = 0; j < dims.size(); ++j) dims[j] = j;
  return merge_subspaces(values, {SubspaceCluster{dims, points}}, MergeParams{epsilon, min_points});
}

TEST(MergeHeldPrecision, PairsWithinRoundingOfEpsilon) {
  Matrix only_float(2, 1), only_double(2, 1);
  only_float << 0.25, 0.35000000001;  // 0.10000000001 apart; in float 0.34999999 - 0.25 < float(0.1)
  only_double << 0.5, 0.599999999;    // 0.099999999 apart; in float 0.60000002 - 0.5 > float(0.1)
  EXPECT_EQ(merged(only_float, 0.1, 2).clusters.size(), 0u);
  EXPECT_EQ(merged(Matrix32(only_float.cast<float>()), 0.1, 2).clusters.size(), 1u);
  EXPECT_EQ(merged(only_double, 0.1, 2).clusters.size(), 1u);
  EXPECT_EQ(merged(Matrix32(only_double.cast<float>()), 0.1, 2).clusters.size(), 0u);
}

TEST(MergeHeldPrecision, ExactValuesGiveTheSameClustersInBothPrecisions) {
  // Multiples of 1/256 and epsilon 1/16: differences, squares and sums are exact in float too.
  std::mt19937_64 random(4);
  Matrix values(400, 3);
  for (Eigen::Index i = 0; i < values.rows(); ++i)
    for (Eigen::Index j = 0; j < values.cols(); ++j)
      values(i, j) = static_cast<double>(i < 150 ? 64 + random() % 24 : random() % 257) / 256.0;
  for (std::uint32_t m : {3u, 6u}) {
    const MergeResult wide = merged(values, 0.0625, m);
    const MergeResult narrow = merged(Matrix32(values.cast<float>()), 0.0625, m);
    ASSERT_FALSE(wide.clusters.empty());
    EXPECT_EQ(narrow.clusters, wide.clusters) << "min_points " << m;
    EXPECT_EQ(narrow.stats.core_points, wide.stats.core_points) << "min_points " << m;
  }
}

}  // namespace
}  // namespace subscale::merge
