// The consolidate stage on hand-made scenes: hidden clusters in known subspaces, given to the
// stage as the projections merge would report, with the outcome worked out from the definitions
// in stages/consolidate/*.hpp.
#include "stages/consolidate/consolidate.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace subscale::consolidate {
namespace {

using Ids = std::vector<std::uint32_t>;

// A data set built by hand: every point uniform in [0, 1] unless a cluster places it.
class Scene {
 public:
  Scene(std::size_t points, std::size_t dims, std::uint64_t seed) : values_(make(points, dims, seed)) {}

  // Puts `points` into a box of the given width around `centre` in each of `dims`; the point ids
  // are returned sorted. Points spread evenly over the box, so the box is well filled.
  Ids place(const Ids& points, const Ids& dims, double centre, double width) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      for (std::size_t t = 0; t < dims.size(); ++t) {
        // A different permutation per dimension, so the points do not lie on a line.
        const std::size_t slot = (i * (2 * t + 3) + t) % points.size();
        const double offset = (static_cast<double>(slot) + 0.5) / static_cast<double>(points.size()) - 0.5;
        values_(points[i], dims[t]) = centre + width * offset;
      }
    }
    Ids sorted = points;
    std::sort(sorted.begin(), sorted.end());
    return sorted;
  }

  // Spreads `points` evenly over [0.02, 0.98] in `dim` (far from any box in most places).
  void spread(const Ids& points, std::uint32_t dim) {
    for (std::size_t i = 0; i < points.size(); ++i)
      values_(points[i], dim) =
          0.02 + 0.96 * static_cast<double>(i) / static_cast<double>(std::max<std::size_t>(1, points.size() - 1));
  }

  double& at(std::uint32_t point, std::uint32_t dim) { return values_(point, dim); }
  const Matrix& values() const { return values_; }

 private:
  static Matrix make(std::size_t points, std::size_t dims, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    Matrix m(static_cast<Eigen::Index>(points), static_cast<Eigen::Index>(dims));
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      for (Eigen::Index i = 0; i < m.rows(); ++i) m(i, j) = static_cast<double>(random() >> 11) * 0x1.0p-53;
    return m;
  }

  Matrix values_;
};

Ids range(std::uint32_t first, std::uint32_t count) {
  Ids ids(count);
  for (std::uint32_t i = 0; i < count; ++i) ids[i] = first + i;
  return ids;
}

Ids sorted_union(Ids a, const Ids& b) {
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  return a;
}

// The projections of a cluster onto every pair of its dimensions, each missing every sixth point
// (a different sixth for each of up to six pairs, so together they hold every point), as merge reports them.
std::vector<SubspaceCluster> pair_projections(const Ids& dims, const Ids& points) {
  std::vector<SubspaceCluster> out;
  std::size_t pair = 0;
  for (std::size_t a = 0; a < dims.size(); ++a) {
    for (std::size_t b = a + 1; b < dims.size(); ++b, ++pair) {
      SubspaceCluster c{{dims[a], dims[b]}, {}};
      for (std::size_t i = 0; i < points.size(); ++i)
        if ((i + pair) % 6 != 0) c.points.push_back(points[i]);
      out.push_back(std::move(c));
    }
  }
  return out;
}

// Merge's output order: by dimensions, then points.
void merge_order(std::vector<SubspaceCluster>& clusters) {
  std::sort(clusters.begin(), clusters.end(), [](const SubspaceCluster& a, const SubspaceCluster& b) {
    return a.dimensions != b.dimensions ? a.dimensions < b.dimensions : a.points < b.points;
  });
}

// One cluster of 120 points in dimensions 0..3 of 6 (width 0.06 around 0.5), 300 noise points,
// and its six 2-D projections, each with two noise points that lie in the projection's box but
// far from the cluster in its other two dimensions.
struct FourDimensional {
  Scene scene{420, 6, 7};
  Ids cluster;
  std::vector<SubspaceCluster> projections;

  FourDimensional() {
    cluster = scene.place(range(0, 120), {0, 1, 2, 3}, 0.5, 0.06);
    projections = pair_projections({0, 1, 2, 3}, cluster);
    std::uint32_t noise = 200;
    for (auto& p : projections) {
      for (int extra = 0; extra < 2; ++extra, ++noise) {
        for (std::uint32_t k = 0; k < 4; ++k) {
          const bool in_projection = k == p.dimensions[0] || k == p.dimensions[1];
          scene.at(noise, k) = in_projection ? 0.5 + 0.01 * extra : 0.1 + 0.8 * extra;
        }
        p.points.push_back(noise);
      }
      std::sort(p.points.begin(), p.points.end());
    }
    merge_order(projections);
  }
};

TEST(Consolidate, SixProjectionsOfAFourDimensionalClusterBecomeIt) {
  FourDimensional s;
  const ConsolidateResult r = consolidate_clusters(s.scene.values(), s.projections, {});
  ASSERT_EQ(r.clusters.size(), 1u);
  EXPECT_EQ(r.clusters[0].dimensions, (Ids{0, 1, 2, 3}));
  EXPECT_EQ(r.clusters[0].points, s.cluster);  // every point back, the noise left out
  EXPECT_EQ(r.sizes, (std::vector<std::uint64_t>{120}));
  EXPECT_EQ(r.sources, (std::vector<std::uint32_t>{6}));
  EXPECT_EQ(r.stats.input_clusters, 6u);
  EXPECT_EQ(r.stats.joins, 5u);
  EXPECT_EQ(r.stats.clusters, 1u);
}

// The same scene held as float32: the span test and the box run in float and find the same
// cluster (the values are rounded to float first, so both precisions see the same points).
TEST(Consolidate, Float32ValuesGiveTheSameCluster) {
  FourDimensional s;
  const Matrix32 narrow = s.scene.values().cast<float>();
  const Matrix wide = narrow.cast<double>();
  const ConsolidateResult r64 = consolidate_clusters(wide, s.projections, {});
  const ConsolidateResult r32 = consolidate_clusters(narrow, s.projections, {});
  ASSERT_EQ(r32.clusters.size(), 1u);
  EXPECT_EQ(r32.clusters[0].dimensions, (Ids{0, 1, 2, 3}));
  EXPECT_EQ(r32.clusters[0].points, s.cluster);
  EXPECT_EQ(r32.clusters, r64.clusters);
  EXPECT_EQ(r32.stats.joins, r64.stats.joins);
  EXPECT_EQ(r32.stats.rejected_joins, r64.stats.rejected_joins);
}

TEST(Consolidate, TwoClustersSharingAFewPointsStayTwo) {
  // A in dimensions 0..2 (points 0..99), B in 3..5 (points 92..191): 8 shared points, which lie
  // in both boxes.
  Scene scene(400, 6, 11);
  const Ids a = scene.place(range(0, 100), {0, 1, 2}, 0.3, 0.06);
  const Ids b = scene.place(range(92, 100), {3, 4, 5}, 0.7, 0.06);
  std::vector<SubspaceCluster> input = pair_projections({0, 1, 2}, a);
  for (auto& c : pair_projections({3, 4, 5}, b)) input.push_back(c);
  merge_order(input);
  for (const double overlap : {0.5, 1e-9}) {  // even when every shared point makes a candidate
    ConsolidateParams params;
    params.overlap = overlap;
    const ConsolidateResult r = consolidate_clusters(scene.values(), input, params);
    ASSERT_EQ(r.clusters.size(), 2u) << "overlap " << overlap;
    // Same size and dimensionality: the tie goes to the smaller dimensions.
    EXPECT_EQ(r.clusters[0], (SubspaceCluster{{0, 1, 2}, a}));
    EXPECT_EQ(r.clusters[1], (SubspaceCluster{{3, 4, 5}, b}));
  }
}

TEST(Consolidate, TheSpanTestRefusesToGlueTwoClustersThatShareMostPoints) {
  // A = points 0..99 dense in dimensions 0 and 1, B = points 40..139 dense in 2 and 3: 60 shared
  // points (dense in all four), so the overlap is 0.6. A's other 40 points are spread in 2 and
  // 3, B's in 0 and 1: their union is not dense in any of the four dimensions.
  Scene scene(300, 4, 13);
  const Ids a = scene.place(range(0, 100), {0, 1}, 0.5, 0.06);
  const Ids b = scene.place(range(40, 100), {2, 3}, 0.5, 0.06);
  scene.spread(range(0, 40), 2);
  scene.spread(range(0, 40), 3);
  scene.spread(range(100, 40), 0);
  scene.spread(range(100, 40), 1);
  const std::vector<SubspaceCluster> input = {{{0, 1}, a}, {{2, 3}, b}};
  const ConsolidateResult r = consolidate_clusters(scene.values(), input, {});
  ASSERT_EQ(r.clusters.size(), 2u);
  EXPECT_EQ(r.clusters[0], input[0]);
  EXPECT_EQ(r.clusters[1], input[1]);
  EXPECT_GE(r.stats.rejected_joins, 1u);
  EXPECT_EQ(r.stats.joins, 0u);

  // A tolerance so large that any span passes: the two are glued into the union subspace.
  ConsolidateParams lax;
  lax.span_tolerance = 1e9;
  const ConsolidateResult glued = consolidate_clusters(scene.values(), input, lax);
  ASSERT_EQ(glued.clusters.size(), 1u);
  EXPECT_EQ(glued.clusters[0].dimensions, (Ids{0, 1, 2, 3}));
}

// C1: 100 points dense in dimensions 0..3. C2: 80 of them plus 20 points that are dense with
// them in dimensions 0 and 1 but spread in 2 and 3, so C1 and C2 cannot be joined (20 of 120
// points spread), and C2 is covered by C1 to 80%.
struct Contained {
  Scene scene{300, 4, 17};
  Ids big, small;
  std::vector<SubspaceCluster> input;

  Contained() {
    big = scene.place(range(0, 100), {0, 1, 2, 3}, 0.5, 0.06);
    const Ids extra = scene.place(range(100, 20), {0, 1}, 0.5, 0.06);
    scene.spread(extra, 2);
    scene.spread(extra, 3);
    small = sorted_union(range(0, 80), extra);
    input = {{{0, 1}, small}, {{0, 1, 2, 3}, big}};
  }
};

TEST(Consolidate, AClusterCoveredByOneInASupersetSubspaceIsDropped) {
  Contained s;
  const ConsolidateResult r = consolidate_clusters(s.scene.values(), s.input, {});
  ASSERT_EQ(r.clusters.size(), 1u);
  EXPECT_EQ(r.clusters[0], (SubspaceCluster{{0, 1, 2, 3}, s.big}));
  EXPECT_EQ(r.stats.redundant, 1u);
  EXPECT_EQ(r.stats.joins, 0u);
  EXPECT_GE(r.stats.rejected_joins, 1u);
}

TEST(Consolidate, CoverageAtItsBounds) {
  Contained s;
  for (const double coverage : {0.8, 0.81, 1.0, 1e-9}) {
    ConsolidateParams params;
    params.coverage = coverage;
    const ConsolidateResult r = consolidate_clusters(s.scene.values(), s.input, params);
    // Covered to exactly 80%: dropped when the threshold is at most that.
    const std::size_t expected = coverage <= 0.8 ? 1 : 2;
    EXPECT_EQ(r.clusters.size(), expected) << "coverage " << coverage;
    EXPECT_EQ(r.clusters[0].dimensions, (Ids{0, 1, 2, 3})) << "the most interesting first";
  }
}

TEST(Consolidate, OrderByInterestAndTopK) {
  // Three disjoint clusters: 50 points in 4 dimensions (interest 200), 90 in 2 (180), 30 in 3 (90).
  Scene scene(400, 9, 19);
  const SubspaceCluster c4{{0, 1, 2, 3}, scene.place(range(0, 50), {0, 1, 2, 3}, 0.2, 0.05)};
  const SubspaceCluster c2{{4, 5}, scene.place(range(50, 90), {4, 5}, 0.5, 0.05)};
  const SubspaceCluster c3{{6, 7, 8}, scene.place(range(140, 30), {6, 7, 8}, 0.8, 0.05)};
  const std::vector<SubspaceCluster> input = {c4, c2, c3};
  ConsolidateParams params;
  params.extend_dimensions = false;  // the random background could pass the test by chance
  for (const std::size_t top_k : {0, 1, 2, 3, 100}) {
    params.top_k = top_k;
    const ConsolidateResult r = consolidate_clusters(scene.values(), input, params);
    std::vector<SubspaceCluster> expected = {c4, c2, c3};
    if (top_k > 0 && top_k < 3) expected.resize(top_k);
    EXPECT_EQ(r.clusters, expected) << "top_k " << top_k;
    EXPECT_EQ(r.stats.over_top_k, 3 - expected.size()) << "top_k " << top_k;
  }
}

TEST(Consolidate, OverlapAndExtendAtTheirBounds) {
  FourDimensional s;
  // overlap 1: only a projection wholly inside another is joined; none is (each lacks a
  // different sixth and has its own noise).
  ConsolidateParams strict;
  strict.overlap = 1.0;
  strict.extend_dimensions = false;
  std::vector<SubspaceCluster> expected = s.projections;
  std::sort(expected.begin(), expected.end(), [](const SubspaceCluster& a, const SubspaceCluster& b) {
    return a.points.size() * a.dimensions.size() != b.points.size() * b.dimensions.size()
               ? a.points.size() * a.dimensions.size() > b.points.size() * b.dimensions.size()
               : a.dimensions < b.dimensions;
  });
  EXPECT_EQ(consolidate_clusters(s.scene.values(), s.projections, strict).clusters, expected);

  // With extension, each projection stands in all four dimensions (its noise boxed out); they
  // still overlap too little to join at overlap 1, and none is in a strict superset of another.
  strict.extend_dimensions = true;
  const ConsolidateResult extended = consolidate_clusters(s.scene.values(), s.projections, strict);
  ASSERT_EQ(extended.clusters.size(), 6u);
  for (const auto& c : extended.clusters) {
    EXPECT_EQ(c.dimensions, (Ids{0, 1, 2, 3}));
    EXPECT_EQ(c.points.size(), 100u);
  }
  EXPECT_EQ(extended.stats.extended_dimensions, 12u);

  // The smallest overlap joins them as the default does.
  ConsolidateParams loose;
  loose.overlap = 1e-9;
  const ConsolidateResult one = consolidate_clusters(s.scene.values(), s.projections, loose);
  ASSERT_EQ(one.clusters.size(), 1u);
  EXPECT_EQ(one.clusters[0].points, s.cluster);
}

TEST(Consolidate, SpanFractionAndToleranceAtTheirBounds) {
  FourDimensional s;
  // Fraction 1 measures the whole range: a projection's two noise points, far away in the other
  // dimensions, then make every union too wide, so nothing is joined (nor extended).
  ConsolidateParams whole;
  whole.span_fraction = 1.0;
  const ConsolidateResult r = consolidate_clusters(s.scene.values(), s.projections, whole);
  EXPECT_EQ(r.stats.joins, 0u);
  EXPECT_EQ(r.clusters.size(), 6u);
  // Without that noise, fraction 1 joins them into the cluster.
  std::vector<SubspaceCluster> clean = pair_projections({0, 1, 2, 3}, s.cluster);
  merge_order(clean);
  const ConsolidateResult joined = consolidate_clusters(s.scene.values(), clean, whole);
  ASSERT_EQ(joined.clusters.size(), 1u);
  EXPECT_EQ(joined.clusters[0], (SubspaceCluster{{0, 1, 2, 3}, s.cluster}));

  // The smallest tolerance refuses every join; the smallest fraction still gives a valid result.
  ConsolidateParams tight;
  tight.span_tolerance = 1e-9;
  const ConsolidateResult none = consolidate_clusters(s.scene.values(), s.projections, tight);
  EXPECT_EQ(none.stats.joins, 0u);
  EXPECT_EQ(none.clusters.size(), 6u);
  ConsolidateParams thin;
  thin.span_fraction = 1e-9;
  for (const auto& c : consolidate_clusters(s.scene.values(), s.projections, thin).clusters) {
    EXPECT_TRUE(std::is_sorted(c.points.begin(), c.points.end()));
    EXPECT_FALSE(c.points.empty());
  }
}

TEST(Consolidate, OptionsOutOfRangeAreRefused) {
  FourDimensional s;
  const auto refused = [&](auto change) {
    ConsolidateParams params;
    change(params);
    EXPECT_THROW(consolidate_clusters(s.scene.values(), s.projections, params), UsageError);
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const double bad : {0.0, -0.1, 1.0000001, nan}) {
    refused([&](ConsolidateParams& p) { p.overlap = bad; });
    refused([&](ConsolidateParams& p) { p.span_fraction = bad; });
    refused([&](ConsolidateParams& p) { p.coverage = bad; });
  }
  for (const double bad : {0.0, -1.0, inf, nan}) refused([&](ConsolidateParams& p) { p.span_tolerance = bad; });
}

TEST(Consolidate, BadInputIsRefusedAndEmptyInputGivesNothing) {
  Scene scene(10, 3, 1);
  EXPECT_THROW(consolidate_clusters(scene.values(), {{{0, 3}, {1, 2}}}, {}), InputError);   // dimension 3 of 3
  EXPECT_THROW(consolidate_clusters(scene.values(), {{{0, 1}, {1, 10}}}, {}), InputError);  // point 10 of 10
  EXPECT_THROW(consolidate_clusters(scene.values(), {{{1, 0}, {1, 2}}}, {}), InputError);   // not sorted
  EXPECT_THROW(consolidate_clusters(scene.values(), {{{0, 1}, {2, 2}}}, {}), InputError);   // repeated
  const ConsolidateResult empty = consolidate_clusters(scene.values(), {}, {});
  EXPECT_TRUE(empty.clusters.empty());
  EXPECT_EQ(empty.stats.clusters, 0u);
}

// The clusters are checked on all threads; the error is still the first bad cluster's.
TEST(Consolidate, TheFirstBadClusterIsTheOneNamed) {
  Scene scene(10, 3, 1);
  std::vector<SubspaceCluster> input(3000, SubspaceCluster{{0, 1}, {1, 2}});
  input[1700] = {{0, 1}, {2, 1}};   // not sorted
  input[2900] = {{0, 1}, {1, 10}};  // point 10 of 10
  for (const std::size_t threads : {1, 2, 4}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    try {
      consolidate_clusters(scene.values(), input, {});
      FAIL() << "no error";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("cluster #1700 "), std::string::npos) << error.what();
    }
  }
}

// Six clusters in 12 of 16 dimensions, some sharing points and dimensions, one nested in
// another (more dimensions, half its points), with all their 2-D projections.
std::vector<SubspaceCluster> busy_scene(Scene& scene) {
  const std::vector<Ids> dims = {{0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5, 6, 7}, {6, 7, 8, 9, 10},
                                 {8, 9, 10, 11, 12}, {1, 3, 5, 7, 9, 11},      {12, 13, 14, 15, 2}};
  const std::vector<Ids> points = {range(0, 200),   range(0, 100),   range(200, 150),
                                   range(320, 150), range(500, 120), range(650, 130)};
  std::vector<SubspaceCluster> input;
  for (std::size_t c = 0; c < dims.size(); ++c) {
    Ids d = dims[c];
    std::sort(d.begin(), d.end());
    const Ids p =
        scene.place(points[c], d, 0.15 + 0.12 * static_cast<double>(c), 0.05 + 0.004 * static_cast<double>(c));
    for (auto& projection : pair_projections(d, p)) input.push_back(projection);
  }
  merge_order(input);
  input.erase(std::unique(input.begin(), input.end()), input.end());
  return input;
}

TEST(Consolidate, TheResultDoesNotDependOnTheNumberOfThreads) {
  Scene scene(1000, 16, 23);
  const std::vector<SubspaceCluster> input = busy_scene(scene);
  ConsolidateResult reference;
  {
    tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
    reference = consolidate_clusters(scene.values(), input, {});
  }
  EXPECT_GE(reference.stats.joins, 10u);
  for (const std::size_t threads : {2, 3, 8}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    const ConsolidateResult r = consolidate_clusters(scene.values(), input, {});
    EXPECT_EQ(r.clusters, reference.clusters) << threads << " threads";
    EXPECT_EQ(r.sources, reference.sources) << threads << " threads";
    EXPECT_EQ(r.stats.joins, reference.stats.joins) << threads << " threads";
    EXPECT_EQ(r.stats.rejected_joins, reference.stats.rejected_joins) << threads << " threads";
  }
}

TEST(Consolidate, ABusySceneComesBackAsItsClusters) {
  Scene scene(1000, 16, 23);
  const ConsolidateResult r = consolidate_clusters(scene.values(), busy_scene(scene), {});
  // The six clusters, each in its own subspace; the nested one (8 dimensions, points 0..99)
  // beside the one that holds it (6 dimensions, points 0..199).
  std::vector<Ids> found_dims;
  for (const auto& c : r.clusters) found_dims.push_back(c.dimensions);
  std::sort(found_dims.begin(), found_dims.end());
  const std::vector<Ids> expected = {{0, 1, 2, 3, 4, 5},  {0, 1, 2, 3, 4, 5, 6, 7}, {1, 3, 5, 7, 9, 11},
                                     {2, 12, 13, 14, 15}, {6, 7, 8, 9, 10},         {8, 9, 10, 11, 12}};
  EXPECT_EQ(found_dims, expected);
}

}  // namespace
}  // namespace subscale::consolidate

namespace subscale::consolidate {
namespace {

// Integer levels: a cluster whose points share one level in each of its two dimensions (span 0)
// and lie on two neighbouring levels in a third. Without a floor its reference span is 0 and the
// third dimension can never be added; with level_gap_floor the level gap is the floor.
TEST(Consolidate, LevelGapFloorLetsTiedProjectionsJoin) {
  constexpr int kPoints = 200, kLevels = 20;
  subscale::Matrix values(kPoints, 4);
  for (int i = 0; i < kPoints; ++i)
    for (int j = 0; j < 4; ++j) values(i, j) = static_cast<double>((i * (7 + 2 * j) + 3 * j) % kLevels) / (kLevels - 1);
  std::vector<std::uint32_t> members;
  for (std::uint32_t i = 0; i < 40; ++i) {
    values(i, 0) = 5.0 / (kLevels - 1);
    values(i, 1) = 9.0 / (kLevels - 1);
    values(i, 2) = (i % 2 ? 12.0 : 13.0) / (kLevels - 1);
    members.push_back(i);
  }
  const std::vector<subscale::SubspaceCluster> input{{{0, 1}, members}};
  ConsolidateParams floored;
  floored.level_gap_floor = true;
  const ConsolidateResult with = consolidate_clusters(values, input, floored);
  ASSERT_EQ(with.clusters.size(), 1U);
  EXPECT_EQ(with.clusters[0].dimensions, (std::vector<std::uint32_t>{0, 1, 2}));
  const ConsolidateResult without = consolidate_clusters(values, input, {});
  for (const auto& c : without.clusters) EXPECT_NE(c.dimensions, (std::vector<std::uint32_t>{0, 1, 2}));
}

}  // namespace
}  // namespace subscale::consolidate
