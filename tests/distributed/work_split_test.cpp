// The cut of the core into work units: every dense unit in exactly one work unit, the items made
// for a set of ranges exactly those ranges' units, and every unit dealt to exactly one process.
#include "distributed/work_split.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/density1d/density1d.hpp"

namespace {

using namespace subscale;

Matrix random_values(std::size_t n, std::size_t d, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  Matrix values(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  for (Eigen::Index i = 0; i < values.rows(); ++i)
    for (Eigen::Index j = 0; j < values.cols(); ++j) values(i, j) = uniform(random);
  return values;
}

TEST(WorkSplit, DirectUnitsCoverEveryDenseUnitOnce) {
  for (const std::uint64_t total :
       {std::uint64_t{0}, std::uint64_t{5}, std::uint64_t{1000003}, std::uint64_t{123456789012}}) {
    for (const std::uint32_t units : {1u, 3u, 8u}) {
      const distributed::WorkSplit split = distributed::direct_split(total, units);
      std::vector<UnitRange> all;
      std::uint64_t sum = 0;
      for (std::uint32_t u = 0; u < split.units; ++u) {
        const auto ranges = split.ranges(u);
        all.insert(all.end(), ranges.begin(), ranges.end());
        sum += split.units_in(u);
      }
      std::sort(all.begin(), all.end(), [](const UnitRange& a, const UnitRange& b) { return a.begin < b.begin; });
      std::uint64_t next = 0;
      for (const UnitRange& range : all) {
        EXPECT_EQ(range.begin, next) << total << " units, " << units << " work units";
        next = range.end;
      }
      EXPECT_EQ(next, total);
      EXPECT_EQ(sum, total);
    }
  }
}

TEST(WorkSplit, ItemsOfRangesHoldExactlyThoseUnits) {
  const Matrix values = random_values(300, 4, 7);
  const Density1dResult density = run_density1d(values, {0.05, 3});
  const UnitPlan plan(density, 3);
  ASSERT_GT(plan.total_units(), 1000u);
  const distributed::WorkSplit split = distributed::direct_split(plan.total_units(), 5);
  std::vector<std::uint64_t> seen(plan.total_units(), 0);
  for (std::uint32_t u = 0; u < split.units; ++u) {
    const auto ranges = split.ranges(u);
    for (const auto& item : make_direct_work_items(plan, 7, ranges)) {
      const auto j = static_cast<std::uint32_t>(item.window / plan.points());
      const auto i = static_cast<std::uint32_t>(item.window % plan.points());
      const std::uint64_t start = plan.dimension_offsets()[j] + plan.window_offsets(j)[i];
      ASSERT_LE(item.rank_end - item.rank_begin, 7u);
      for (std::uint64_t r = item.rank_begin; r < item.rank_end; ++r) ++seen[start + r];
    }
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](std::uint64_t count) { return count == 1; }));
}

TEST(WorkSplit, DealGivesEveryUnitToOneProcess) {
  const std::vector<std::uint32_t> pending = {0, 2, 3, 7, 8, 9, 11};
  for (int processes = 1; processes <= 4; ++processes) {
    std::vector<std::uint32_t> dealt;
    for (int rank = 0; rank < processes; ++rank) {
      const auto share = distributed::deal(pending, rank, processes);
      dealt.insert(dealt.end(), share.begin(), share.end());
    }
    std::sort(dealt.begin(), dealt.end());
    EXPECT_EQ(dealt, pending) << processes << " processes";
  }
}

}  // namespace
