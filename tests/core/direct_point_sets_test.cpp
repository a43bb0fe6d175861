// Direct mode's point sets (short lists that become bitmaps) against std::set: every way of adding
// points, at widths where lists are not used at all, where only the shortest are, and where all
// are, with sets moving through every list size into a bitmap.
#include "stages/dense_units/direct/direct_point_sets.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

namespace subscale {
namespace {

using dense_units::direct::DirectPointSets;

std::vector<std::uint32_t> ascending(const DirectPointSets& sets, std::uint32_t set) {
  std::vector<std::uint32_t> out;
  sets.for_each_ascending(set, [&](std::uint32_t p) { out.push_back(p); });
  return out;
}

void expect_same(const DirectPointSets& sets, const std::vector<std::set<std::uint32_t>>& reference,
                 std::uint32_t point_words) {
  ASSERT_EQ(sets.size(), reference.size());
  for (std::uint32_t s = 0; s < sets.size(); ++s) {
    const std::vector<std::uint32_t> want(reference[s].begin(), reference[s].end());
    EXPECT_EQ(ascending(sets, s), want) << "set " << s;
    EXPECT_EQ(sets.count(s), want.size()) << "set " << s;
    std::vector<std::uint64_t> bits(point_words, 0), want_bits(point_words, 0);
    sets.or_into(s, bits.data());
    for (const std::uint32_t p : want) want_bits[p / 64] |= std::uint64_t{1} << (p % 64);
    EXPECT_EQ(bits, want_bits) << "set " << s;
    for (std::uint32_t p = 0; p < point_words * 64; p += 7)
      EXPECT_EQ(sets.contains(s, p), reference[s].count(p) == 1) << "set " << s << ", point " << p;
  }
}

// A bitmap of `count` random points below 64 point_words.
std::vector<std::uint64_t> random_bitmap(std::mt19937_64& random, std::uint32_t point_words, std::uint32_t count) {
  std::vector<std::uint64_t> bits(point_words, 0);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t p = static_cast<std::uint32_t>(random() % (std::uint64_t{point_words} * 64));
    bits[p / 64] |= std::uint64_t{1} << (p % 64);
  }
  return bits;
}

void add_bitmap(std::set<std::uint32_t>& into, const std::vector<std::uint64_t>& bits) {
  for (std::uint32_t p = 0; p < bits.size() * 64; ++p)
    if ((bits[p / 64] >> (p % 64) & 1) != 0) into.insert(p);
}

TEST(DirectPointSets, EveryWayOfAddingPointsEqualsASetAtEveryWidth) {
  for (const std::uint32_t point_words : {1u, 2u, 3u, 9u, 40u, 200u}) {
    std::mt19937_64 random(point_words);
    const std::uint32_t points = point_words * 64;
    DirectPointSets sets(point_words), other(point_words);
    std::vector<std::set<std::uint32_t>> reference, other_reference;
    for (std::uint32_t s = 0; s < 60; ++s) {
      EXPECT_EQ(sets.add_empty(), s);
      reference.emplace_back();
      other.add_empty();
      other_reference.emplace_back();
      // Sizes from 0 to past the largest list, so that sets end in every list size and as bitmaps.
      const std::uint32_t size = static_cast<std::uint32_t>(random() % 150);
      for (std::uint32_t i = 0; i < size; ++i) {
        const std::uint32_t p = static_cast<std::uint32_t>(random() % points);
        EXPECT_EQ(sets.insert(s, p), reference[s].insert(p).second);
        const std::uint32_t q = static_cast<std::uint32_t>(random() % points);
        other.insert(s, q);
        other_reference[s].insert(q);
      }
    }
    expect_same(sets, reference, point_words);
    for (std::uint32_t s = 0; s < 60; s += 3) {
      const auto bits = random_bitmap(random, point_words, static_cast<std::uint32_t>(random() % 80));
      sets.insert_bitmap(s, bits.data());
      add_bitmap(reference[s], bits);
    }
    for (std::uint32_t s = 1; s < 60; s += 2) {
      sets.insert_all(s, other, (s * 7) % 60);
      reference[s].insert(other_reference[(s * 7) % 60].begin(), other_reference[(s * 7) % 60].end());
    }
    expect_same(sets, reference, point_words);
  }
}

TEST(DirectPointSets, AdoptedBitmapsAreTheSetsAndKeepGrowing) {
  const std::uint32_t point_words = 5;
  std::mt19937_64 random(3);
  std::vector<std::uint64_t> bitmaps;
  std::vector<std::set<std::uint32_t>> reference(4);
  for (std::uint32_t s = 0; s < 4; ++s) {
    const auto bits = random_bitmap(random, point_words, 10 * s);
    bitmaps.insert(bitmaps.end(), bits.begin(), bits.end());
    add_bitmap(reference[s], bits);
  }
  DirectPointSets sets(point_words);
  sets.adopt_bitmaps(std::move(bitmaps), 4);
  expect_same(sets, reference, point_words);
  EXPECT_EQ(sets.add_empty(), 4u);
  reference.emplace_back();
  for (const std::uint32_t p : {3u, 300u, 3u, 17u}) EXPECT_EQ(sets.insert(4, p), reference[4].insert(p).second);
  EXPECT_TRUE(sets.insert(0, 319) || reference[0].count(319) == 1);
  reference[0].insert(319);
  expect_same(sets, reference, point_words);
  EXPECT_THROW(sets.adopt_bitmaps(std::vector<std::uint64_t>(point_words, 0), 1), std::logic_error);
}

TEST(DirectPointSets, SetsOfAFewPointsTakeFarLessThanBitmaps) {
  const std::uint32_t point_words = 196;  // 12,500 points
  DirectPointSets sets(point_words);
  for (std::uint32_t s = 0; s < 10000; ++s) {
    sets.add_empty();
    for (std::uint32_t i = 0; i < 6; ++i) sets.insert(s, (s * 31 + i * 977) % (point_words * 64));
  }
  EXPECT_EQ(sets.bitmap(0), nullptr);
  EXPECT_LT(sets.bytes(), 10000u * point_words * 8 / 20);
  for (std::uint32_t p = 0; p < 200; ++p) sets.insert(7, p);
  EXPECT_NE(sets.bitmap(7), nullptr);
  EXPECT_EQ(sets.count(7), 206u);  // its first six points are all 200 or more
}

}  // namespace
}  // namespace subscale
