#include "stages/significance/merge_sieve.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "significance_test_data.hpp"
#include "stages/merge/merge.hpp"
#include "stages/significance/denser_parts.hpp"
#include "stages/significance/keep_significant.hpp"

namespace subscale::significance {
namespace {

using testing::plant;
using testing::skewed_levels;
using testing::uniform_noise;

// Every pair of dimensions with all points: merge at min_points 2 makes many small clusters there.
std::vector<SubspaceCluster> all_pairs(std::uint32_t n, std::uint32_t d) {
  std::vector<SubspaceCluster> pairs;
  std::vector<std::uint32_t> points(n);
  for (std::uint32_t i = 0; i < n; ++i) points[i] = i;
  for (std::uint32_t a = 0; a < d; ++a)
    for (std::uint32_t b = a + 1; b < d; ++b) pairs.push_back({{a, b}, points});
  return pairs;
}

// Tie-heavy levels or continuous noise, with a planted cluster in dimensions 1 and 3.
Matrix data(bool tied, std::uint64_t seed) {
  Matrix m = tied ? skewed_levels(900, 6, 12 + 8 * seed, 40 + seed) : uniform_noise(900, 6, 40 + seed);
  plant(m, {1, 3}, 100, 45, 0.03, 90 + seed);
  return m;
}

merge::MergeParams merge_params(bool tied) { return {tied ? 0.06 : 0.012, 2}; }

struct SieveCase {
  bool tied;
  std::uint64_t seed;
  double sample_scale;
};

std::vector<SieveCase> cases() {
  std::vector<SieveCase> all;
  for (const bool tied : {true, false})
    for (std::uint64_t seed = 0; seed < 3; ++seed) all.push_back({tied, seed, seed == 2 ? 6.0 : 1.0});
  return all;
}

// The bound behind the sieve: no cluster merge finds scores a raw p-value below it.
TEST(MergeSieve, NoClusterHasARawPValueBelowTheBound) {
  for (const auto& c : cases()) {
    const Matrix m = data(c.tied, c.seed);
    const auto marginals = Marginals::of(m);
    const auto merged = merge::merge_subspaces(m, all_pairs(900, 6), merge_params(c.tied));
    TestParams params;
    params.sample_scale = c.sample_scale;
    MergeSieve sieve(marginals, params, nullptr, 4, 0);
    for (const auto& cluster : merged.clusters) {
      const auto k = static_cast<std::uint32_t>(cluster.points.size());
      double log_q = 0;
      for (const auto j : cluster.dimensions) {
        std::uint32_t floor = k;
        for (const auto p : cluster.points) floor = std::max(floor, marginals.tie_count(j, p));
        log_q += std::log(static_cast<double>(floor) / 900.0);
      }
      const auto score = gathering_score(m, marginals, cluster, params);
      EXPECT_GE(sieve.best_raw(k, log_q) + 1e-9, -score.log10_p) << k << " points";
    }
  }
}

// What the sieve sets aside fails the test and is no candidate for consolidation; the candidates
// chosen from what it keeps are those chosen from every cluster.
TEST(MergeSieve, TheCandidatesAreThoseOfEveryClusterAndTheRestFail) {
  std::uint64_t set_aside = 0, found = 0;
  for (const auto& c : cases()) {
    const Matrix m = data(c.tied, c.seed);
    const auto marginals = Marginals::of(m);
    TestParams params;
    params.sample_scale = c.sample_scale;
    const auto subspaces = all_pairs(900, 6);
    const auto every = merge::merge_subspaces(m, subspaces, merge_params(c.tied));
    MergeSieve sieve(marginals, params, nullptr, 4, 0);
    const auto sieved = merge::merge_subspaces(m, subspaces, merge_params(c.tied), {}, &sieve);
    ASSERT_EQ(sieved.stats.clusters, every.clusters.size());
    ASSERT_EQ(sieved.clusters.size() + sieved.stats.clusters_set_aside, every.clusters.size());
    found += every.clusters.size();
    set_aside += sieved.stats.clusters_set_aside;

    const auto all = consolidation_candidates(m, marginals, every.clusters, params, 50, 5);
    const auto some = consolidation_candidates(m, marginals, sieved.clusters, params, 50, 5, every.clusters.size());
    ASSERT_GT(all.significant, 0U);  // the planted cluster
    EXPECT_EQ(some.significant, all.significant);
    ASSERT_EQ(some.kept.indices.size(), all.kept.indices.size());
    for (std::size_t i = 0; i < all.kept.indices.size(); ++i) {
      EXPECT_EQ(sieved.clusters[some.kept.indices[i]], every.clusters[all.kept.indices[i]]);
      EXPECT_EQ(some.kept.scores[i].score, all.kept.scores[i].score);
    }
    // Every cluster the sieve dropped fails and is no candidate (raw p-value above alpha / found).
    std::size_t next = 0;
    const double weak = std::log10(params.alpha) - std::log10(static_cast<double>(every.clusters.size()));
    for (const auto& cluster : every.clusters) {
      if (next < sieved.clusters.size() && sieved.clusters[next] == cluster) {
        ++next;
        continue;
      }
      const auto score = gathering_score(m, marginals, cluster, params);
      EXPECT_LT(score.score, -std::log10(params.alpha));
      EXPECT_GT(score.log10_p, weak);
    }
    EXPECT_EQ(next, sieved.clusters.size());  // the kept ones, in merge's order
  }
  EXPECT_GT(set_aside, found / 2);  // the bound settles most of them
}

// While merge still finds clusters, the sieve refuses early only what keep() refuses for every
// count from the one it was given; it refuses most of the small clusters of tied data early.
TEST(MergeSieve, AnEarlyRefusalHoldsForEveryLargerCount) {
  std::uint64_t refused = 0, asked = 0;
  for (const auto& c : cases()) {
    const Matrix m = data(c.tied, c.seed);
    const auto marginals = Marginals::of(m);
    TestParams params;
    params.sample_scale = c.sample_scale;
    const auto every = merge::merge_subspaces(m, all_pairs(900, 6), merge_params(c.tied));
    const std::uint64_t from = every.clusters.size() / 4;
    MergeSieve sieve(marginals, params, &params, 4, from);
    for (const auto& cluster : every.clusters) {
      ++asked;
      EXPECT_TRUE(sieve.may_keep(cluster.dimensions, cluster.points, from - 1));  // below sieve_from
      if (!sieve.may_keep(cluster.dimensions, cluster.points, from)) ++refused;
    }
    for (const std::uint64_t found : {from, 2 * from, 1000 * from}) {
      sieve.prepare(found);
      for (const auto& cluster : every.clusters) {
        if (!sieve.may_keep(cluster.dimensions, cluster.points, from)) {
          EXPECT_FALSE(sieve.keep(cluster.dimensions, cluster.points)) << found << " found";
        }
      }
    }
  }
  EXPECT_GT(refused, asked / 4);
}

// Where merge found few clusters, nothing is set aside: the closest failures an empty result names
// are ranked among all of them.
TEST(MergeSieve, FewClustersAreAllKept) {
  const Matrix m = data(true, 1);
  const auto marginals = Marginals::of(m);
  const TestParams params;
  const auto subspaces = all_pairs(900, 6);
  const auto every = merge::merge_subspaces(m, subspaces, merge_params(true));
  MergeSieve sieve(marginals, params, nullptr, 4, every.clusters.size() + 1);
  const auto sieved = merge::merge_subspaces(m, subspaces, merge_params(true), {}, &sieve);
  EXPECT_EQ(sieved.stats.clusters_set_aside, 0U);
  EXPECT_EQ(sieved.clusters, every.clusters);
}

// With the denser parts on, a large failing cluster stays wherever a part of it could pass.
TEST(MergeSieve, ALargeClusterStaysWhereAPartOfItCouldPass) {
  const Matrix m = data(true, 0);
  const auto marginals = Marginals::of(m);
  const TestParams params;
  const auto every = merge::merge_subspaces(m, all_pairs(900, 6), merge_params(true));
  MergeSieve without(marginals, params, nullptr, 4, 0), with(marginals, params, &params, 4, 0);
  without.prepare(every.clusters.size());
  with.prepare(every.clusters.size());
  std::size_t large = 0;
  for (const auto& cluster : every.clusters) {
    const bool part = cluster.points.size() >= kSplitPoints &&
                      part_can_pass(marginals, cluster.dimensions, cluster.points.size(), 4, params);
    EXPECT_EQ(with.keep(cluster.dimensions, cluster.points), without.keep(cluster.dimensions, cluster.points) || part);
    large += part ? 1 : 0;
  }
  EXPECT_GT(large, 0U);
}

}  // namespace
}  // namespace subscale::significance
