// The merge stage against a brute-force DBSCAN written here from the definition: every pair
// compared, components of core points by breadth-first search.
#include "stages/merge/merge.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <queue>
#include <random>
#include <set>
#include <span>

#include "common/error.hpp"

namespace subscale::merge {
namespace {

// The reference: scikit-learn's DBSCAN on the points of one subspace.
struct Reference {
  std::vector<std::uint32_t> ids;                      // P_S
  std::vector<bool> core;                              // per position in ids
  std::vector<int> component;                          // core points: component number; others: -1
  std::vector<std::set<int>> border_components;        // non-core: components of its core neighbours
  std::vector<std::uint32_t> smallest_core_neighbour;  // non-core: id, or max() when noise
  std::size_t components = 0;
};

// The squared distance of every pair of points of one subspace, from the definition: the full sum
// over S in ascending order, which the reference compares with eps^2. Computed once per subspace
// and reused for every (epsilon, min_points) a test asks (the pairs are what costs: 600 points in
// 12 subspaces under 16 parameter pairs took 40 s in the sanitizer build when recomputed for each).
struct PairSums {
  std::size_t k = 0;
  std::vector<double> sums;  // k x k, by position in s.points

  PairSums(const Matrix& x, const SubspaceCluster& s) : k(s.points.size()), sums(k * k, 0.0) {
    std::vector<std::vector<double>> coordinates(k);  // per point, its values in S, ascending
    for (std::size_t i = 0; i < k; ++i)
      for (std::uint32_t d : s.dimensions) coordinates[i].push_back(x(s.points[i], d));
    for (std::size_t i = 0; i < k; ++i) {
      for (std::size_t j = i + 1; j < k; ++j) {
        double sum = 0.0;
        for (std::size_t t = 0; t < s.dimensions.size(); ++t) {
          const double diff = coordinates[i][t] - coordinates[j][t];
          sum += diff * diff;
        }
        sums[i * k + j] = sums[j * k + i] = sum;  // (a - b)^2 == (b - a)^2 exactly
      }
    }
  }
  bool neighbours(std::size_t i, std::size_t j, double epsilon) const { return sums[i * k + j] <= epsilon * epsilon; }
};

Reference brute_force_dbscan(const SubspaceCluster& s, const PairSums& pairs, double epsilon, std::size_t min_points) {
  Reference r;
  r.ids = s.points;
  const std::size_t k = s.points.size();
  std::vector<std::vector<std::size_t>> adjacent(k);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      if (pairs.neighbours(i, j, epsilon)) adjacent[i].push_back(j);
    }
  }
  r.core.resize(k);
  for (std::size_t i = 0; i < k; ++i) r.core[i] = adjacent[i].size() >= min_points;  // includes i
  r.component.assign(k, -1);
  for (std::size_t i = 0; i < k; ++i) {
    if (!r.core[i] || r.component[i] >= 0) continue;
    const int id = static_cast<int>(r.components++);
    std::queue<std::size_t> todo;
    todo.push(i);
    r.component[i] = id;
    while (!todo.empty()) {
      const std::size_t p = todo.front();
      todo.pop();
      for (std::size_t q : adjacent[p]) {
        if (r.core[q] && r.component[q] < 0) {
          r.component[q] = id;
          todo.push(q);
        }
      }
    }
  }
  r.border_components.resize(k);
  r.smallest_core_neighbour.assign(k, std::numeric_limits<std::uint32_t>::max());
  for (std::size_t i = 0; i < k; ++i) {
    if (r.core[i]) continue;
    for (std::size_t q : adjacent[i]) {
      if (!r.core[q]) continue;
      r.border_components[i].insert(r.component[q]);
      r.smallest_core_neighbour[i] = std::min(r.smallest_core_neighbour[i], s.points[q]);
    }
  }
  return r;
}

// Compares the merge output for one subspace with the reference.
void expect_matches_reference(const SubspaceCluster& s, const PairSums& pairs, double epsilon, std::size_t min_points,
                              const std::vector<SubspaceCluster>& found) {
  const Reference r = brute_force_dbscan(s, pairs, epsilon, min_points);
  std::map<std::uint32_t, std::size_t> position;
  for (std::size_t i = 0; i < r.ids.size(); ++i) position[r.ids[i]] = i;

  // Which output cluster holds each point (at most one).
  std::map<std::uint32_t, std::size_t> cluster_of;
  std::size_t index = 0;
  for (const auto& c : found) {
    if (c.dimensions != s.dimensions) continue;
    EXPECT_TRUE(std::is_sorted(c.points.begin(), c.points.end()));
    for (std::uint32_t p : c.points) {
      ASSERT_TRUE(position.count(p)) << "point " << p << " is not in P_S";
      EXPECT_TRUE(cluster_of.emplace(p, index).second) << "point " << p << " is in two clusters";
    }
    ++index;
  }

  // Core points: the same partition. Map reference components to output clusters both ways.
  std::map<int, std::size_t> to_found;
  std::map<std::size_t, int> to_reference;
  for (std::size_t i = 0; i < r.ids.size(); ++i) {
    const std::uint32_t id = r.ids[i];
    if (r.core[i]) {
      ASSERT_TRUE(cluster_of.count(id)) << "core point " << id << " is missing";
      const std::size_t f = cluster_of[id];
      const auto [a, fresh_a] = to_found.emplace(r.component[i], f);
      EXPECT_EQ(a->second, f) << "core component " << r.component[i] << " split";
      const auto [b, fresh_b] = to_reference.emplace(f, r.component[i]);
      EXPECT_EQ(b->second, r.component[i]) << "two core components merged into cluster " << f;
    }
  }
  EXPECT_EQ(to_found.size(), r.components);
  EXPECT_EQ(index, r.components) << "every output cluster holds core points of one component";

  // Border points: in the cluster of one of their core neighbours, namely the smallest-id one;
  // noise: nowhere.
  for (std::size_t i = 0; i < r.ids.size(); ++i) {
    if (r.core[i]) continue;
    const std::uint32_t id = r.ids[i];
    if (r.border_components[i].empty()) {
      EXPECT_FALSE(cluster_of.count(id)) << "noise point " << id << " is in a cluster";
      continue;
    }
    ASSERT_TRUE(cluster_of.count(id)) << "border point " << id << " is missing";
    const int component = to_reference[cluster_of[id]];
    EXPECT_TRUE(r.border_components[i].count(component)) << "border point " << id << " joined a non-neighbour";
    EXPECT_EQ(cluster_of[id], cluster_of[r.smallest_core_neighbour[i]])
        << "border point " << id << " should follow its smallest-id core neighbour";
  }
}

std::vector<PairSums> pair_sums(const Matrix& x, const std::vector<SubspaceCluster>& subspaces) {
  std::vector<PairSums> out;
  for (const auto& s : subspaces) out.emplace_back(x, s);
  return out;
}

// `pairs`: pair_sums(x, subspaces), for a test that checks one set of subspaces many times.
MergeStats expect_all_match(const Matrix& x, const std::vector<SubspaceCluster>& subspaces, const MergeParams& params,
                            const std::vector<PairSums>& pairs) {
  const MergeResult result = merge_subspaces(x, subspaces, params);
  for (std::size_t i = 0; i < subspaces.size(); ++i)
    expect_matches_reference(subspaces[i], pairs[i], params.epsilon, params.min_points, result.clusters);
  EXPECT_EQ(result.sizes.size(), result.clusters.size());
  for (std::size_t i = 0; i < std::min(result.sizes.size(), result.clusters.size()); ++i)
    EXPECT_EQ(result.sizes[i], result.clusters[i].points.size());
  EXPECT_EQ(result.stats.clusters, result.clusters.size());
  EXPECT_EQ(result.stats.subspaces, subspaces.size());
  EXPECT_EQ(result.stats.core_points + result.stats.border_points + result.stats.noise_points,
            result.stats.points_visited);
  return result.stats;
}

MergeStats expect_all_match(const Matrix& x, const std::vector<SubspaceCluster>& subspaces, const MergeParams& params) {
  return expect_all_match(x, subspaces, params, pair_sums(x, subspaces));
}

// Points in [0,1]^d: blobs (so that clusters, borders and noise all occur) plus uniform noise.
Matrix blob_data(std::size_t n, std::size_t d, std::uint32_t seed, double spread) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, spread);
  Matrix x(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  std::vector<std::vector<double>> centres(5, std::vector<double>(d));
  for (auto& c : centres)
    for (auto& v : c) v = uniform(random);
  for (std::size_t i = 0; i < n; ++i) {
    const bool noise = i % 4 == 3;
    const auto& c = centres[i % centres.size()];
    for (std::size_t j = 0; j < d; ++j) {
      const double v = noise ? uniform(random) : c[j] + normal(random);
      x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = std::clamp(v, 0.0, 1.0);
    }
  }
  return x;
}

std::vector<SubspaceCluster> random_subspaces(std::size_t n, std::size_t d, std::size_t count, std::uint32_t seed) {
  // Distinct subspaces, as the subspaces stage gives each S once.
  std::mt19937_64 random(seed);
  std::vector<SubspaceCluster> out;
  std::set<std::vector<std::uint32_t>> used;
  while (out.size() < count) {
    SubspaceCluster c;
    for (std::uint32_t j = 0; j < d; ++j)
      if (random() % 2) c.dimensions.push_back(j);
    if (c.dimensions.empty() || !used.insert(c.dimensions).second) continue;
    const std::size_t keep = 1 + random() % 8;  // keep about a fraction keep/8 of the points
    for (std::uint32_t p = 0; p < n; ++p)
      if (random() % 8 < keep) c.points.push_back(p);
    out.push_back(std::move(c));
  }
  return out;
}

TEST(Merge, MatchesBruteForceOnRandomBlobs) {
  const std::size_t n = 600, d = 6;
  const Matrix x = blob_data(n, d, 7, 0.03);
  const auto subspaces = random_subspaces(n, d, 12, 11);
  const std::vector<PairSums> pairs = pair_sums(x, subspaces);
  MergeStats total;
  for (double epsilon : {0.02, 0.05, 0.1, 0.3}) {
    for (std::size_t min_points : {1, 2, 4, 7}) {
      SCOPED_TRACE("epsilon " + std::to_string(epsilon) + " min_points " + std::to_string(min_points));
      const MergeStats stats = expect_all_match(x, subspaces, {epsilon, min_points, 4096}, pairs);
      total.border_points += stats.border_points;
      total.noise_points += stats.noise_points;
      total.clusters += stats.clusters;
    }
  }
  // The data exercises every case: clusters, border points and noise.
  EXPECT_GT(total.border_points, 100u);
  EXPECT_GT(total.noise_points, 100u);
  EXPECT_GT(total.clusters, 100u);
}

TEST(Merge, SplitInsideLargeSubspacesMatchesBruteForce) {
  const std::size_t n = 900, d = 4;
  const Matrix x = blob_data(n, d, 3, 0.05);
  const auto subspaces = random_subspaces(n, d, 4, 5);
  for (std::size_t min_points : {3, 5}) {
    const MergeParams split{0.06, min_points, 16};  // every subspace split across threads
    expect_all_match(x, subspaces, split);
    const MergeParams whole{0.06, min_points, 1u << 30};
    EXPECT_EQ(merge_subspaces(x, subspaces, split).clusters, merge_subspaces(x, subspaces, whole).clusters);
  }
}

// Integer levels: most points of a subspace share their place with others (coincident_points.hpp),
// and a place's points must come out as the reference gives each of them.
TEST(Merge, MatchesBruteForceOnIntegerLevels) {
  const std::size_t n = 700, d = 5;
  MergeStats total;
  for (const double levels : {4.0, 12.0, 40.0}) {
    Matrix x = blob_data(n, d, 17, 0.06);
    x = (x.array() * (levels - 1)).round() / (levels - 1);
    const auto subspaces = random_subspaces(n, d, 10, 19);
    const std::vector<PairSums> pairs = pair_sums(x, subspaces);
    const double gap = 1.0 / (levels - 1);
    for (double epsilon : {0.3 * gap, 1.01 * gap, 2.5 * gap}) {
      for (std::size_t min_points : {1, 2, 5, 30}) {
        SCOPED_TRACE("levels " + std::to_string(levels) + " epsilon " + std::to_string(epsilon) + " min_points " +
                     std::to_string(min_points));
        const MergeStats stats = expect_all_match(x, subspaces, {epsilon, min_points, 4096}, pairs);
        expect_all_match(x, subspaces, {epsilon, min_points, 64}, pairs);  // split across threads
        total.border_points += stats.border_points;
        total.noise_points += stats.noise_points;
        total.clusters += stats.clusters;
      }
    }
  }
  EXPECT_GT(total.border_points, 100u);
  EXPECT_GT(total.noise_points, 100u);
  EXPECT_GT(total.clusters, 100u);
}

TEST(Merge, DuplicatePointsAreNeighboursAtDistanceZero) {
  // 40 copies of one point, 40 of another far away, and a few singletons.
  Matrix x(90, 3);
  for (Eigen::Index i = 0; i < 90; ++i) {
    const double v = i < 40 ? 0.25 : (i < 80 ? 0.75 : 0.1 * static_cast<double>(i - 80) / 10.0 + 0.4);
    x.row(i).setConstant(v);
  }
  SubspaceCluster all{{0, 1, 2}, {}};
  for (std::uint32_t i = 0; i < 90; ++i) all.points.push_back(i);
  for (std::size_t min_points : {2, 40, 41}) {
    const MergeParams params{1e-9, min_points, 4096};
    expect_all_match(x, {all}, params);
    const MergeResult result = merge_subspaces(x, {all}, params);
    EXPECT_EQ(result.clusters.size(), min_points <= 40 ? 2u : 0u);
  }
}

TEST(Merge, NeighboursAtExactlyEpsilonCount) {
  // Values are multiples of 1/8, so distances and their squares are exact. A 3-4-5 triangle:
  // (0,0), (3/8, 1/2) are exactly 5/8 apart. A chain along x with spacing 1/4.
  Matrix x(64, 2);
  for (Eigen::Index i = 0; i < 32; ++i) {  // a chain: (i/32 * ... ) keep values in [0,1]
    x(i, 0) = 0.25 * static_cast<double>(i % 5);
    x(i, 1) = 0.125 * static_cast<double>(i / 5);
  }
  for (Eigen::Index i = 32; i < 64; ++i) {
    x(i, 0) = (i % 2) ? 0.375 : 0.0;
    x(i, 1) = (i % 2) ? 0.5 : 0.0;
  }
  SubspaceCluster all{{0, 1}, {}};
  for (std::uint32_t i = 0; i < 64; ++i) all.points.push_back(i);
  for (double epsilon : {0.125, 0.25, 0.625}) {
    for (std::size_t min_points : {2, 3, 5, 17}) {
      SCOPED_TRACE("epsilon " + std::to_string(epsilon) + " min_points " + std::to_string(min_points));
      expect_all_match(x, {all}, {epsilon, min_points, 4096});
      expect_all_match(x, {all}, {std::nextafter(epsilon, 0.0), min_points, 4096});
    }
  }
  // The triangle alone: at epsilon = 5/8 the two corners are one cluster; just below, none.
  const SubspaceCluster corners{{0, 1}, {32, 33}};
  EXPECT_EQ(merge_subspaces(x, {corners}, {0.625, 2, 4096}).clusters.size(), 1u);
  EXPECT_EQ(merge_subspaces(x, {corners}, {std::nextafter(0.625, 0.0), 2, 4096}).clusters.size(), 0u);
}

TEST(Merge, HandExampleWithBorderAndNoise) {
  // One dimension. Core points need 3 neighbours (themselves included) within 0.1.
  // 0.10, 0.15, 0.19 are core; 0.28 is a border point of that cluster (its only core neighbour
  // is 0.19); 0.60, 0.65, 0.69 are the core of a second cluster; 0.90 is noise. In dimension 1
  // every point is at 0: one cluster of all.
  Matrix x(8, 2);
  const double v[8] = {0.10, 0.15, 0.19, 0.28, 0.60, 0.65, 0.69, 0.90};
  for (Eigen::Index i = 0; i < 8; ++i) {
    x(i, 0) = v[i];
    x(i, 1) = 0.0;
  }
  const std::vector<std::uint32_t> all{0, 1, 2, 3, 4, 5, 6, 7};
  const MergeResult result = merge_subspaces(x, {{{0}, all}, {{1}, all}}, {0.1, 3, 4096});
  const std::vector<SubspaceCluster> expected{
      {{0}, {0, 1, 2, 3}},
      {{0}, {4, 5, 6}},
      {{1}, all},
  };
  EXPECT_EQ(result.clusters, expected);
  EXPECT_EQ(result.sizes, (std::vector<std::uint64_t>{4, 3, 8}));
  EXPECT_EQ(result.stats.noise_points, 1u);
  EXPECT_EQ(result.stats.border_points, 1u);
  EXPECT_EQ(result.stats.core_points, 14u);
  EXPECT_EQ(result.stats.points_visited, 16u);
}

TEST(Merge, BorderPointFollowsSmallestIdCoreNeighbour) {
  // Two dense groups around 0.61 and 0.39 (min_points 4, epsilon 0.0801) and point 2 at 0.50,
  // which has only 3 neighbours (itself, 0.58 and 0.42) and so is a border point of both
  // clusters. It must join the cluster of its smallest-id core neighbour: point 0 at 0.58.
  // Mirrored (x -> 1 - x), point 0 sits in the other group and takes point 2 with it.
  const double v[9] = {0.58, 0.60, 0.50, 0.42, 0.62, 0.40, 0.64, 0.38, 0.36};
  const std::vector<std::uint32_t> all{0, 1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<SubspaceCluster> expected{{{0}, {0, 1, 2, 4, 6}}, {{0}, {3, 5, 7, 8}}};
  for (bool mirrored : {false, true}) {
    Matrix x(9, 1);
    for (Eigen::Index i = 0; i < 9; ++i) x(i, 0) = mirrored ? 1.0 - v[i] : v[i];
    const MergeResult result = merge_subspaces(x, {{{0}, all}}, {0.0801, 4, 4096});
    EXPECT_EQ(result.clusters, expected);
    EXPECT_EQ(result.stats.border_points, 1u);
  }
}

TEST(Merge, OutputIsSortedAndIndependentOfThreads) {
  const std::size_t n = 500, d = 5;
  const Matrix x = blob_data(n, d, 21, 0.04);
  const auto subspaces = random_subspaces(n, d, 20, 8);
  const MergeParams params{0.08, 4, 64};
  const MergeResult many = merge_subspaces(x, subspaces, params);
  EXPECT_TRUE(std::is_sorted(many.clusters.begin(), many.clusters.end(), [](const auto& a, const auto& b) {
    return a.dimensions != b.dimensions ? a.dimensions < b.dimensions : a.points < b.points;
  }));
  ASSERT_GT(many.clusters.size(), 0u);
  MergeResult one;
  {
    tbb::global_control single(tbb::global_control::max_allowed_parallelism, 1);
    one = merge_subspaces(x, subspaces, params);
  }
  EXPECT_EQ(one.clusters, many.clusters);
  EXPECT_EQ(one.stats.core_points, many.stats.core_points);
}

// A sieve sees the number found before it judges, and the output is the unsieved one without what
// it set aside, in the same order.
class EvenSizes final : public ClusterSieve {
 public:
  void prepare(std::uint64_t found) override { prepared_with = found; }
  bool keep(std::span<const std::uint32_t> dimensions, std::span<const std::uint32_t> points) const override {
    EXPECT_FALSE(dimensions.empty());
    return points.size() % 2 == 0;
  }
  std::uint64_t prepared_with = 0;
};

TEST(Merge, ASieveSetsAsideWhatItDoesNotKeepAndTheCountsSayHowMany) {
  const std::size_t n = 500, d = 5;
  const Matrix x = blob_data(n, d, 23, 0.04);
  const auto subspaces = random_subspaces(n, d, 20, 9);
  const MergeParams params{0.08, 3, 64};
  const MergeResult every = merge_subspaces(x, subspaces, params);
  EvenSizes sieve;
  const MergeResult even = merge_subspaces(x, subspaces, params, {}, &sieve);
  EXPECT_EQ(sieve.prepared_with, every.clusters.size());
  std::vector<SubspaceCluster> expected;
  for (const auto& cluster : every.clusters)
    if (cluster.points.size() % 2 == 0) expected.push_back(cluster);
  ASSERT_GT(expected.size(), 0u);
  ASSERT_LT(expected.size(), every.clusters.size());
  EXPECT_EQ(even.clusters, expected);
  EXPECT_EQ(even.sizes.size(), expected.size());
  EXPECT_EQ(even.stats.clusters, every.stats.clusters);
  EXPECT_EQ(even.stats.clusters_set_aside, every.clusters.size() - expected.size());
  EXPECT_EQ(even.stats.core_points, every.stats.core_points);
}

// Keeps clusters of even size, and says so early for those of a size divisible by 3 once any
// cluster has been found: merge must not build those, and the result is the same.
class EvenSizesSaidEarly final : public ClusterSieve {
 public:
  void prepare(std::uint64_t found) override { prepared_with = found; }
  bool keep(std::span<const std::uint32_t>, std::span<const std::uint32_t> points) const override {
    return points.size() % 2 == 0;
  }
  bool may_keep(std::span<const std::uint32_t>, std::span<const std::uint32_t> points,
                std::uint64_t found_at_least) const override {
    if (found_at_least == 0 || points.size() % 3 != 0 || points.size() % 2 == 0) return true;
    asked_early_and_refused.fetch_add(1);
    return false;
  }
  std::uint64_t prepared_with = 0;
  mutable std::atomic<std::uint64_t> asked_early_and_refused{0};
};

TEST(Merge, ClustersTheSieveRefusesEarlyAreCountedButNotBuilt) {
  const std::size_t n = 500, d = 5;
  const Matrix x = blob_data(n, d, 23, 0.04);
  const auto subspaces = random_subspaces(n, d, 20, 9);
  const MergeParams params{0.08, 3, 64};
  EvenSizes late;
  const MergeResult expected = merge_subspaces(x, subspaces, params, {}, &late);
  EvenSizesSaidEarly early;
  const MergeResult got = merge_subspaces(x, subspaces, params, {}, &early);
  EXPECT_GT(early.asked_early_and_refused.load(), 0u);
  EXPECT_EQ(got.clusters, expected.clusters);
  EXPECT_EQ(early.prepared_with, late.prepared_with);  // every cluster found is counted
  EXPECT_EQ(got.stats.clusters, expected.stats.clusters);
  EXPECT_EQ(got.stats.clusters_set_aside, expected.stats.clusters_set_aside);
}

TEST(Merge, EmptyInputsGiveNoClusters) {
  const Matrix x = blob_data(10, 2, 1, 0.1);
  EXPECT_TRUE(merge_subspaces(x, {}, {0.1, 2, 4096}).clusters.empty());
  const MergeResult empty_points = merge_subspaces(x, {{{0, 1}, {}}}, {0.1, 2, 4096});
  EXPECT_TRUE(empty_points.clusters.empty());
  EXPECT_EQ(empty_points.stats.subspaces, 1u);
}

TEST(Merge, RefusesBadParametersAndInput) {
  const Matrix x = blob_data(10, 3, 1, 0.1);
  const std::vector<SubspaceCluster> ok{{{0, 1}, {0, 1, 2}}};
  EXPECT_THROW(merge_subspaces(x, ok, {0.0, 2, 4096}), UsageError);
  EXPECT_THROW(merge_subspaces(x, ok, {std::nan(""), 2, 4096}), UsageError);
  EXPECT_THROW(merge_subspaces(x, ok, {0.1, 0, 4096}), UsageError);
  const auto message = [&](const std::vector<SubspaceCluster>& bad) {
    try {
      merge_subspaces(x, bad, {0.1, 2, 4096});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({ok[0], {{3}, {0}}}).find("subspace #1"), std::string::npos);
  EXPECT_NE(message({{{3}, {0}}}).find("dimension 3"), std::string::npos);
  EXPECT_NE(message({{{0}, {0, 10}}}).find("point 10"), std::string::npos);
  EXPECT_NE(message({{{1, 0}, {0}}}).find("not sorted"), std::string::npos);
  EXPECT_NE(message({{{0}, {2, 2}}}).find("not sorted"), std::string::npos);
}

}  // namespace
}  // namespace subscale::merge
