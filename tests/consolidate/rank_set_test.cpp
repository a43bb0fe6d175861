// The rank sets the consolidate stage keeps its columns in (bitmap or sorted list, switching with
// the size), against a plain sorted list of the same ranks: every operation, through both forms
// and across the switch.
#include "stages/consolidate/rank_set.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <random>
#include <vector>

namespace subscale::consolidate {
namespace {

using Ranks = std::vector<std::uint32_t>;

// `count` distinct ranks of 0 .. universe-1, in random order.
Ranks random_ranks(std::mt19937& rng, std::size_t universe, std::size_t count) {
  Ranks all(universe);
  std::iota(all.begin(), all.end(), 0u);
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(std::min(count, universe));
  return all;
}

// Checks every query of `set` against `plain` (sorted), with and without extra ranks.
void expect_same(const RankSet& set, const Ranks& plain, std::size_t universe, std::mt19937& rng) {
  ASSERT_EQ(set.size(), plain.size());
  ASSERT_EQ(set.ranks(), plain);
  if (plain.empty()) return;
  EXPECT_EQ(set.front(), plain.front());
  EXPECT_EQ(set.back(), plain.back());
  // Scans from either end, stopped after a random number of ranks.
  for (int k = 0; k < 3; ++k) {
    const std::size_t stop = rng() % (plain.size() + 1);
    Ranks up, down;
    set.scan_up([&](std::uint32_t r) { return up.size() < stop && (up.push_back(r), true); });
    set.scan_down([&](std::uint32_t r) { return down.size() < stop && (down.push_back(r), true); });
    EXPECT_EQ(up, Ranks(plain.begin(), plain.begin() + static_cast<std::ptrdiff_t>(stop)));
    EXPECT_EQ(down, Ranks(plain.rbegin(), plain.rbegin() + static_cast<std::ptrdiff_t>(stop)));
  }
  std::uniform_int_distribution<std::size_t> position(0, plain.size() - 1);
  for (int k = 0; k < 5; ++k) {
    std::size_t i = position(rng), j = position(rng);
    if (i > j) std::swap(i, j);
    EXPECT_EQ(set.select(i, j), std::make_pair(plain[i], plain[j]));
  }
  // Extra ranks, none in the set: the order statistics of the union, without building it.
  Ranks outside;
  for (std::uint32_t r = 0; r < universe; ++r)
    if (!std::binary_search(plain.begin(), plain.end(), r)) outside.push_back(r);
  std::shuffle(outside.begin(), outside.end(), rng);
  outside.resize(std::min<std::size_t>(outside.size(), rng() % 12));
  Ranks united = plain;
  united.insert(united.end(), outside.begin(), outside.end());
  std::sort(united.begin(), united.end());
  std::vector<std::uint64_t> scratch((universe + 63) / 64, 0);
  std::uniform_int_distribution<std::size_t> in_union(0, united.size() - 1);
  for (int k = 0; k < 5; ++k) {
    std::size_t i = in_union(rng), j = in_union(rng);
    if (i > j) std::swap(i, j);
    Ranks extra = outside;
    EXPECT_EQ(set.select(i, j, extra, scratch), std::make_pair(united[i], united[j]));
    EXPECT_TRUE(std::all_of(scratch.begin(), scratch.end(), [](std::uint64_t w) { return w == 0; }));
  }
}

TEST(RankSet, EqualsASortedListThroughInsertsAndErases) {
  std::mt19937 rng(11);
  for (const std::size_t universe : {1u, 63u, 64u, 65u, 200u, 1000u, 4097u}) {
    for (int round = 0; round < 20; ++round) {
      const std::size_t start = rng() % (universe + 1);
      Ranks plain = random_ranks(rng, universe, start);
      RankSet set(universe, plain);
      std::sort(plain.begin(), plain.end());
      expect_same(set, plain, universe, rng);
      // Grow and shrink in steps of various sizes, so that the set crosses between its forms.
      for (int step = 0; step < 12; ++step) {
        Ranks absent, present = plain;
        for (std::uint32_t r = 0; r < universe; ++r)
          if (!std::binary_search(plain.begin(), plain.end(), r)) absent.push_back(r);
        std::shuffle(absent.begin(), absent.end(), rng);
        std::shuffle(present.begin(), present.end(), rng);
        const bool grow = step % 4 < 2;
        Ranks change = grow ? absent : present;
        change.resize(std::min<std::size_t>(change.size(), rng() % (universe / 3 + 2)));
        Ranks sorted_change = change;
        std::sort(sorted_change.begin(), sorted_change.end());
        Ranks next;
        if (grow) {
          std::set_union(plain.begin(), plain.end(), sorted_change.begin(), sorted_change.end(),
                         std::back_inserter(next));
          set.insert(change);
        } else {
          std::set_difference(plain.begin(), plain.end(), sorted_change.begin(), sorted_change.end(),
                              std::back_inserter(next));
          set.erase(change);
        }
        plain = std::move(next);
        expect_same(set, plain, universe, rng);
      }
    }
  }
}

TEST(RankSet, TakesTheDenseFormOnlyFromOneRankIn64) {
  const Ranks few = {5, 190, 17};
  EXPECT_FALSE(RankSet(6400, few).dense());
  EXPECT_TRUE(RankSet(192, few).dense());
  EXPECT_FALSE(RankSet(193, few).dense());
  EXPECT_TRUE(RankSet(64, Ranks{3}).dense());
  EXPECT_FALSE(RankSet(65, Ranks{3}).dense());
  EXPECT_FALSE(RankSet(100, Ranks{}).dense());
}

}  // namespace
}  // namespace subscale::consolidate
