// The fast text writer of subspace clusters equals the plain stream form, line for line, on lists
// that span several of its parallel blocks, with empty lists and the largest ids; handed on block
// by block, the blocks come in order and many more of them than the buffers it reuses; a sink
// that fails stops the writer with its error.
#include "common/subspace_cluster_text.hpp"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <stdexcept>

namespace subscale {
namespace {

std::string streamed(const std::vector<SubspaceCluster>& clusters) {
  std::ostringstream out;
  for (const auto& cluster : clusters) out << cluster << '\n';
  return out.str();
}

TEST(SubspaceClusterText, EqualsTheStreamForm) {
  std::mt19937 random(5);
  std::vector<SubspaceCluster> clusters(10'000);
  for (auto& cluster : clusters) {
    for (std::uint32_t d = 0, count = random() % 5; d < count; ++d) cluster.dimensions.push_back(random() % 1000);
    for (std::uint32_t p = 0, count = random() % 40; p < count; ++p) cluster.points.push_back(random());
  }
  clusters[17].points = {0, 4294967295u};
  clusters[18] = {};
  EXPECT_EQ(subspace_clusters_text(clusters), streamed(clusters));
  EXPECT_EQ(subspace_clusters_text({}), "");
  // Every digit count, at both ends of its range.
  SubspaceCluster edges{{0, 9, 10}, {}};
  for (std::uint64_t power = 1; power <= 1'000'000'000; power *= 10)
    for (std::uint64_t value : {power - 1, power, power + 1, 2 * power + 3})
      if (value <= 4294967295u) edges.points.push_back(static_cast<std::uint32_t>(value));
  edges.points.push_back(4294967295u);
  EXPECT_EQ(subspace_clusters_text({edges}), streamed({edges}));
  EXPECT_EQ(subspace_clusters_text({{{0, 3}, {1, 2, 5}}}), "{0, 3}-[1, 2, 5]\n");
}

TEST(SubspaceClusterText, ManyBlocksArriveInOrder) {
  std::mt19937 random(8);
  // About 4 M ids: some thirty blocks, so every reused buffer is taken several times.
  std::vector<SubspaceCluster> clusters(100'000);
  for (auto& cluster : clusters) {
    cluster.dimensions = {static_cast<std::uint32_t>(random() % 50), static_cast<std::uint32_t>(50 + random() % 50)};
    for (std::uint32_t p = 0, count = random() % 80; p < count; ++p) cluster.points.push_back(random() % 100'000);
  }
  std::string joined;
  std::size_t blocks = 0;
  write_subspace_clusters_text(clusters, [&](std::string_view block) {
    EXPECT_FALSE(block.empty());
    EXPECT_EQ(block.back(), '\n');  // blocks end at line ends
    joined.append(block);
    ++blocks;
  });
  EXPECT_GT(blocks, 20u);
  EXPECT_EQ(joined, streamed(clusters));
}

TEST(SubspaceClusterText, AFailingSinkStopsTheWriter) {
  std::vector<SubspaceCluster> clusters(50'000, SubspaceCluster{{1, 2}, std::vector<std::uint32_t>(40, 7)});
  std::size_t calls = 0;
  EXPECT_THROW(write_subspace_clusters_text(clusters,
                                            [&](std::string_view) {
                                              if (++calls == 2) throw std::runtime_error("disk full");
                                            }),
               std::runtime_error);
  EXPECT_EQ(calls, 2u);
}

}  // namespace
}  // namespace subscale
