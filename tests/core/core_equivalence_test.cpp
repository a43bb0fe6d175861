// The core's results against references: a brute force over every m-subset agrees with exact
// mode, and signature mode agrees with exact mode under every partitioning, scheme, signature
// width, key scheme and thread count (docs/method.md §6: results never depend on them).
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "common/error.hpp"
#include "stages/core/core.hpp"
#include "stages/subspaces/subspaces.hpp"
#include "tests/core/brute_force_subspaces.hpp"
#include "tests/core/core_params.hpp"
#include "tests/core/core_test_data.hpp"

namespace subscale {
namespace {

constexpr std::uint64_t kEquivalenceSeed = 42;  // the signature keys' seed

TEST(CoreEquivalence, ExactModeMatchesBruteForce) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Matrix values = testing::tied_data(36, 6, seed, 25);
    for (std::uint32_t m : {2u, 3u, 4u}) {
      for (double eps : {0.04, 0.12}) {
        const auto exact =
            core::run_core(values, testing::core_params(eps, m, TableMode::exact, kEquivalenceSeed)).subspaces;
        const auto expected = testing::brute_force_subspaces(values, eps, m).subspaces;
        EXPECT_EQ(subspaces_text(exact), subspaces_text(expected)) << "seed=" << seed << " m=" << m << " eps=" << eps;
      }
    }
  }
}

TEST(CoreEquivalence, BruteForceFindsSomethingToCompare) {
  // Guards the test above against comparing two empty results.
  const auto expected = testing::brute_force_subspaces(testing::tied_data(36, 6, 1, 25), 0.12, 3).subspaces;
  EXPECT_GT(expected.size(), 3u);
}

struct Variant {
  std::uint32_t bits;
  KeyScheme keys;
  PartitionScheme scheme;
  std::size_t partitions;
  int threads;
};

TEST(CoreEquivalence, SignatureModeMatchesExactModeUnderEveryVariant) {
  const std::vector<Variant> variants = {
      {128, KeyScheme::uniform, PartitionScheme::adaptive, 1, 2},
      {128, KeyScheme::uniform, PartitionScheme::adaptive, 2, 2},
      {128, KeyScheme::uniform, PartitionScheme::adaptive, 7, 1},
      {128, KeyScheme::uniform, PartitionScheme::equal, 7, 2},
      {64, KeyScheme::uniform, PartitionScheme::adaptive, 7, 2},
      {64, KeyScheme::uniform, PartitionScheme::equal, 2, 1},
      {128, KeyScheme::subscale, PartitionScheme::adaptive, 7, 2},
      {128, KeyScheme::subscale, PartitionScheme::equal, 7, 2},
  };
  for (std::uint64_t seed : {5u, 6u}) {
    // 320 points (400 took 17 s in the sanitizer build, m = 5 most of it): 16 to 32 subspaces per
    // case to compare.
    const Matrix values = testing::tied_data(320, 8, seed, 150);
    for (std::uint32_t m : {3u, 4u, 5u}) {
      const double eps = m == 5 ? 0.03 : 0.02;
      const std::string exact = subspaces_text(
          core::run_core(values, testing::core_params(eps, m, TableMode::exact, kEquivalenceSeed)).subspaces);
      ASSERT_FALSE(exact.empty());
      for (const auto& v : variants) {
        CoreParams params = testing::core_params(eps, m, TableMode::signature, kEquivalenceSeed);
        params.units.signature_bits = v.bits;
        params.units.keys = v.keys;
        params.units.scheme = v.scheme;
        params.units.partitions = v.partitions;
        tbb::task_arena arena(v.threads);
        CoreResult result;
        arena.execute([&] { result = core::run_core(values, params); });
        EXPECT_EQ(subspaces_text(result.subspaces), exact)
            << "seed=" << seed << " m=" << m << " bits=" << v.bits << " keys=" << to_string(v.keys)
            << " scheme=" << to_string(v.scheme) << " partitions=" << v.partitions << " threads=" << v.threads;
        EXPECT_EQ(result.dense_units.partitions.size(), v.partitions);
      }
    }
  }
}

TEST(CoreEquivalence, BadParametersAreRefusedBeforeWork) {
  const Matrix values = testing::tied_data(10, 2, 1);
  EXPECT_THROW(core::run_core(values, testing::core_params(0.0, 3, TableMode::signature, kEquivalenceSeed)),
               UsageError);
  EXPECT_THROW(core::run_core(values, testing::core_params(-1.0, 3, TableMode::signature, kEquivalenceSeed)),
               UsageError);
  EXPECT_THROW(core::run_core(values, testing::core_params(0.1, 1, TableMode::signature, kEquivalenceSeed)),
               UsageError);
  EXPECT_THROW(core::run_core(values, testing::core_params(0.1, 11, TableMode::signature, kEquivalenceSeed)),
               UsageError);
}

// The pipeline streams units straight into the accumulator from many threads; a caller without a
// sink gets them in the result instead. Both give the same units and subspaces.
TEST(CoreEquivalence, UnitsKeptInTheResultGroupLikeTheStreamedOnes) {
  const Matrix values = testing::tied_data(400, 6, 8, 150);
  const CoreParams params = testing::core_params(0.03, 4, TableMode::signature, kEquivalenceSeed);
  const auto streamed = core::run_core(values, params);
  const Density1dResult density = run_density1d(values, {params.epsilon, params.min_points});
  const UnitPlan plan(density, params.min_points);
  const SignatureKeys keys = make_signature_keys(plan.points(), params.units.keys, params.units.seed);
  const DenseUnitsResult kept = run_dense_units_cpu(plan, density, keys, params.units);
  ASSERT_GT(kept.units.size(), 0u);
  EXPECT_EQ(kept.units.size(), streamed.dense_units.distinct_multi_units);
  EXPECT_EQ(subspaces_text(group_subspaces(kept.units)), subspaces_text(streamed.subspaces));
}

// The GPU backend hands over (S, points) pairs instead of units; the accumulator must join
// them with units of the same subspace exactly as it joins units.
TEST(SubspaceAccumulator, SubspacePairsJoinLikeUnits) {
  MaximalUnits units;
  units.min_points = 3;
  const std::vector<std::uint32_t> s01{0, 1}, s234{2, 3, 4};
  units.add(std::vector<std::uint32_t>{1, 2, 3}, s01);
  units.add(std::vector<std::uint32_t>{3, 4, 5}, s01);
  units.add(std::vector<std::uint32_t>{0, 1, 9}, s234);
  SubspaceAccumulator from_units(10);
  from_units.add(units);
  MaximalUnits first;
  first.min_points = 3;
  first.add(units.unit_points(0), s01);
  SubspaceAccumulator mixed(10);
  mixed.add(first);
  mixed.add(std::vector<SubspaceCluster>{{s01, {3, 4, 5}}, {s234, {0, 1}}});
  mixed.add(std::vector<SubspaceCluster>{{s234, {1, 9}}});
  const auto expected = from_units.finish();
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_EQ(expected[0], (SubspaceCluster{s234, {0, 1, 9}}));
  EXPECT_EQ(mixed.finish(), expected);
}

}  // namespace
}  // namespace subscale
