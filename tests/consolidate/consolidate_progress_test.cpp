// Consolidation's progress: "gathering" counts the input clusters, each pass's joining its
// clusters while it finds the candidate pairs, then the pairs, and its extending its clusters; every phase is advanced
// by exactly its total, and the result is the same as without a listener.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <string>
#include <vector>

#include "stages/consolidate/consolidate.hpp"

namespace subscale::consolidate {
namespace {

struct Phase {
  std::string name;
  std::uint64_t total = 0;
  std::uint64_t advanced = 0;
};

TEST(ConsolidateProgress, EveryPhaseIsAdvancedByItsTotal) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> uniform(0, 1), narrow(0.30, 0.32);
  Matrix values(400, 6);
  for (Eigen::Index i = 0; i < values.rows(); ++i)
    for (Eigen::Index j = 0; j < values.cols(); ++j) values(i, j) = i < 80 && j < 4 ? narrow(random) : uniform(random);
  // The hidden cluster's 2-D projections (some points missing from each), and chance clusters.
  std::vector<SubspaceCluster> clusters;
  for (std::uint32_t a = 0; a < 4; ++a)
    for (std::uint32_t b = a + 1; b < 4; ++b) {
      SubspaceCluster c{{a, b}, {}};
      for (std::uint32_t p = 0; p < 80; ++p)
        if ((p + a + b) % 9 != 0) c.points.push_back(p);
      clusters.push_back(c);
    }
  for (int k = 0; k < 30; ++k) {
    SubspaceCluster c{{4, 5}, {}};
    for (std::uint32_t p = 80; p < 400; ++p)
      if (random() % 40 == 0) c.points.push_back(p);
    clusters.push_back(c);
  }

  std::vector<Phase> phases;
  std::atomic<std::uint64_t> advanced{0};
  StageProgress progress;
  progress.on_begin = [&](const std::string& name, std::uint64_t total, const std::string&) {
    if (!phases.empty()) phases.back().advanced = advanced.exchange(0);
    phases.push_back({name, total, 0});
  };
  progress.on_advance = [&](std::uint64_t done) { advanced += done; };
  const ConsolidateParams params;
  const ConsolidateResult with = consolidate_clusters(values, clusters, params, progress);
  ASSERT_FALSE(phases.empty());
  phases.back().advanced = advanced.exchange(0);
  EXPECT_EQ(phases[0].name, "gathering");
  EXPECT_EQ(phases[0].total, clusters.size());
  bool joined = false, extended = false, finding = false;
  for (const Phase& phase : phases) {
    EXPECT_EQ(phase.advanced, phase.total) << phase.name;
    joined |= phase.name == "pass 1 joining";
    finding |= phase.name == "pass 1 joining (finding pairs)";
    extended |= phase.name == "pass 1 extending";
  }
  EXPECT_TRUE(joined);
  EXPECT_TRUE(extended);
  EXPECT_TRUE(finding);

  const ConsolidateResult without = consolidate_clusters(values, clusters, params);
  EXPECT_EQ(with.clusters, without.clusters);
  EXPECT_EQ(with.stats.joins, without.stats.joins);
  ASSERT_FALSE(with.clusters.empty());
  EXPECT_EQ(with.clusters[0].dimensions, (std::vector<std::uint32_t>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace subscale::consolidate
