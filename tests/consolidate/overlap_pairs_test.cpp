// The pieces the consolidate stage's speed rests on, against the plain algorithms they replace:
// the branch-free set operations against the standard ones, the overlap pairs (inverted index,
// radix sort) against every pair intersected directly and sorted by comparisons, and the ranks
// of a set of points against sorting their values.
#include "stages/consolidate/overlap_pairs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <random>
#include <vector>

#include "stages/consolidate/column_sorter.hpp"
#include "stages/consolidate/sorted_ids.hpp"

namespace subscale::consolidate {
namespace {

using Ids = std::vector<std::uint32_t>;

Ids random_ids(std::mt19937& rng, std::uint32_t universe, double density) {
  std::bernoulli_distribution take(density);
  Ids ids;
  for (std::uint32_t i = 0; i < universe; ++i)
    if (take(rng)) ids.push_back(i);
  return ids;
}

TEST(SortedIds, EqualTheStandardSetOperations) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    const std::uint32_t universe = 1 + round % 97;
    const Ids a = random_ids(rng, universe, (round % 5) / 4.0);
    const Ids b = random_ids(rng, universe, (round % 7) / 6.0);
    Ids expected_union, expected_difference;
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(expected_union));
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(expected_difference));
    EXPECT_EQ(sorted_union(a, b), expected_union);
    EXPECT_EQ(sorted_difference(a, b), expected_difference);
  }
}

// Every pair intersected directly, ordered by overlap descending, then first, then second.
std::vector<OverlapPair> pairs_directly(const std::vector<Ids>& clusters, double threshold) {
  std::vector<OverlapPair> pairs;
  for (std::uint32_t a = 0; a < clusters.size(); ++a)
    for (std::uint32_t b = a + 1; b < clusters.size(); ++b) {
      const std::size_t smaller = std::min(clusters[a].size(), clusters[b].size());
      if (smaller == 0) continue;
      Ids common;
      std::set_intersection(clusters[a].begin(), clusters[a].end(), clusters[b].begin(), clusters[b].end(),
                            std::back_inserter(common));
      const std::size_t shared = common.size();
      if (shared == 0) continue;
      const double overlap = static_cast<double>(shared) / static_cast<double>(smaller);
      if (overlap >= threshold) pairs.push_back({a, b, overlap});
    }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const OverlapPair& x, const OverlapPair& y) { return x.overlap > y.overlap; });
  return pairs;
}

TEST(OverlapPairs, EqualEveryPairIntersectedDirectly) {
  std::mt19937 rng(11);
  for (const double threshold : {0.05, 0.5, 0.9, 1.0}) {
    for (const std::size_t count : {0u, 1u, 7u, 60u, 300u}) {
      // Clusters drawn around a few centres, so that many pairs overlap strongly, some not at all.
      std::vector<Ids> clusters;
      for (std::size_t c = 0; c < count; ++c) {
        const std::uint32_t centre = static_cast<std::uint32_t>(c % 5) * 150;
        Ids ids;
        std::bernoulli_distribution take(0.3 + 0.6 * ((c * 7) % 10) / 10.0);
        for (std::uint32_t p = centre; p < centre + 200; ++p)
          if (take(rng)) ids.push_back(p);
        clusters.push_back(std::move(ids));
      }
      std::vector<const Ids*> lists;
      for (const Ids& ids : clusters) lists.push_back(&ids);
      const std::vector<OverlapPair> got = overlapping_pairs(lists, 800, threshold);
      const std::vector<OverlapPair> expected = pairs_directly(clusters, threshold);
      ASSERT_EQ(got.size(), expected.size()) << "threshold " << threshold << ", " << count << " clusters";
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].first, expected[i].first) << i;
        EXPECT_EQ(got[i].second, expected[i].second) << i;
        EXPECT_EQ(got[i].overlap, expected[i].overlap) << i;
      }
    }
  }
}

// Clusters over 46340 points: the pairs are ordered by the overlap's full 64 bits, not by the
// 32-bit key that keeps smaller fractions apart. Sizes near each other give overlaps that differ
// in their last bits only.
TEST(OverlapPairs, EqualEveryPairIntersectedDirectlyForClustersOverTheCompactKeysLimit) {
  std::mt19937 rng(5);
  const std::uint32_t universe = 60000;
  std::vector<Ids> clusters;
  for (const std::uint32_t size : {46341u, 46342u, 50000u, 59999u}) {
    Ids ids(size);
    std::iota(ids.begin(), ids.end(), 0u);
    clusters.push_back(ids);
    // A copy with a few points taken out at random: overlaps just under 1 with the others.
    std::shuffle(ids.begin(), ids.end(), rng);
    ids.resize(size - 1 - rng() % 3);
    std::sort(ids.begin(), ids.end());
    clusters.push_back(std::move(ids));
  }
  std::vector<const Ids*> lists;
  for (const Ids& ids : clusters) lists.push_back(&ids);
  const std::vector<OverlapPair> got = overlapping_pairs(lists, universe, 0.5);
  const std::vector<OverlapPair> expected = pairs_directly(clusters, 0.5);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].first, expected[i].first) << i;
    EXPECT_EQ(got[i].second, expected[i].second) << i;
    EXPECT_EQ(got[i].overlap, expected[i].overlap) << i;
  }
}

// T is the held precision the sorter keeps its values by rank in.
template <class T>
void expect_ranks_order_any_set_by_value() {
  std::mt19937 rng(3);
  // Few distinct values, so that ties between points are many.
  std::uniform_int_distribution<int> level(0, 40);
  ColumnMatrix<T> values(500, 3);
  for (Eigen::Index r = 0; r < values.rows(); ++r)
    for (Eigen::Index c = 0; c < values.cols(); ++c) values(r, c) = static_cast<T>(level(rng) / 40.0);
  const ColumnSorter<T> sorter(values);
  for (const double density : {0.001, 0.02, 0.5, 1.0}) {
    const Ids points = random_ids(rng, 500, density);
    for (std::uint32_t d = 0; d < 3; ++d) {
      std::vector<T> expected, got;
      for (std::uint32_t p : points) expected.push_back(values(p, d));
      std::sort(expected.begin(), expected.end());
      for (std::uint32_t rank : sorter.rank_set(points, d).ranks()) got.push_back(sorter.value_at(d, rank));
      EXPECT_EQ(got, expected) << "density " << density << ", dimension " << d;
    }
  }
}

TEST(ColumnSorter, RanksOrderAnySetByValue) { expect_ranks_order_any_set_by_value<double>(); }
TEST(ColumnSorter, RanksOrderAnySetByFloat32Value) { expect_ranks_order_any_set_by_value<float>(); }

}  // namespace
}  // namespace subscale::consolidate
