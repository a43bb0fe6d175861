#include "stages/dedup/dedup.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace subscale::dedup {
namespace {

// Columns in [0, 1] with their minimum 0 and maximum 1, as min-max normalisation leaves them.
Matrix normalised_noise(std::size_t n, std::size_t d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Matrix m(n, d);
  for (Eigen::Index j = 0; j < m.cols(); ++j) {
    for (Eigen::Index i = 0; i < m.rows(); ++i) m(i, j) = u(rng);
    const double lo = m.col(j).minCoeff(), hi = m.col(j).maxCoeff();
    m.col(j) = (m.col(j).array() - lo) / (hi - lo);
  }
  return m;
}

// a * x + b normalised again, as a loaded column that is linear in another ends up.
Eigen::VectorXd linear_of(const Eigen::VectorXd& x, double a, double b) {
  const Eigen::VectorXd y = (a * x.array() + b).matrix();
  return ((y.array() - y.minCoeff()) / (y.maxCoeff() - y.minCoeff())).matrix();
}

TEST(RepeatedColumns, CopiesLinearAndMirroredColumnsFoldIntoTheirFirst) {
  Matrix m = normalised_noise(500, 7, 1);
  m.col(2) = m.col(0);                          // a copy
  m.col(4) = linear_of(m.col(1), 3.7, -12.25);  // a x + b, a > 0
  m.col(6) = linear_of(m.col(0), -0.31, 4.0);   // a < 0: 1 - x after normalisation
  const ColumnFolding folding = find_repeated_columns(m);
  EXPECT_EQ(folding.kept, (std::vector<std::uint32_t>{0, 1, 3, 5}));
  EXPECT_EQ(folding.folded_of, (std::vector<std::uint32_t>{0, 1, 0, 2, 1, 3, 0}));
  EXPECT_EQ(folding.folded_away(), 3U);
  EXPECT_EQ(folding.mirrored_count(), 1U);
  EXPECT_TRUE(folding.mirrored[6]);
  const Matrix kept = keep_columns(m, folding);
  ASSERT_EQ(kept.cols(), 4);
  EXPECT_EQ(kept.col(2), m.col(3));
}

TEST(RepeatedColumns, DistinctAndConstantColumnsAreKept) {
  Matrix m = normalised_noise(300, 5, 2);
  m.col(3).setZero();
  m.col(4).setZero();  // two constant columns: nothing to fold, no cluster either way
  const ColumnFolding folding = find_repeated_columns(m);
  EXPECT_FALSE(folding.any());
  EXPECT_EQ(folding.kept.size(), 5U);
}

TEST(RepeatedColumns, ColumnsThatDifferInOneValueAreNotOne) {
  Matrix m = normalised_noise(300, 2, 3);
  m.col(1) = m.col(0);
  m(137, 1) = std::min(1.0, m(137, 1) + 1e-6);
  EXPECT_FALSE(find_repeated_columns(m).any());
}

TEST(RepeatedColumns, ValuesOnTheKeysRoundingStepStillFold) {
  // The first values sit on a step of the candidates' coarse key; the copy is a rounding below.
  Matrix m = normalised_noise(200, 2, 4);
  for (Eigen::Index i = 1; i < 8; ++i) m(i, 0) = 0.1 + 1e-4 * static_cast<double>(i);
  m.col(1) = m.col(0);
  for (Eigen::Index i = 1; i < 8; ++i) m(i, 1) = std::nextafter(m(i, 0), 0.0);
  const ColumnFolding folding = find_repeated_columns(m);
  EXPECT_EQ(folding.kept, (std::vector<std::uint32_t>{0}));
}

TEST(RepeatedColumns, FloatValuesFoldWithinTheirRounding) {
  const Matrix m = normalised_noise(400, 2, 5);
  Matrix32 f(400, 2);
  f.col(0) = m.col(0).cast<float>();
  f.col(1) = linear_of(m.col(0), 2.5, 1.0).cast<float>();
  EXPECT_EQ(find_repeated_columns(f).kept, (std::vector<std::uint32_t>{0}));
}

TEST(RepeatedColumns, ClustersAreReportedInEveryColumnOfTheirGroups) {
  Matrix m = normalised_noise(100, 5, 6);
  m.col(3) = m.col(1);
  m.col(4) = linear_of(m.col(0), -1.0, 0.0);
  const ColumnFolding folding = find_repeated_columns(m);  // kept 0, 1, 2
  ASSERT_EQ(folding.kept, (std::vector<std::uint32_t>{0, 1, 2}));
  std::vector<SubspaceCluster> clusters{{{0, 1}, {3, 4}}, {{2}, {1}}};
  unfold(clusters, folding);
  EXPECT_EQ(clusters[0].dimensions, (std::vector<std::uint32_t>{0, 1, 3, 4}));
  EXPECT_EQ(clusters[0].points, (std::vector<std::uint32_t>{3, 4}));
  EXPECT_EQ(clusters[1].dimensions, (std::vector<std::uint32_t>{2}));
}

}  // namespace
}  // namespace subscale::dedup
