// Merge's progress: one phase whose total is the subspaces' points, advanced by exactly that many
// (from the worker threads), and the clusters the same as without a listener.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "stages/merge/merge.hpp"

namespace subscale::merge {
namespace {

TEST(MergeProgress, CountsEverySubspacesPointsOnce) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> uniform(0, 1);
  Matrix values(300, 5);
  for (Eigen::Index i = 0; i < values.rows(); ++i)
    for (Eigen::Index j = 0; j < values.cols(); ++j) values(i, j) = uniform(random);
  std::vector<SubspaceCluster> subspaces(40);
  std::uint64_t points = 0;
  for (std::size_t s = 0; s < subspaces.size(); ++s) {
    subspaces[s].dimensions = {static_cast<std::uint32_t>(s % 5), static_cast<std::uint32_t>(s % 5 == 4 ? 0 : 4)};
    if (subspaces[s].dimensions[0] > subspaces[s].dimensions[1])
      std::swap(subspaces[s].dimensions[0], subspaces[s].dimensions[1]);
    for (std::uint32_t p = 0; p < 300; ++p)
      if (random() % (s % 7 + 2) == 0) subspaces[s].points.push_back(p);
    points += subspaces[s].points.size();
  }
  // One very large subspace, split across threads inside.
  subspaces.push_back({{1, 2}, {}});
  for (std::uint32_t p = 0; p < 300; ++p) subspaces.back().points.push_back(p);
  points += 300;

  std::vector<std::pair<std::string, std::uint64_t>> phases;
  std::string unit;
  std::atomic<std::uint64_t> advanced{0};
  StageProgress progress;
  progress.on_begin = [&](const std::string& phase, std::uint64_t total, const std::string& what) {
    phases.emplace_back(phase, total);
    unit = what;
  };
  progress.on_advance = [&](std::uint64_t done) { advanced += done; };
  const MergeParams params{0.08, 4, 64};
  const MergeResult with = merge_subspaces(values, subspaces, params, progress);
  ASSERT_EQ(phases.size(), 1u);
  EXPECT_EQ(phases[0].second, points);
  EXPECT_EQ(unit, "points");
  EXPECT_EQ(advanced.load(), points);
  const MergeResult without = merge_subspaces(values, subspaces, params);
  EXPECT_EQ(with.clusters, without.clusters);
}

}  // namespace
}  // namespace subscale::merge
