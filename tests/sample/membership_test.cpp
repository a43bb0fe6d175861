#include "stages/sample/membership.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

namespace subscale::sample {
namespace {

template <class T>
ColumnMatrix<T> random_values(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  ColumnMatrix<T> m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = static_cast<T>(u(rng));
  return m;
}

// The rule stated plainly: every point against every member, the sum in T in dimension order.
template <class T>
std::vector<std::uint32_t> brute_force(const ColumnMatrix<T>& points, const ColumnMatrix<T>& reference,
                                       const SubspaceCluster& cluster, double radius) {
  const T r = static_cast<T>(radius);
  std::vector<std::uint32_t> out;
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    for (const auto p : cluster.points) {
      T sum = 0;
      for (const auto j : cluster.dimensions) {
        const T diff = points(i, j) - reference(p, j);
        sum += diff * diff;
      }
      if (sum <= r * r) {
        out.push_back(static_cast<std::uint32_t>(i));
        break;
      }
    }
  }
  return out;
}

std::vector<SubspaceCluster> some_clusters(std::size_t reference_rows) {
  std::vector<SubspaceCluster> clusters;
  std::mt19937 rng(11);
  for (std::uint32_t c = 0; c < 6; ++c) {
    SubspaceCluster cluster;
    cluster.dimensions = c % 2 ? std::vector<std::uint32_t>{0, 3} : std::vector<std::uint32_t>{1, 2, 4};
    for (std::uint32_t p = c; p < reference_rows; p += 7 + c) cluster.points.push_back(p);
    clusters.push_back(cluster);
  }
  return clusters;
}

template <class T>
void expect_brute_force(double radius, std::size_t block) {
  const auto points = random_values<T>(3000, 5, 1);
  const auto reference = random_values<T>(200, 5, 2);
  const auto clusters = some_clusters(200);
  const auto found = members_near(points, reference, clusters, {radius, block});
  ASSERT_EQ(found.size(), clusters.size());
  for (std::size_t c = 0; c < clusters.size(); ++c)
    EXPECT_EQ(found[c], brute_force(points, reference, clusters[c], radius)) << "cluster " << c;
}

TEST(Membership, EqualsEveryPointAgainstEveryMemberInDoublePrecision) {
  expect_brute_force<double>(0.05, 65536);
  expect_brute_force<double>(0.12, 100);
}

TEST(Membership, EqualsEveryPointAgainstEveryMemberInSinglePrecision) {
  expect_brute_force<float>(0.05, 333);
  expect_brute_force<float>(0.2, 65536);
}

TEST(Membership, PointsAtExactlyTheRadiusBelongOnLevelData) {
  // Integer levels: distances of exactly one level gap are within an inclusive radius of one gap.
  Matrix points(4, 2), reference(1, 2);
  points << 0.25, 0.5, 0.5, 0.5, 0.75, 0.75, 0.5, 0.25;
  reference << 0.5, 0.5;
  const SubspaceCluster cluster{{0, 1}, {0}};
  const auto found = members_near(points, reference, {cluster}, {0.25});
  EXPECT_EQ(found[0], (std::vector<std::uint32_t>{0, 1, 3}));
}

TEST(Membership, AClustersOwnPointsBelongToIt) {
  const auto values = random_values<double>(500, 4, 5);
  const SubspaceCluster cluster{{1, 2}, {3, 40, 41, 200, 499}};
  const auto found = members_near(values, values, {cluster}, {1e-9});
  EXPECT_EQ(found[0], cluster.points);
}

TEST(Membership, DoesNotDependOnTheBlockSize) {
  const auto points = random_values<double>(2000, 5, 8);
  const auto reference = random_values<double>(150, 5, 9);
  const auto clusters = some_clusters(150);
  EXPECT_EQ(members_near(points, reference, clusters, {0.1, 7}), members_near(points, reference, clusters, {0.1}));
}

TEST(Membership, RefusesABadRadiusOrClusterWithAMessage) {
  const auto values = random_values<double>(10, 3, 1);
  EXPECT_THROW(members_near(values, values, {{{0}, {1}}}, {0.0}), std::invalid_argument);
  try {
    members_near(values, values, {{{0, 5}, {1}}}, {0.1});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("dimension 5"), std::string::npos) << e.what();
  }
  EXPECT_THROW(members_near(values, values, {{{0}, {10}}}, {0.1}), std::invalid_argument);
}

}  // namespace
}  // namespace subscale::sample
