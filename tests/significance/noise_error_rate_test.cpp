// The promise of the correction, measured: on pure noise, the share of data sets in which any
// candidate passes is at most alpha, however the candidates were searched for. The search here is
// deliberately greedy: the tightest k-point groups around many centres in every 2-D subspace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "significance_test_data.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/selection.hpp"

namespace subscale::significance {
namespace {

using testing::nearest_each;

// Integer levels with a skewed distribution: level l with weight 1 / (l + 1).
Matrix skewed_levels(std::size_t n, std::size_t d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::discrete_distribution<int> level({1.0, 0.5, 0.33, 0.25, 0.2, 0.17, 0.14, 0.12});
  Matrix m(n, d);
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) m(i, j) = level(rng) / 7.0;
  return m;
}

struct Rates {
  int any_significant = 0, any_naive = 0, any_fdr = 0;
};

void search(const Matrix& m, Rates& rates, double alpha) {
  const auto marginals = Marginals::of(m);
  std::vector<ClusterScore> scores;
  const auto d = static_cast<std::uint32_t>(m.cols());
  for (std::uint32_t a = 0; a < d; ++a)
    for (std::uint32_t b = a + 1; b < d; ++b)
      for (std::uint32_t center = 0; center < m.rows(); center += 5)
        for (const auto& group : nearest_each(m, {a, b}, center, {6, 10, 20}))
          scores.push_back(score_cluster(m, marginals, group));
  const auto keep = significant(scores, {alpha, Correction::bonferroni});
  const auto keep_fdr = significant(scores, {alpha, Correction::fdr});
  rates.any_significant += std::count(keep.begin(), keep.end(), true) > 0 ? 1 : 0;
  rates.any_fdr += std::count(keep_fdr.begin(), keep_fdr.end(), true) > 0 ? 1 : 0;
  // Corrected only for the candidates tested, as a test that ignores how they were found.
  const double naive = std::log10(static_cast<double>(scores.size())) - std::log10(alpha);
  rates.any_naive +=
      std::any_of(scores.begin(), scores.end(), [&](const ClusterScore& s) { return -s.log10_p >= naive; }) ? 1 : 0;
}

TEST(NoiseErrorRate, UniformNoiseKeepsTheFamilyWiseRate) {
  constexpr int kSeeds = 100;
  constexpr double kAlpha = 0.05;
  Rates rates;
  for (int seed = 0; seed < kSeeds; ++seed) search(testing::uniform_noise(150, 5, 1000 + seed), rates, kAlpha);
  EXPECT_LE(rates.any_significant, kAlpha * kSeeds) << "Bonferroni over the search";
  // Under the complete null, FDR control is family-wise control too.
  EXPECT_LE(rates.any_fdr, kAlpha * kSeeds) << "Benjamini-Hochberg";
  // Corrected only for the candidates tested, the same search finds "significant" boxes in noise
  // far more often than alpha promises (19 of 100 when this was written).
  EXPECT_GT(rates.any_naive, 2 * kAlpha * kSeeds) << "the naive correction should fail here";
}

// The tightest groups again, and bands: the k points nearest a line through a point of the data at
// one of 12 angles (within 0.3 of that point along it), scored by boxes and turned rectangles.
int any_passing_with_turned(const Matrix& m, double alpha) {
  const auto marginals = Marginals::of(m);
  std::vector<ClusterScore> scores;
  const auto d = static_cast<std::uint32_t>(m.cols());
  const auto n = static_cast<std::uint32_t>(m.rows());
  for (std::uint32_t a = 0; a < d; ++a)
    for (std::uint32_t b = a + 1; b < d; ++b) {
      for (std::uint32_t center = 0; center < n; center += 10)
        for (const auto& group : nearest_each(m, {a, b}, center, {6, 10, 20}))
          scores.push_back(score_cluster(m, marginals, group, Shapes::boxes_and_turned));
      for (std::uint32_t center = 0; center < n; center += 25)
        for (int t = 1; t < 12; ++t) {
          const double angle = t * std::acos(-1.0) / 12, c = std::cos(angle), s = std::sin(angle);
          std::vector<std::pair<double, std::uint32_t>> across;
          for (std::uint32_t p = 0; p < n; ++p) {
            const double dx = m(p, a) - m(center, a), dy = m(p, b) - m(center, b);
            if (std::abs(c * dx + s * dy) <= 0.3) across.emplace_back(std::abs(-s * dx + c * dy), p);
          }
          std::sort(across.begin(), across.end());
          for (const std::size_t k : {10, 20, 40}) {
            if (across.size() < k) continue;
            SubspaceCluster band{{a, b}, {}};
            for (std::size_t i = 0; i < k; ++i) band.points.push_back(across[i].second);
            std::sort(band.points.begin(), band.points.end());
            scores.push_back(score_cluster(m, marginals, band, Shapes::boxes_and_turned));
          }
        }
    }
  const auto keep = significant(scores, {alpha, Correction::bonferroni});
  return std::count(keep.begin(), keep.end(), true) > 0 ? 1 : 0;
}

TEST(NoiseErrorRate, TurnedRectanglesKeepTheFamilyWiseRate) {
  constexpr int kSeeds = 40;
  constexpr double kAlpha = 0.05;
  int any = 0;
  for (int seed = 0; seed < kSeeds; ++seed)
    any += any_passing_with_turned(testing::uniform_noise(150, 5, 3000 + seed), kAlpha);
  EXPECT_LE(any, kAlpha * kSeeds);
}

TEST(NoiseErrorRate, SkewedIntegerLevelsKeepTheFamilyWiseRate) {
  constexpr int kSeeds = 60;
  constexpr double kAlpha = 0.05;
  Rates rates;
  for (int seed = 0; seed < kSeeds; ++seed) search(skewed_levels(150, 5, 2000 + seed), rates, kAlpha);
  EXPECT_LE(rates.any_significant, kAlpha * kSeeds);
  EXPECT_LE(rates.any_fdr, kAlpha * kSeeds);
}

}  // namespace
}  // namespace subscale::significance
