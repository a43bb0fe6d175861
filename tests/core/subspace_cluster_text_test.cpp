// The fast text writer of subspace clusters equals the plain stream form, line for line, on lists
// that span several of its parallel blocks, with empty lists and the largest ids.
#include "common/subspace_cluster_text.hpp"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

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
  EXPECT_EQ(subspace_clusters_text({{{0, 3}, {1, 2, 5}}}), "{0, 3}-[1, 2, 5]\n");
}

}  // namespace
}  // namespace subscale
