// Points grouped by their place in a subspace, against a map from coordinates to points.
#include "stages/merge/coincident_points.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

namespace subscale::merge {
namespace {

// The reference: every point of `subspace` under its coordinates in S, places ordered by their
// first point.
std::vector<std::vector<std::uint32_t>> places_by_map(const Matrix& x, const SubspaceCluster& subspace) {
  std::map<std::vector<double>, std::vector<std::uint32_t>> by_place;
  for (const auto p : subspace.points) {
    std::vector<double> place;
    for (const auto j : subspace.dimensions) place.push_back(x(p, j) + 0.0);
    by_place[place].push_back(p);
  }
  std::vector<std::vector<std::uint32_t>> out;
  for (auto& [place, members] : by_place) out.push_back(members);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::vector<std::uint32_t>> places_of(const CoincidentPoints& found) {
  std::vector<std::vector<std::uint32_t>> out;
  for (std::size_t r = 0; r < found.places.points.size(); ++r)
    out.emplace_back(found.members.begin() + found.first[r], found.members.begin() + found.first[r + 1]);
  return out;
}

TEST(CoincidentPoints, GroupsEqualCoordinatesAndOrdersPlacesByTheirFirstPoint) {
  std::mt19937_64 random(5);
  for (const int levels : {1, 2, 7, 1000000}) {
    Matrix x(500, 4);
    std::uniform_int_distribution<int> level(0, levels - 1);
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      for (Eigen::Index j = 0; j < x.cols(); ++j) x(i, j) = level(random) / 7.0;
    SubspaceCluster subspace{{0, 2, 3}, {}};
    for (std::uint32_t p = 0; p < 500; ++p)
      if (random() % 3 != 0) subspace.points.push_back(p);
    const CoincidentPoints found = coincident_points(x, subspace);
    SCOPED_TRACE("levels " + std::to_string(levels));
    EXPECT_EQ(found.places.dimensions, subspace.dimensions);
    EXPECT_EQ(places_of(found), places_by_map(x, subspace));
    ASSERT_EQ(found.first.size(), found.places.points.size() + 1);
    ASSERT_EQ(found.place.size(), subspace.points.size());
    for (std::size_t p = 0; p < subspace.points.size(); ++p) {
      const std::uint32_t r = found.place[p];
      ASSERT_LT(r, found.places.points.size());
      EXPECT_TRUE(std::binary_search(found.members.begin() + found.first[r], found.members.begin() + found.first[r + 1],
                                     subspace.points[p]));
    }
    for (std::size_t r = 0; r < found.places.points.size(); ++r) {
      EXPECT_EQ(found.places.points[r], found.members[found.first[r]]);
      if (r > 0) {
        EXPECT_LT(found.places.points[r - 1], found.places.points[r]);
      }
    }
  }
}

TEST(CoincidentPoints, PlacesWhoseHashesCollideAreToldApart) {
  std::mt19937_64 random(9);
  Matrix x(300, 2);
  for (Eigen::Index i = 0; i < x.rows(); ++i)
    for (Eigen::Index j = 0; j < x.cols(); ++j) x(i, j) = static_cast<double>(random() % 6);
  SubspaceCluster subspace{{0, 1}, std::vector<std::uint32_t>(300)};
  for (std::uint32_t p = 0; p < 300; ++p) subspace.points[p] = p;
  for (const unsigned bits : {0u, 1u, 3u}) {
    SCOPED_TRACE("hash bits " + std::to_string(bits));
    const CoincidentPoints found = coincident_points(x, subspace, bits);
    EXPECT_EQ(places_of(found), places_by_map(x, subspace));
    EXPECT_EQ(found.places.points.size(), 36u);
  }
}

TEST(CoincidentPoints, NegativeAndPositiveZeroAreOnePlace) {
  Matrix x(4, 2);
  x << 0.0, 1.0, -0.0, 1.0, 0.0, -1.0, -0.0, -1.0;
  const CoincidentPoints found = coincident_points(x, SubspaceCluster{{0, 1}, {0, 1, 2, 3}});
  EXPECT_EQ(places_of(found), (std::vector<std::vector<std::uint32_t>>{{0, 1}, {2, 3}}));
}

TEST(CoincidentPoints, FloatValuesEqualAfterNarrowingAreOnePlace) {
  Matrix32 x(3, 1);
  x << 0.1f, 0.1f, 0.2f;
  const CoincidentPoints found = coincident_points(x, SubspaceCluster{{0}, {0, 1, 2}});
  EXPECT_EQ(places_of(found), (std::vector<std::vector<std::uint32_t>>{{0, 1}, {2}}));
}

TEST(CoincidentPoints, AnEmptySubspaceHasNoPlace) {
  const Matrix x(3, 2);
  const CoincidentPoints found = coincident_points(x, SubspaceCluster{{0, 1}, {}});
  EXPECT_TRUE(found.places.points.empty());
  EXPECT_EQ(found.first, std::vector<std::uint32_t>{0});
  EXPECT_TRUE(found.members.empty());
}

}  // namespace
}  // namespace subscale::merge
