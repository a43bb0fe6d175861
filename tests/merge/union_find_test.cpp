#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include <random>

#include "stages/merge/concurrent_union_find.hpp"

namespace subscale::merge {
namespace {

// Components by repeated relabelling: slow and obviously right.
std::vector<std::uint32_t> reference_components(std::size_t n,
                                                const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
  std::vector<std::uint32_t> label(n);
  for (std::size_t i = 0; i < n; ++i) label[i] = static_cast<std::uint32_t>(i);
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [a, b] : edges) {
      const std::uint32_t low = std::min(label[a], label[b]);
      if (label[a] != low || label[b] != low) {
        label[a] = label[b] = low;
        changed = true;
      }
    }
  }
  return label;
}

TEST(ConcurrentUnionFind, SerialAndParallelUnionsGiveTheComponents) {
  const std::size_t n = 5000;
  std::mt19937_64 random(3);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::size_t e = 0; e < 3500; ++e)
    edges.emplace_back(static_cast<std::uint32_t>(random() % n), static_cast<std::uint32_t>(random() % n));
  const auto expected = reference_components(n, edges);

  ConcurrentUnionFind serial(n);
  for (auto [a, b] : edges) serial.unite(a, b);
  ConcurrentUnionFind parallel(n);
  tbb::parallel_for(std::size_t{0}, edges.size(),
                    [&](std::size_t e) { parallel.unite(edges[e].first, edges[e].second); });
  for (std::uint32_t i = 0; i < n; ++i) {
    // The representative is the smallest index of the component, as in the reference.
    EXPECT_EQ(serial.find(i), expected[i]);
    EXPECT_EQ(parallel.find(i), expected[i]);
  }
  EXPECT_FALSE(serial.unite(edges[0].first, edges[0].second));
}

}  // namespace
}  // namespace subscale::merge
