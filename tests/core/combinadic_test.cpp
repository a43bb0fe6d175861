#include "stages/dense_units/enumeration/combinadic.hpp"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace subscale::combinadic {
namespace {

TEST(Binomial, SmallValuesAndSaturation) {
  EXPECT_EQ(binomial(0, 0), 1u);
  EXPECT_EQ(binomial(5, 2), 10u);
  EXPECT_EQ(binomial(3, 5), 0u);
  EXPECT_EQ(binomial(67, 33), 14226520737620288370ULL);  // the largest C(n, n/2) below 2^64
  EXPECT_EQ(binomial(68, 34), kSaturated);
  EXPECT_EQ(binomial(100000, 4), 4166416671249975000ULL);
}

TEST(Unrank, SeedExample) {
  std::uint32_t c[4];
  unrank_direct(7, 10, 4, c);
  EXPECT_EQ(std::vector<std::uint32_t>(c, c + 4), (std::vector<std::uint32_t>{0, 2, 3, 5}));
}

// Exhaustive: for N <= 20 and k <= 6 the ranks 0 .. C(N,k)-1 map one-to-one onto all k-subsets,
// in the same order as sequential colex enumeration, with the table and without.
TEST(Unrank, BijectionMatchesColexSteppingExhaustively) {
  std::vector<std::uint64_t> values(21 * 7);
  fill_binomial_table(values.data(), 21, 6);
  const BinomialTable table{values.data(), 21, 6};
  for (std::uint32_t n = 1; n <= 20; ++n) {
    for (std::uint32_t k = 1; k <= std::min<std::uint32_t>(6, n); ++k) {
      std::vector<std::uint32_t> step(k);
      for (std::uint32_t i = 0; i < k; ++i) step[i] = i;
      std::set<std::vector<std::uint32_t>> seen;
      const std::uint64_t count = binomial(n, k);
      for (std::uint64_t r = 0; r < count; ++r) {
        std::vector<std::uint32_t> from_table(k), direct(k);
        std::vector<std::uint32_t> guessed(k);
        unrank(table, r, n, k, from_table.data());
        unrank<true>(table, r, n, k, guessed.data());
        unrank_direct(r, n, k, direct.data());
        ASSERT_EQ(from_table, step) << "n=" << n << " k=" << k << " r=" << r;
        ASSERT_EQ(guessed, step) << "n=" << n << " k=" << k << " r=" << r << " (guessed)";
        ASSERT_EQ(direct, step);
        ASSERT_EQ(rank_direct(step.data(), k), r);
        for (std::uint32_t i = 0; i < k; ++i) {
          ASSERT_LT(step[i], n);
          if (i) {
            ASSERT_LT(step[i - 1], step[i]);
          }
        }
        seen.insert(step);
        const bool more = next_colex(step.data(), k, n);
        ASSERT_EQ(more, r + 1 < count);
      }
      EXPECT_EQ(seen.size(), count);
    }
  }
}

TEST(Unrank, LargestIndicesNearTwoToThe63) {
  // C(n, 4) just below 2^63 for n around 2^16.5; check the top ranks round-trip.
  std::uint32_t n = 4;
  while (binomial(n + 1, 4) < (std::uint64_t{1} << 63)) ++n;
  const std::uint64_t count = binomial(n, 4);
  ASSERT_GT(count, std::uint64_t{1} << 62);
  for (std::uint64_t r : {count - 1, count - 2, count / 2, (std::uint64_t{1} << 62) + 12345}) {
    std::uint32_t c[4];
    unrank_direct(r, n, 4, c);
    EXPECT_EQ(rank_direct(c, 4), r);
    EXPECT_LT(c[3], n);
  }
  // The table's unrank (a guess, then a few steps) agrees at the top of the range too.
  std::vector<std::uint64_t> values(std::uint64_t{n + 1} * 5);
  fill_binomial_table(values.data(), n + 1, 4);
  const BinomialTable table{values.data(), n + 1, 4};
  for (std::uint64_t r : {count - 1, count - 2, count / 2, (std::uint64_t{1} << 62) + 12345, std::uint64_t{0}}) {
    std::uint32_t direct[4], guessed[4];
    unrank_direct(r, n, 4, direct);
    unrank<true>(table, r, n, 4, guessed);
    EXPECT_EQ(std::vector<std::uint32_t>(guessed, guessed + 4), std::vector<std::uint32_t>(direct, direct + 4))
        << "r=" << r;
  }
  std::uint32_t last[4];
  unrank_direct(count - 1, n, 4, last);
  EXPECT_EQ(std::vector<std::uint32_t>(last, last + 4), (std::vector<std::uint32_t>{n - 4, n - 3, n - 2, n - 1}));
}

// Every subset size the walkers use, over windows of up to 3000 points: the guessed unrank (the
// device's) and the searched one (the host's) equal the direct one on spread-out ranks.
TEST(Unrank, GuessedEqualsDirectOnLargeWindows) {
  constexpr std::uint32_t kRows = 3001, kMaxK = 15;
  std::vector<std::uint64_t> values(std::uint64_t{kRows} * (kMaxK + 1));
  fill_binomial_table(values.data(), kRows, kMaxK);
  const BinomialTable table{values.data(), kRows, kMaxK};
  std::uint64_t state = 99;
  for (std::uint32_t k = 1; k <= kMaxK; ++k) {
    for (std::uint32_t n : {k, k + 1, 50u, 700u, 3000u}) {
      const std::uint64_t count = binomial(n, k);
      if (count == kSaturated) continue;
      for (int trial = 0; trial < 200; ++trial) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const std::uint64_t r = trial == 0 ? count - 1 : trial == 1 ? 0 : (state >> 1) % count;
        std::vector<std::uint32_t> direct(k), guessed(k);
        unrank_direct(r, n, k, direct.data());
        std::vector<std::uint32_t> searched(k);
        unrank<true>(table, r, n, k, guessed.data());
        unrank<false>(table, r, n, k, searched.data());
        ASSERT_EQ(guessed, direct) << "n=" << n << " k=" << k << " r=" << r;
        ASSERT_EQ(searched, direct) << "n=" << n << " k=" << k << " r=" << r;
      }
    }
  }
}

}  // namespace
}  // namespace subscale::combinadic
