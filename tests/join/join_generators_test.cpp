#include "datasets/generators/join_generators.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "common/error.hpp"
#include "datasets/generators/zipf_sampler.hpp"

namespace subscale::join {
namespace {

TEST(JoinGenerators, SeededAndReproducible) {
  const UniformJoinSpec spec{.r_rows = 100000, .s_rows = 150000, .overlap = 0.3, .seed = 11};
  const JoinRelations a = generate_uniform(spec), b = generate_uniform(spec);
  EXPECT_EQ(a.r_keys, b.r_keys);
  EXPECT_EQ(a.s_keys, b.s_keys);
  UniformJoinSpec other = spec;
  other.seed = 12;
  EXPECT_NE(generate_uniform(other).s_keys, a.s_keys);
}

TEST(JoinGenerators, UniformOverlapIsTheMatchingFraction) {
  const JoinRelations input = generate_uniform({.r_rows = 50000, .s_rows = 200000, .overlap = 0.25, .seed = 4});
  const std::unordered_set<std::uint64_t> r(input.r_keys.begin(), input.r_keys.end());
  EXPECT_EQ(r.size(), input.r_keys.size());  // a primary key
  std::size_t matching = 0;
  for (auto key : input.s_keys) matching += r.count(key);
  EXPECT_NEAR(static_cast<double>(matching) / input.s_keys.size(), 0.25, 0.01);
  const JoinRelations none = generate_uniform({.r_rows = 1000, .s_rows = 1000, .overlap = 0.0, .seed = 4});
  const std::unordered_set<std::uint64_t> r0(none.r_keys.begin(), none.r_keys.end());
  for (auto key : none.s_keys) ASSERT_EQ(r0.count(key), 0U);
  EXPECT_THROW(generate_uniform({.r_rows = 1, .s_rows = 1, .overlap = 1.5}), UsageError);
}

TEST(JoinGenerators, ZipfFrequenciesFollowThePowerLaw) {
  const std::uint64_t n = 1000;
  const JoinRelations input = generate_zipf({.r_rows = n, .s_rows = 400000, .alpha = 1.0, .seed = 5});
  std::unordered_map<std::uint64_t, std::size_t> frequency;
  for (auto key : input.s_keys) ++frequency[key];
  double harmonic = 0;
  for (std::uint64_t k = 1; k <= n; ++k) harmonic += 1.0 / static_cast<double>(k);
  for (std::uint64_t rank : {1, 2, 10}) {
    const double expected = 400000.0 / (static_cast<double>(rank) * harmonic);
    const double observed = static_cast<double>(frequency[generated_key(rank - 1, 5)]);
    EXPECT_NEAR(observed, expected, 5 * std::sqrt(expected)) << "rank " << rank;
  }
  // Every S key is a key of R (a foreign key).
  const std::unordered_set<std::uint64_t> r(input.r_keys.begin(), input.r_keys.end());
  for (auto key : input.s_keys) ASSERT_EQ(r.count(key), 1U);
}

TEST(ZipfSampler, AlphaZeroIsUniformAndRanksStayInRange) {
  std::mt19937_64 rng(3);
  const ZipfSampler uniform(10, 0.0);
  std::vector<int> counts(11, 0);
  for (int i = 0; i < 100000; ++i) {
    const auto k = uniform(rng);
    ASSERT_GE(k, 1U);
    ASSERT_LE(k, 10U);
    ++counts[k];
  }
  for (int k = 1; k <= 10; ++k) EXPECT_NEAR(counts[k], 10000, 500);
  const ZipfSampler steep(5, 3.0);
  for (int i = 0; i < 1000; ++i) {
    const auto k = steep(rng);
    ASSERT_GE(k, 1U);
    ASSERT_LE(k, 5U);
  }
  EXPECT_THROW(ZipfSampler(0, 1.0), UsageError);
  EXPECT_THROW(ZipfSampler(10, -1.0), UsageError);
}

}  // namespace
}  // namespace subscale::join
