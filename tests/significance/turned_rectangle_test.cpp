#include "stages/significance/turned_rectangle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <span>

#include "significance_test_data.hpp"
#include "stages/significance/binomial_tail.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/search_correction.hpp"

namespace subscale::significance {
namespace {

using testing::uniform_noise;

// Points first..first+count-1 moved onto a band along the diagonal of (x, y): sd `along` along it
// and `across` across it, centred at (0.5, 0.5).
SubspaceCluster stretched(Matrix& m, std::uint32_t x, std::uint32_t y, std::uint32_t first, std::uint32_t count,
                          double along, double across, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> a(0.0, along), c(0.0, across);
  SubspaceCluster cluster{{std::min(x, y), std::max(x, y)}, {}};
  for (std::uint32_t i = first; i < first + count; ++i) {
    const double t = a(rng), w = c(rng);
    m(i, x) = 0.5 + (t - w) / std::sqrt(2.0);
    m(i, y) = 0.5 + (t + w) / std::sqrt(2.0);
    cluster.points.push_back(i);
  }
  return cluster;
}

// The reference: the rectangle drawn as the header describes it, and the share of all n^2 pairs
// (x_i, y_j) inside, counted pair by pair.
double log_mass_by_every_pair(const Matrix& m, const SubspaceCluster& cluster) {
  const auto n = static_cast<std::size_t>(m.rows());
  const auto a = cluster.dimensions[0], b = cluster.dimensions[1];
  const auto iqr = [&](std::uint32_t j) {
    std::vector<double> v(m.col(j).data(), m.col(j).data() + n);
    std::sort(v.begin(), v.end());
    return v[(3 * n) / 4] - v[n / 4];
  };
  const double ua = iqr(a), ub = iqr(b);
  double mx = 0, my = 0;
  for (const auto p : cluster.points) mx += m(p, a) / ua, my += m(p, b) / ub;
  mx /= cluster.points.size(), my /= cluster.points.size();
  double sxx = 0, syy = 0, sxy = 0;
  for (const auto p : cluster.points) {
    const double dx = m(p, a) / ua - mx, dy = m(p, b) / ub - my;
    sxx += dx * dx, syy += dy * dy, sxy += dx * dy;
  }
  double theta = 0.5 * std::atan2(2 * sxy, sxx - syy);
  if (theta < 0) theta += std::numbers::pi;
  const double step = std::numbers::pi / kTurnAngles;
  const double angle = static_cast<double>(std::llround(theta / step) % kTurnAngles) * step;
  const double c = std::cos(angle), s = std::sin(angle);
  double u_lo = 1e300, u_hi = -1e300, v_lo = 1e300, v_hi = -1e300;
  for (const auto p : cluster.points) {
    const double u = c * m(p, a) / ua + s * m(p, b) / ub, v = -s * m(p, a) / ua + c * m(p, b) / ub;
    u_lo = std::min(u_lo, u), u_hi = std::max(u_hi, u), v_lo = std::min(v_lo, v), v_hi = std::max(v_hi, v);
  }
  const double slack = 1e-9;
  std::size_t inside = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double u = c * m(i, a) / ua + s * m(j, b) / ub, v = -s * m(i, a) / ua + c * m(j, b) / ub;
      inside += (u >= u_lo - slack && u <= u_hi + slack && v >= v_lo - slack && v <= v_hi + slack) ? 1 : 0;
    }
  return std::log(static_cast<double>(inside) / static_cast<double>(n * n));
}

TEST(TurnedRectangle, ItsMassIsTheShareOfValuePairsInside) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    Matrix m = uniform_noise(400, 4, seed);
    const auto cluster = stretched(m, 1, 3, 0, 60, 0.08, 0.01, seed + 10);
    const auto rectangle = turned_rectangle(m, Marginals::of(m), cluster);
    ASSERT_TRUE(rectangle.has_value());
    EXPECT_NEAR(rectangle->log_p0, log_mass_by_every_pair(m, cluster), 1e-9) << "seed " << seed;
    // The diagonal, at 45 degrees, give or take the sampling of 60 points and the columns' units.
    EXPECT_NEAR(static_cast<double>(rectangle->angle), kTurnAngles / 4.0, 3.0);
  }
}

TEST(TurnedRectangle, ADiagonalClusterThatItsBoxFailsPassesTurned) {
  // 150 points along a diagonal among 1,500 uniform points in 20 dimensions.
  Matrix m = uniform_noise(1500, 20, 7);
  const auto cluster = stretched(m, 4, 11, 0, 150, 0.088, 0.008, 8);
  const auto marginals = Marginals::of(m);
  const auto boxed = score_cluster(m, marginals, cluster);
  const auto both = score_cluster(m, marginals, cluster, Shapes::boxes_and_turned);
  EXPECT_LT(boxed.score, 2.0);
  EXPECT_FALSE(boxed.turned);
  EXPECT_GT(both.score, 8.0);
  EXPECT_TRUE(both.turned);
  EXPECT_NEAR(both.log10_search * std::log(10.0), log_turned_search_size(marginals), 1e-9);
}

TEST(TurnedRectangle, AnAxisParallelClusterKeepsItsBox) {
  Matrix m = uniform_noise(1000, 6, 3);
  const auto cluster = testing::plant(m, {1, 2}, 0, 60, 0.03, 4);
  const auto marginals = Marginals::of(m);
  const auto boxed = score_cluster(m, marginals, cluster);
  const auto both = score_cluster(m, marginals, cluster, Shapes::boxes_and_turned);
  EXPECT_FALSE(both.turned);
  EXPECT_DOUBLE_EQ(both.score, boxed.score);
}

TEST(TurnedRectangle, ColumnsOnIntegerLevelsTakeNone) {
  Matrix m = testing::skewed_levels(600, 3, 20, 5);
  Matrix mixed = uniform_noise(600, 3, 6);
  mixed.col(2) = m.col(2);
  const auto marginals = Marginals::of(mixed);
  EXPECT_GT(turn_unit(marginals, 0), 0.0);
  EXPECT_EQ(turn_unit(marginals, 2), 0.0);
  EXPECT_TRUE(takes_turned_rectangles(marginals, 0, 1));
  EXPECT_FALSE(takes_turned_rectangles(marginals, 0, 2));
  const auto cluster = stretched(mixed, 0, 1, 0, 50, 0.08, 0.01, 9);
  EXPECT_FALSE(turned_rectangle(mixed, marginals, SubspaceCluster{{0, 2}, cluster.points}).has_value());
}

TEST(TurnedRectangle, APairThatTakesThemGivesItsBoxesSevenEighthsOfItsWeight) {
  Matrix m = uniform_noise(300, 4, 2);
  m.col(3) = testing::skewed_levels(300, 1, 10, 3).col(0);
  const auto marginals = Marginals::of(m);
  const std::vector<std::uint32_t> turned_pair{0, 1}, level_pair{0, 3}, triple{0, 1, 2};
  const auto boxes_only = [&](std::span<const std::uint32_t> dims) {
    double log_m = std::log(4.0) + log_choose(4, dims.size());
    for (const auto j : dims) log_m += std::log(marginals.distinct(j) * (marginals.distinct(j) + 1.0) / 2.0);
    return log_m;
  };
  EXPECT_NEAR(log_search_size(marginals, turned_pair), boxes_only(turned_pair) + std::log(8.0 / 7.0), 1e-9);
  EXPECT_NEAR(log_search_size(marginals, level_pair), boxes_only(level_pair), 1e-9);
  EXPECT_NEAR(log_search_size(marginals, triple), boxes_only(triple), 1e-9);
  const SearchSizes sizes(marginals);
  for (const auto& dims : {turned_pair, level_pair, triple})
    EXPECT_EQ(sizes.log_size(dims), log_search_size(marginals, dims));
  // d C(d, 2) (kTurnAngles / kTurnedShare) (n (n + 1) / 2)^2
  EXPECT_NEAR(log_turned_search_size(marginals), std::log(4.0 * 6 * 512 * std::pow(300.0 * 301 / 2, 2)), 1e-9);
}

TEST(TurnedRectangle, TrimmingTakesAwayTheBackgroundAtItsSidesAndEnds) {
  Matrix m = uniform_noise(1500, 8, 11);
  auto cluster = stretched(m, 2, 5, 0, 150, 0.08, 0.008, 12);
  // Twenty background points beside and beyond the band join it, as growth brings them: ten at
  // 5-8 sd across it, ten at 3.5-4.5 sd beyond its ends.
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const auto place = [&](std::uint32_t i, double along, double across) {
    m(i, 2) = 0.5 + (along - across) / std::sqrt(2.0);
    m(i, 5) = 0.5 + (along + across) / std::sqrt(2.0);
    cluster.points.push_back(i);
  };
  for (std::uint32_t i = 150; i < 160; ++i)
    place(i, 0.1 * (2 * u01(rng) - 1), (i % 2 ? 1 : -1) * 0.008 * (5 + 3 * u01(rng)));
  for (std::uint32_t i = 160; i < 170; ++i)
    place(i, (i % 2 ? 1 : -1) * 0.08 * (3.5 + u01(rng)), 0.008 * (2 * u01(rng) - 1));
  const auto marginals = Marginals::of(m);
  const auto before = score_cluster(m, marginals, cluster, Shapes::boxes_and_turned);
  const auto trimmed = trim_turned_while_stronger(m, marginals, cluster);
  const auto after = score_cluster(m, marginals, trimmed, Shapes::boxes_and_turned);
  EXPECT_GT(after.score, before.score);
  EXPECT_TRUE(after.turned);
  std::size_t planted = 0;
  for (const auto p : trimmed.points) planted += p < 150 ? 1 : 0;
  // The band's own tails go too where that raises the score, as a box's trimming cuts them.
  EXPECT_GE(planted, 120U) << "most of the band's own points stay";
  EXPECT_LE(trimmed.points.size() - planted, 4U) << "most of the strays go";
}

TEST(TurnedRectangle, OnlyABandLooksStretched) {
  Matrix m = uniform_noise(800, 6, 21);
  const auto band = stretched(m, 0, 3, 0, 60, 0.05, 0.008, 22);
  const auto blob = stretched(m, 1, 4, 100, 60, 0.02, 0.012, 23);
  const auto box = testing::plant(m, {2, 5}, 200, 60, 0.04, 24);
  const auto marginals = Marginals::of(m);
  EXPECT_TRUE(looks_stretched(m, marginals, band));
  EXPECT_FALSE(looks_stretched(m, marginals, blob)) << "along the diagonal, but not three times as long as wide";
  EXPECT_FALSE(looks_stretched(m, marginals, box)) << "no turned rectangle, or not stretched";
  EXPECT_FALSE(looks_stretched(m, marginals, SubspaceCluster{{0, 3, 5}, band.points})) << "three dimensions";
}

TEST(TurnedRectangle, AClusterWithoutARectangleIsNotTrimmed) {
  Matrix m = uniform_noise(500, 4, 13);
  const auto cluster = testing::plant(m, {0, 1, 2}, 0, 40, 0.05, 14);
  const auto marginals = Marginals::of(m);
  EXPECT_EQ(trim_turned_while_stronger(m, marginals, cluster).points, cluster.points);
}

}  // namespace
}  // namespace subscale::significance
