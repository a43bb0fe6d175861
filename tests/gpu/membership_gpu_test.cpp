// The CUDA part of membership gives the CPU's members, bit for bit, in both precisions, including
// points at exactly the radius (integer levels) and blocks smaller than the input.
#include <gtest/gtest.h>

#include <random>

#include "stages/sample/sample.hpp"
#include "tests/skip_without_gpu.hpp"

namespace subscale::sample {
namespace {

template <class T>
ColumnMatrix<T> values_of(Eigen::Index rows, Eigen::Index cols, unsigned seed, int levels) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  ColumnMatrix<T> m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) {
      const double v = u(rng);
      m(i, j) = static_cast<T>(levels > 0 ? std::floor(v * levels) / (levels - 1) : v);
    }
  return m;
}

std::vector<SubspaceCluster> clusters_of(std::uint32_t reference_rows) {
  std::vector<SubspaceCluster> clusters;
  for (std::uint32_t c = 0; c < 9; ++c) {
    SubspaceCluster cluster;
    cluster.dimensions = c % 3 == 0 ? std::vector<std::uint32_t>{0, 5} : std::vector<std::uint32_t>{1, 2, 3 + c % 3};
    for (std::uint32_t p = c; p < reference_rows; p += 5 + c) cluster.points.push_back(p);
    clusters.push_back(cluster);
  }
  clusters.push_back({{2}, {}});  // no points: no members
  return clusters;
}

template <class T>
void expect_cpu_equals_gpu(int levels, double radius, std::uint64_t device_bytes) {
  const auto points = values_of<T>(20000, 6, 3, levels);
  const auto reference = values_of<T>(600, 6, 4, levels);
  const auto clusters = clusters_of(600);
  const auto cpu = members_near(points, reference, clusters, {radius});
  const auto gpu = members_near_cuda(points, reference, clusters, {radius}, {nullptr, device_bytes});
  ASSERT_EQ(cpu.size(), gpu.size());
  std::size_t total = 0;
  for (std::size_t c = 0; c < cpu.size(); ++c) {
    EXPECT_EQ(cpu[c], gpu[c]) << "cluster " << c;
    total += cpu[c].size();
  }
  EXPECT_GT(total, 1000u);  // something to compare
}

TEST(MembershipGpu, EqualsTheCpuInDoublePrecision) {
  SKIP_WITHOUT_GPU();
  expect_cpu_equals_gpu<double>(0, 0.04, 0);
}

TEST(MembershipGpu, EqualsTheCpuInSinglePrecision) {
  SKIP_WITHOUT_GPU();
  expect_cpu_equals_gpu<float>(0, 0.04, 0);
}

TEST(MembershipGpu, EqualsTheCpuAtExactlyTheRadiusOnLevels) {
  SKIP_WITHOUT_GPU();
  // 11 levels, radius one level gap: many pairs lie exactly at the radius.
  expect_cpu_equals_gpu<double>(11, 0.1, 0);
  expect_cpu_equals_gpu<float>(11, 0.1, 0);
}

TEST(MembershipGpu, EqualsTheCpuInSmallBlocks) {
  SKIP_WITHOUT_GPU();
  // A budget that holds a few thousand rows at a time.
  expect_cpu_equals_gpu<double>(0, 0.05, 1 << 20);
}

}  // namespace
}  // namespace subscale::sample
