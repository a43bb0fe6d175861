// The owner's side of a cluster run's exchange, against one map that holds every process's pairs:
// combining the received buffers gives that map's subspaces in the subspaces stage's order, and the
// root's merge of the owners' ordered lists gives the ordered whole.
#include "distributed/subspace_exchange.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "common/error.hpp"
#include "distributed/subspace_combining.hpp"
#include "distributed/subspace_pairs.hpp"

namespace {

using namespace subscale;

constexpr std::uint32_t kDimensions = 150, kPoints = 300;
constexpr std::uint32_t kKeyWords = (kDimensions + 63) / 64, kPointWords = (kPoints + 63) / 64;

// `processes` maps over a pool of subspaces, each drawn into some of the maps with its own points
// there: sizes 1 to 6 (so many share |S| and their first mask word), points sparse or dense.
std::vector<dense_units::direct::DirectSubspaceMap> sample_maps(int processes, std::size_t pool, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<dense_units::direct::DirectSubspaceMap> maps(
      processes, dense_units::direct::DirectSubspaceMap(kKeyWords, kPointWords));
  for (std::size_t s = 0; s < pool; ++s) {
    SubspaceCluster subspace;
    const std::uint32_t size = 1 + random() % 6;
    // Low dimensions mostly, so that masks often agree on their first words.
    while (subspace.dimensions.size() < size) {
      const std::uint32_t d = random() % 4 == 0 ? random() % kDimensions : random() % 12;
      if (std::find(subspace.dimensions.begin(), subspace.dimensions.end(), d) == subspace.dimensions.end())
        subspace.dimensions.push_back(d);
    }
    std::sort(subspace.dimensions.begin(), subspace.dimensions.end());
    for (int p = 0; p < processes; ++p) {
      if (random() % 3 == 0) continue;
      SubspaceCluster here{subspace.dimensions, {}};
      const std::uint32_t step = random() % 2 == 0 ? 1 + random() % 3 : 20 + random() % 40;
      for (std::uint32_t point = random() % step; point < kPoints; point += step) here.points.push_back(point);
      distributed::add_subspaces({here}, maps[p]);
    }
  }
  return maps;
}

// Equal lists, or where the first difference lies (the lists are too long to print whole).
::testing::AssertionResult same_lists(const std::vector<SubspaceCluster>& got,
                                      const std::vector<SubspaceCluster>& expected) {
  if (got.size() != expected.size())
    return ::testing::AssertionFailure() << got.size() << " subspaces, expected " << expected.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == expected[i]))
      return ::testing::AssertionFailure() << "subspace " << i << ": " << got[i] << ", expected " << expected[i];
  return ::testing::AssertionSuccess();
}

std::vector<std::string> names(std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back("part " + std::to_string(i));
  return out;
}

TEST(SubspaceCombining, EqualsOneMapOfEveryPair) {
  for (const int processes : {1, 2, 3, 5}) {
    const auto maps = sample_maps(processes, 3000, 7 + processes);
    dense_units::direct::DirectSubspaceMap whole(kKeyWords, kPointWords);
    std::vector<distributed::Bytes> parts;
    for (const auto& map : maps) {
      whole.merge(map);
      parts.push_back(distributed::encode_pairs(map));
    }
    EXPECT_TRUE(same_lists(distributed::combine_pairs(parts, kKeyWords, kPointWords, names(parts.size())),
                           whole.to_subspaces()))
        << processes << " processes";
  }
}

TEST(SubspaceCombining, DamagedPartIsRefusedByName) {
  const auto maps = sample_maps(2, 200, 3);
  std::vector<distributed::Bytes> parts = {distributed::encode_pairs(maps[0]), distributed::encode_pairs(maps[1])};
  parts[1].pop_back();
  try {
    distributed::combine_pairs(parts, kKeyWords, kPointWords, names(2));
    ADD_FAILURE() << "a part cut short was combined";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("part 1"), std::string::npos) << error.what();
  }
  EXPECT_TRUE(distributed::combine_pairs({}, kKeyWords, kPointWords, {}).empty());
}

// A lone pair's ids are used as they came, so ids out of order or past the points are refused.
TEST(SubspaceCombining, PointIdsOutOfOrderOrRangeAreRefused) {
  dense_units::direct::DirectSubspaceMap map(kKeyWords, kPointWords);
  distributed::add_subspaces({{{1, 2}, {5, 9, 40}}}, map);
  const distributed::Bytes good = distributed::encode_pairs(map);
  constexpr std::size_t kIds = 8 + kKeyWords * 8 + 4;  // count, key, id count
  ASSERT_EQ(good.size(), kIds + 3 * 4);
  distributed::Bytes swapped = good, beyond = good;
  std::swap_ranges(swapped.begin() + kIds, swapped.begin() + kIds + 4, swapped.begin() + kIds + 4);
  const std::uint32_t far = kPointWords * 64;
  std::memcpy(beyond.data() + kIds + 8, &far, sizeof far);
  EXPECT_EQ(distributed::combine_pairs({good}, kKeyWords, kPointWords, names(1)), map.to_subspaces());
  for (const distributed::Bytes& bad : {swapped, beyond}) {
    try {
      distributed::combine_pairs({bad}, kKeyWords, kPointWords, names(1));
      ADD_FAILURE() << "damaged ids were combined";
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find("part 0: point ids out of order or beyond the data"), std::string::npos)
          << error.what();
    }
  }
}

// The owners' lists (each subspace in the list of the owner its mask hashes to) merge into the
// whole map's ordered list.
TEST(SubspaceCombining, OwnersListsMergeIntoTheWhole) {
  // About 40,000 subspaces, merged in pieces; drawn once for every count of owners (drawing them
  // for each took half of this test's 7 s in the sanitizer build).
  const std::vector<SubspaceCluster> whole = sample_maps(1, 60000, 11)[0].to_subspaces();
  for (const int owners : {1, 2, 4, 7}) {
    std::vector<std::vector<SubspaceCluster>> lists(owners);
    std::vector<std::uint64_t> key(kKeyWords);
    for (const SubspaceCluster& subspace : whole) {
      std::fill(key.begin(), key.end(), 0);
      for (const std::uint32_t d : subspace.dimensions) key[d / 64] |= std::uint64_t{1} << (d % 64);
      lists[distributed::owner_of(key.data(), kKeyWords, owners)].push_back(subspace);
    }
    std::vector<distributed::Bytes> parts;
    for (const auto& list : lists) parts.push_back(distributed::encode_clusters(list));
    EXPECT_TRUE(same_lists(distributed::merge_cluster_lists(parts), whole)) << owners << " owners";
  }
}

}  // namespace
