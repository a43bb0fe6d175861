// DBSCAN on parts of a kept neighbour graph against dbscan_in_subspace on the same points.
#include "stages/merge/neighbour_graph.hpp"

#include <gtest/gtest.h>

#include <random>

#include "stages/merge/subspace_dbscan.hpp"

namespace subscale::merge {
namespace {

// Blobs and noise in [0, 1]^d, rounded to `levels` levels when levels > 0 (places of many points).
Matrix blobs(std::size_t n, std::size_t d, int levels, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> spread(0.0, 0.04);
  Matrix x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const double centre = 0.2 + 0.3 * static_cast<double>(i % 3);
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      double v = i % 4 == 3 ? uniform(random) : std::clamp(centre + spread(random), 0.0, 1.0);
      if (levels > 0) v = std::round(v * (levels - 1)) / (levels - 1);
      x(i, j) = v;
    }
  }
  return x;
}

std::vector<std::vector<std::uint32_t>> points_of(const std::vector<NeighbourGraph::Part>& parts) {
  std::vector<std::vector<std::uint32_t>> out;
  for (const auto& part : parts) out.push_back(part.points);
  return out;
}

// The tree denser_parts walks: each part split again at twice min_points, every part compared.
void expect_tree_matches(const Matrix& x, const NeighbourGraph& graph, const std::vector<std::uint32_t>& places,
                         const SubspaceCluster& points, double epsilon, std::size_t min_points, std::size_t& compared) {
  if (min_points > 64) return;
  const auto parts = graph.dbscan(places, min_points);
  ASSERT_EQ(points_of(parts), dbscan_in_subspace(x, points, epsilon, min_points, false).clusters)
      << "min_points " << min_points << ", " << points.points.size() << " points";
  ++compared;
  for (const auto& part : parts) {
    EXPECT_TRUE(std::is_sorted(part.places.begin(), part.places.end()));
    expect_tree_matches(x, graph, part.places, SubspaceCluster{points.dimensions, part.points}, epsilon, 2 * min_points,
                        compared);
  }
}

TEST(NeighbourGraph, EveryPartClustersAsDbscanOnItsPoints) {
  std::size_t compared = 0;
  for (const int levels : {0, 8, 30}) {
    const Matrix x = blobs(800, 3, levels, 3 + static_cast<std::uint64_t>(levels));
    SubspaceCluster cluster{{0, 2}, {}};
    for (std::uint32_t p = 0; p < 800; ++p)
      if (p % 5 != 1) cluster.points.push_back(p);
    for (const double epsilon : {0.01, 0.03, 0.08}) {
      for (const bool parallel : {false, true}) {
        SCOPED_TRACE("levels " + std::to_string(levels) + " epsilon " + std::to_string(epsilon));
        const auto graph = NeighbourGraph::of(x, cluster, epsilon, std::size_t{1} << 30, parallel);
        ASSERT_TRUE(graph.has_value());
        EXPECT_EQ(graph->dimensions(), cluster.dimensions);
        for (const std::size_t min_points : {1, 2, 3})
          expect_tree_matches(x, *graph, graph->all_places(), cluster, epsilon, min_points, compared);
      }
    }
  }
  EXPECT_GT(compared, 200u);
}

TEST(NeighbourGraph, AGraphOverTheBudgetIsNotBuilt) {
  const Matrix x = blobs(300, 2, 0, 11);
  SubspaceCluster cluster{{0, 1}, std::vector<std::uint32_t>(300)};
  for (std::uint32_t p = 0; p < 300; ++p) cluster.points[p] = p;
  EXPECT_FALSE(NeighbourGraph::of(x, cluster, 0.5, 1000, false).has_value());
  EXPECT_FALSE(NeighbourGraph::of(x, cluster, 0.5, 1000, true).has_value());
  EXPECT_TRUE(NeighbourGraph::of(x, cluster, 0.5, 300 * 299, false).has_value());
}

}  // namespace
}  // namespace subscale::merge
