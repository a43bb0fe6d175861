// Direct mode against the references: a brute force over every m-subset on tiny data, exact and
// signature modes on generated data with ties (m 2 to 6, several epsilons, 1 and 2 threads, more
// than 64 dimensions) and on the OpenSubspace files where present. The units it finds in two or
// more dimensions are counted like the signature path counts them, and nothing depends on how the
// windows are cut into work items or on the thread count.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <cstdlib>
#include <filesystem>

#include "stages/core/core.hpp"
#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/load/load.hpp"
#include "stages/load/normalize.hpp"
#include "stages/subspaces/subspaces.hpp"
#include "tests/core/brute_force_subspaces.hpp"
#include "tests/core/core_params.hpp"
#include "tests/core/core_test_data.hpp"

namespace subscale {
namespace {

constexpr std::uint64_t kDirectModeSeed = 11;  // the signature keys' seed

CoreResult run_with_threads(const Matrix& values, const CoreParams& params, int threads) {
  tbb::task_arena arena(threads);
  CoreResult result;
  arena.execute([&] { result = core::run_core(values, params); });
  return result;
}

TEST(DirectMode, MatchesBruteForceOnTinyData) {
  std::size_t compared = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    // 26 points: the brute force visits C(26, 5) = 65,780 subsets for m = 5 (C(30, 5) = 142,506 took
    // most of this test's 14 s in the sanitizer build); 662 subspaces are compared instead of 701.
    const Matrix values = testing::tied_data(26, 7, seed, 20);
    for (std::uint32_t m : {2u, 3u, 4u, 5u}) {
      for (double eps : {0.05, 0.15}) {
        const auto [expected, multi] = testing::brute_force_subspaces(values, eps, m);
        const CoreParams params = testing::core_params(eps, m, TableMode::direct, kDirectModeSeed);
        const CoreResult direct = core::run_core(values, params);
        const CoreResult counted = core::run_core(values, testing::counting(params));
        EXPECT_EQ(subspaces_text(direct.subspaces), subspaces_text(expected))
            << "seed=" << seed << " m=" << m << " eps=" << eps;
        EXPECT_EQ(subspaces_text(counted.subspaces), subspaces_text(expected))
            << "seed=" << seed << " m=" << m << " eps=" << eps;
        EXPECT_EQ(counted.dense_units.distinct_multi_units, multi) << "seed=" << seed << " m=" << m << " eps=" << eps;
        compared += expected.size();
      }
    }
  }
  EXPECT_GT(compared, 50u);  // the cases hold subspaces to compare, not only empty results
}

// direct == signature == exact, and, with direct mode counting every unit, the same count of units
// in >= 2 dimensions.
void expect_modes_agree(const Matrix& values, double eps, std::uint32_t m, int threads, const std::string& what) {
  const CoreResult exact =
      run_with_threads(values, testing::core_params(eps, m, TableMode::exact, kDirectModeSeed), threads);
  const CoreResult signature =
      run_with_threads(values, testing::core_params(eps, m, TableMode::signature, kDirectModeSeed), threads);
  const CoreParams direct_params = testing::core_params(eps, m, TableMode::direct, kDirectModeSeed);
  const CoreResult direct = run_with_threads(values, direct_params, threads);
  const CoreResult counted = run_with_threads(values, testing::counting(direct_params), threads);
  const std::string expected = subspaces_text(exact.subspaces);
  EXPECT_EQ(subspaces_text(signature.subspaces), expected) << what;
  EXPECT_EQ(subspaces_text(direct.subspaces), expected) << what;
  EXPECT_EQ(subspaces_text(counted.subspaces), expected) << what;
  EXPECT_EQ(counted.dense_units.distinct_multi_units, exact.dense_units.distinct_multi_units) << what;
  EXPECT_EQ(counted.dense_units.distinct_multi_units, signature.dense_units.distinct_multi_units) << what;
  EXPECT_LE(counted.dense_units.walk_nodes, counted.total_units * m) << what;
  EXPECT_LE(direct.dense_units.walk_nodes, counted.dense_units.walk_nodes) << what;
}

TEST(DirectMode, AgreesWithSignatureAndExactOnTiedData) {
  for (std::uint64_t seed : {3u, 4u}) {
    const Matrix values = testing::tied_data(200, 8, seed, 60);
    for (std::uint32_t m : {2u, 3u, 4u, 5u, 6u}) {
      for (double eps : {0.02, 0.04}) {
        for (int threads : {1, 2})
          expect_modes_agree(values, eps, m, threads,
                             "seed=" + std::to_string(seed) + " m=" + std::to_string(m) +
                                 " eps=" + std::to_string(eps) + " threads=" + std::to_string(threads));
      }
    }
  }
}

TEST(DirectMode, AgreesOnMoreThan64Dimensions) {
  // Masks of two and three words; a coarse grid makes many units dense in dimensions on both
  // sides of every word boundary.
  for (std::uint32_t d : {65u, 130u}) {
    const Matrix values = testing::tied_data(70, d, 9, 12);
    expect_modes_agree(values, 0.09, 3, 2, "d=" + std::to_string(d));
  }
}

TEST(DirectMode, TieDimensionsAreTheDimensionsWhereCloseMeansEqual) {
  const double eps = 0.01;
  const Matrix values = testing::mixed_tie_data(120, 70, 5);
  const Density1dResult density = run_density1d(values, {eps, 3});
  const UnitPlan plan(density, 3);
  const DirectSpace space(values, plan, density, eps);
  ASSERT_EQ(space.tie_dimensions.size(), 2u);
  for (std::uint32_t j = 0; j < 70; ++j)
    EXPECT_EQ((space.tie_dimensions[j / 64] >> (j % 64) & 1) != 0, j % 3 != 0) << "dimension " << j;
  // A gap of exactly epsilon is not within it: the dimension is still one of ties.
  Matrix edge(3, 1);
  edge(0, 0) = 0.0;
  edge(1, 0) = 0.5;
  edge(2, 0) = 1.0;
  const Density1dResult edge_density = run_density1d(edge, {0.5, 2});
  const DirectSpace edge_space(edge, UnitPlan(edge_density, 2), edge_density, 0.5);
  EXPECT_EQ(edge_space.tie_dimensions[0], 1u);
}

TEST(DirectMode, AgreesWhereSomeDimensionsHoldOnlyTies) {
  for (std::uint64_t seed : {5u, 6u}) {
    const Matrix values = testing::mixed_tie_data(150, 70, seed);
    for (std::uint32_t m : {2u, 3u, 4u, 5u})
      for (int threads : {1, 2})
        expect_modes_agree(
            values, 0.01, m, threads,
            "seed=" + std::to_string(seed) + " m=" + std::to_string(m) + " threads=" + std::to_string(threads));
  }
}

TEST(DirectMode, LargeTiedWindowsCutIntoItemsGiveTheSameResult) {
  // A grid of 6 values: windows of a few dozen tied points, each cut into many items. One-unit items
  // cost a walk each: 130 points make 300,791 units (160 made 808,217, 12 of the test's 14 s in the
  // sanitizer build) and a largest window of 28 points (41).
  const Matrix values = testing::tied_data(130, 6, 2, 5);
  const double eps = 0.1;
  const std::uint32_t m = 4;
  const Density1dResult density = run_density1d(values, {eps, m});
  const UnitPlan plan(density, m);
  const DirectSpace space(values, plan, density, eps);
  std::string reference;
  std::uint64_t reference_multi = 0, reference_nodes = 0;
  for (std::uint64_t per_item : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1000}, std::uint64_t{1} << 40}) {
    dense_units::direct::DirectSubspaceMap subspaces(space.key_words(), space.point_words());
    std::uint64_t multi = 0, nodes = 0;
    const auto items = make_direct_work_items(plan, per_item);
    std::uint64_t units = 0;
    for (const auto& item : items) {
      const auto counts = walk_direct_item(space, plan, item, subspaces);
      multi += counts.emitted;
      nodes += counts.nodes;
      units += item.rank_end - item.rank_begin;
    }
    EXPECT_EQ(units, plan.total_units());
    const std::string text = subspaces_text(subspaces.to_subspaces());
    if (reference.empty()) {
      reference = text;
      reference_multi = multi;
      reference_nodes = nodes;
      continue;
    }
    EXPECT_EQ(text, reference) << "units per item " << per_item;
    EXPECT_EQ(multi, reference_multi) << "units per item " << per_item;
    EXPECT_GE(reference_nodes, nodes) << "one-unit items revisit their prefixes, so they walk the most nodes";
  }
  const CoreResult exact = core::run_core(values, testing::core_params(eps, m, TableMode::exact, kDirectModeSeed));
  EXPECT_EQ(reference, subspaces_text(exact.subspaces));
  EXPECT_GT(plan.largest_window(), 24u);
}

TEST(DirectMode, PlanEstimateIsExactWhenTheSampleCoversEverything) {
  const Matrix values = testing::tied_data(400, 6, 5, 60);
  const double eps = 0.05;
  const std::uint32_t m = 4;
  const Density1dResult density = run_density1d(values, {eps, m});
  const UnitPlan plan(density, m);
  const DirectSpace space(values, plan, density, eps);
  const DirectWalkEstimate estimate = estimate_direct_walk(space, plan, 1u << 20);
  ASSERT_TRUE(estimate.exact);
  dense_units::direct::DirectSubspaceMap subspaces(space.key_words(), space.point_words());
  const DenseUnitsResult walked = run_direct_units_cpu(space, plan, subspaces);
  EXPECT_EQ(static_cast<std::uint64_t>(estimate.multi_units), walked.distinct_multi_units);
  EXPECT_GT(estimate.nodes, 0);
  // A sampled estimate lands near the count (a loose bound: it is a forecast).
  const DirectWalkEstimate sampled = estimate_direct_walk(space, plan, 128);
  EXPECT_FALSE(sampled.exact);
  EXPECT_GT(sampled.multi_units, 0.3 * static_cast<double>(walked.distinct_multi_units));
  EXPECT_LT(sampled.multi_units, 3.0 * static_cast<double>(walked.distinct_multi_units));
}

TEST(DirectMode, OpenSubspaceFilesAgreeWithSignatureMode) {
  const char* shared = std::getenv("SUBSCALE_SHARED_DIR");
  const std::filesystem::path root = shared ? std::filesystem::path(shared) / "datasets/opensubspace" : "";
  if (!shared || !std::filesystem::exists(root)) GTEST_SKIP() << "OpenSubspace datasets not present";
  struct Case {
    const char* file;
    double eps;
    std::uint32_t m;
  };
  // The files scripts/gpu-bundle carries, so that the GPU machine runs this too.
  for (const Case& c : {Case{"synth_dbsizescale/S1500.arff", 0.003, 3}, Case{"synth_dimscale/D05.arff", 0.005, 3},
                        Case{"synth_noisescale/N70.arff", 0.002, 2}, Case{"synth_noisescale/N70.arff", 0.002, 4}}) {
    load::LoadOptions options;
    options.path = (root / c.file).string();
    Dataset data = load::load_dataset(options);
    load::normalize(data, load::Normalization::minmax);
    const CoreResult signature =
        core::run_core(data.values, testing::core_params(c.eps, c.m, TableMode::signature, kDirectModeSeed));
    const CoreParams direct_params = testing::core_params(c.eps, c.m, TableMode::direct, kDirectModeSeed);
    const CoreResult direct = core::run_core(data.values, direct_params);
    const CoreResult counted = core::run_core(data.values, testing::counting(direct_params));
    EXPECT_EQ(subspaces_text(direct.subspaces), subspaces_text(signature.subspaces)) << c.file;
    EXPECT_EQ(subspaces_text(counted.subspaces), subspaces_text(signature.subspaces)) << c.file;
    EXPECT_EQ(counted.dense_units.distinct_multi_units, signature.dense_units.distinct_multi_units) << c.file;
    EXPECT_FALSE(direct.subspaces.empty()) << c.file;
  }
}

}  // namespace
}  // namespace subscale
