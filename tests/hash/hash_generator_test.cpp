// The seeded input generators: reproducible, the seed's normal(0.5, 0.1) scaled to 2^32.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "datasets/generators/hash_input_generator.hpp"

namespace subscale::hash {
namespace {

TEST(HashInputs, SameSeedSameWordsOtherSeedOtherWords) {
  const InputSpec spec{InputDistribution::normal, 10001, 3, 77};
  EXPECT_EQ(generate_rows(spec), generate_rows(spec));
  InputSpec other = spec;
  other.seed = 78;
  EXPECT_NE(generate_rows(spec), generate_rows(other));
  EXPECT_EQ(generate_rows(spec).size(), 30003u);
}

TEST(HashInputs, NormalHasTheSeedsMeanAndSpread) {
  const auto words = generate_rows({InputDistribution::normal, 200000, 1, 1});
  double sum = 0;
  double sum2 = 0;
  for (auto w : words) {
    const double x = w / 4294967296.0;
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / words.size();
  const double sd = std::sqrt(sum2 / words.size() - mean * mean);
  EXPECT_NEAR(mean, 0.5, 0.002);
  EXPECT_NEAR(sd, 0.1, 0.002);
}

TEST(HashInputs, SequentialIsTheRowNumberThenZeros) {
  const auto words = generate_rows({InputDistribution::sequential, 5, 3, 1});
  const std::vector<std::uint32_t> expected = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0};
  EXPECT_EQ(words, expected);
}

TEST(HashInputs, UniformUsesAllBits) {
  const auto words = generate_rows({InputDistribution::uniform, 4096, 1, 1});
  std::uint32_t any = 0;
  std::uint32_t all = ~0u;
  for (auto w : words) {
    any |= w;
    all &= w;
  }
  EXPECT_EQ(any, ~0u);
  EXPECT_EQ(all, 0u);
}

TEST(HashInputs, BadSpecsAndNames) {
  EXPECT_THROW(generate_rows({InputDistribution::normal, 10, 0, 1}), UsageError);
  InputSpec bad{InputDistribution::normal, 10, 1, 1};
  bad.stddev = 0;
  EXPECT_THROW(generate_rows(bad), UsageError);
  EXPECT_EQ(parse_input_distribution("normal"), InputDistribution::normal);
  EXPECT_THROW(parse_input_distribution("zipf"), UsageError);
}

}  // namespace
}  // namespace subscale::hash
