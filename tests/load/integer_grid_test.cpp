// The generator's integer grid (tie-heavy data): tie groups, dimensions dealt into groups whose
// cells share a point's per-group draw, so that the same points tie in the same groups of
// dimensions; and skewed dimensions, the minority of features that carry the ties.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <bit>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "common/error.hpp"
#include "datasets/synthetic_generator.hpp"
#include "tests/io/test_files.hpp"

namespace subscale::datasets {
namespace {

using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;

// Background only (no hidden cluster), so every cell comes from the grid's draws.
GeneratorConfig grid_config(std::uint32_t groups, double correlation, std::uint64_t seed = 7) {
  GeneratorConfig config;
  config.points = 300;
  config.dimensions = 24;
  config.seed = seed;
  config.grid.levels = 6;
  config.grid.skew = 1.0;
  config.grid.correlation = correlation;
  config.grid.groups = groups;
  return config;
}

bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

std::uint64_t checksum(const Matrix& values) {
  std::uint64_t sum = 0;
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, values.data() + i, sizeof bits);
    sum = sum * 1099511628211ull ^ bits;
  }
  return sum;
}

// The share of a row's or column's cells on level 0 (the most frequent level of a skewed law).
template <class Line>
double zero_share(const Line& line) {
  return static_cast<double>((line.array() == 0.0).count()) / static_cast<double>(line.size());
}

std::string usage_error(const GeneratorConfig& config) {
  try {
    generate(config);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

// The dimensions in which two points hold the same level, for every pair of points that tie in two
// or more dimensions: a unit's subspace is made of such patterns.
std::map<std::uint64_t, std::uint64_t> pair_tie_patterns(const Matrix& values) {
  std::map<std::uint64_t, std::uint64_t> patterns;  // dimension mask (d <= 64) -> pairs
  for (Eigen::Index p = 0; p < values.rows(); ++p)
    for (Eigen::Index q = p + 1; q < values.rows(); ++q) {
      std::uint64_t pattern = 0;
      for (Eigen::Index j = 0; j < values.cols(); ++j)
        if (values(p, j) == values(q, j)) pattern |= std::uint64_t{1} << j;
      if (std::popcount(pattern) >= 2) ++patterns[pattern];
    }
  return patterns;
}

TEST(TieGroups, SameSeedSameBitsOtherSeedOtherData) {
  const GeneratedData first = generate(grid_config(4, 0.8));
  EXPECT_TRUE(same_bits(first.dataset.values, generate(grid_config(4, 0.8)).dataset.values));
  EXPECT_FALSE(same_bits(first.dataset.values, generate(grid_config(4, 0.8, 8)).dataset.values));
  EXPECT_FALSE(same_bits(first.dataset.values, generate(grid_config(5, 0.8)).dataset.values));
}

TEST(TieGroups, PinnedValuesForASeed) {
  // Recorded once: the files made with one group (the default, and the files made before groups
  // existed) and with several must be remade bit for bit by later builds.
  EXPECT_EQ(checksum(generate(grid_config(1, 0.3)).dataset.values), 4635329916471083008ull);
  EXPECT_EQ(checksum(generate(grid_config(4, 0.8)).dataset.values), 4800837202776948736ull);
}

TEST(TieGroups, FullCorrelationMakesEachGroupOneColumnRepeated) {
  // With every cell reusing its point's group draw, the columns of a group are equal and columns of
  // different groups are not: the columns fall into exactly `groups` classes whose sizes (the
  // deal) differ by at most one, and the classes are not runs of neighbouring columns.
  for (const std::uint32_t groups : {1u, 5u, 24u}) {
    const Matrix values = generate(grid_config(groups, 1.0)).dataset.values;
    std::map<std::vector<double>, std::vector<Eigen::Index>> classes;
    for (Eigen::Index j = 0; j < values.cols(); ++j) {
      const Eigen::VectorXd column = values.col(j);
      classes[std::vector<double>(column.data(), column.data() + column.size())].push_back(j);
    }
    ASSERT_EQ(classes.size(), groups);
    std::size_t smallest = values.cols(), largest = 0, neighbours = 0;
    for (const auto& [column, members] : classes) {
      smallest = std::min(smallest, members.size());
      largest = std::max(largest, members.size());
      for (std::size_t k = 1; k < members.size(); ++k) neighbours += members[k] == members[k - 1] + 1 ? 1 : 0;
    }
    EXPECT_LE(largest - smallest, 1u) << groups << " groups";
    if (groups == 5) {
      EXPECT_LT(neighbours, 10u) << "groups should be a random deal, not blocks of columns";
    }
  }
}

TEST(TieGroups, GroupedDataHasFewerDistinctTiePatterns) {
  // Same levels, skew and correlation: with one group a point's reused cells tie in random subsets
  // of all 24 dimensions; with 6 groups they tie in subsets of one group's 4 dimensions, so far
  // fewer distinct patterns carry the multi-dimension ties.
  // 50 uniform levels: chance ties are rare, so most multi-dimension ties come from shared draws.
  const auto values = [](std::uint32_t groups) {
    GeneratorConfig config = grid_config(groups, 0.8);
    config.grid.levels = 50;
    config.grid.skew = 0;
    return generate(config).dataset.values;
  };
  const auto ungrouped = pair_tie_patterns(values(1));
  const auto grouped = pair_tie_patterns(values(6));
  std::uint64_t ungrouped_pairs = 0, grouped_pairs = 0;
  for (const auto& [pattern, count] : ungrouped) ungrouped_pairs += count;
  for (const auto& [pattern, count] : grouped) grouped_pairs += count;
  ASSERT_GT(ungrouped_pairs, 1000u);
  ASSERT_GT(grouped_pairs, 1000u);
  const double ungrouped_per_pair = static_cast<double>(ungrouped.size()) / static_cast<double>(ungrouped_pairs);
  const double grouped_per_pair = static_cast<double>(grouped.size()) / static_cast<double>(grouped_pairs);
  EXPECT_LT(grouped_per_pair * 3, ungrouped_per_pair)
      << grouped.size() << " patterns for " << grouped_pairs << " pairs grouped, " << ungrouped.size() << " for "
      << ungrouped_pairs << " ungrouped";
}

TEST(TieGroups, LevelFrequenciesDoNotDependOnTheGroups) {
  // Groups move ties between dimensions, not the share of each level: the dense-unit count of a
  // setting stays put when groups are added (level 0 has weight 1/H of the Zipf law).
  for (const std::uint32_t groups : {1u, 8u}) {
    const Matrix values = generate(grid_config(groups, 0.8)).dataset.values;
    const double zeros = static_cast<double>((values.array() == 0.0).count()) / static_cast<double>(values.size());
    double harmonic = 0;
    for (int l = 1; l <= 6; ++l) harmonic += 1.0 / l;
    EXPECT_NEAR(zeros, 1.0 / harmonic, 0.03) << groups << " groups";
  }
}

TEST(SkewedDimensions, OnlyTheChosenDimensionsCarryTheTies) {
  // Level 0 takes 1/H of a skewed dimension's cells (H = 1 + 1/2 + ... + 1/6 at skew 1) and 1/6 of
  // a uniform one's; exactly the chosen number of columns is skewed, and the choice follows the seed.
  GeneratorConfig config = grid_config(1, 0.0);
  config.points = 3000;
  config.grid.skewed_dimensions = 5;
  const auto skewed_columns = [](const Matrix& values) {
    std::vector<Eigen::Index> columns;
    for (Eigen::Index j = 0; j < values.cols(); ++j) {
      const double zeros = zero_share(values.col(j));
      EXPECT_TRUE(std::abs(zeros - 1.0 / 6) < 0.04 || std::abs(zeros - 1.0 / 2.45) < 0.04) << "column " << j;
      if (zeros > 0.3) columns.push_back(j);
    }
    return columns;
  };
  const std::vector<Eigen::Index> chosen = skewed_columns(generate(config).dataset.values);
  EXPECT_EQ(chosen.size(), 5u);
  EXPECT_EQ(skewed_columns(generate(config).dataset.values), chosen);
  config.seed = 8;
  EXPECT_NE(skewed_columns(generate(config).dataset.values), chosen);
  config.grid.skewed_dimensions = 0;
  EXPECT_EQ(skewed_columns(generate(config).dataset.values).size(), 24u);
}

TEST(SkewedDimensions, PinnedValuesForASeed) {
  GeneratorConfig config = grid_config(3, 0.5);
  config.grid.skewed_dimensions = 7;
  EXPECT_EQ(checksum(generate(config).dataset.values), 607985949695016960ull);
}

TEST(SkewedPoints, OnlyTheChosenRowsCarryTheTies) {
  // Every dimension skewed, but only 40% of the rows draw from the skewed law: those rows sit on
  // level 0 in about 1/H of their cells (H = 1 + 1/2 + ... + 1/6), the others in about 1/6.
  GeneratorConfig config = grid_config(1, 0.0);
  config.dimensions = 200;
  config.grid.skewed_points = 0.4;
  const auto prone_rows = [](const Matrix& values) {
    std::vector<Eigen::Index> rows;
    for (Eigen::Index i = 0; i < values.rows(); ++i)
      if (zero_share(values.row(i)) > 0.29) rows.push_back(i);
    return rows;
  };
  const std::vector<Eigen::Index> rows = prone_rows(generate(config).dataset.values);
  EXPECT_NEAR(static_cast<double>(rows.size()), 120.0, 3.0);  // 40% of 300, up to chance near the cut
  EXPECT_GT(rows.back() - rows.front(), 200) << "the rows are a random choice, not a block";
  config.grid.skewed_points = 1.0;
  EXPECT_NEAR(static_cast<double>(prone_rows(generate(config).dataset.values).size()), 300.0, 3.0);
  config.grid.skewed_points = 0.4;
  config.grid.skewed_dimensions = 10;
  config.grid.correlation = 0.5;
  EXPECT_EQ(checksum(generate(config).dataset.values), 8851825067596709888ull);
}

TEST(TieGroups, RangeErrorsSayWhatToGive) {
  GeneratorConfig config = grid_config(0, 0.5);
  EXPECT_THAT(usage_error(config), AllOf(HasSubstr("--tie-groups"), HasSubstr("between 1 and --dims 24")));
  config.grid.groups = 25;
  EXPECT_THAT(usage_error(config), AllOf(HasSubstr("--tie-groups"), HasSubstr("got 25")));
  config.grid.groups = 24;
  EXPECT_EQ(usage_error(config), "no error");
  config = grid_config(3, 0.0);
  config.grid.levels = 0;
  config.grid.skew = 0;
  EXPECT_THAT(usage_error(config), AllOf(HasSubstr("--tie-groups"), HasSubstr("give --levels too")));
  config = grid_config(1, 0.0);
  config.grid.skewed_dimensions = 25;
  EXPECT_THAT(usage_error(config), AllOf(HasSubstr("--skewed-dims"), HasSubstr("--dims 24, got 25")));
  config.grid.skewed_dimensions = 24;
  EXPECT_EQ(usage_error(config), "no error");
  config.grid.levels = 0;
  config.grid.skewed_dimensions = 3;
  EXPECT_THAT(usage_error(config), AllOf(HasSubstr("--skewed-dims"), HasSubstr("give --levels too")));
  for (const double share : {0.0, -0.5, 1.5}) {
    config = grid_config(1, 0.0);
    config.grid.skewed_points = share;
    EXPECT_THAT(usage_error(config), HasSubstr("--skewed-points must be in (0, 1]")) << share;
  }
  config.grid.skewed_points = 0.01;
  EXPECT_EQ(usage_error(config), "no error");
  config.grid.levels = 0;
  config.grid.skew = 0;
  EXPECT_THAT(usage_error(config), AllOf(HasSubstr("--skewed-points"), HasSubstr("give --levels too")));
}

TEST(TieGroups, CommandRefusesABadCountAndWritesNothing) {
  TempDir dir;
  const std::string prefix = dir.file("grouped");
  const std::string command = std::string("'") + SUBSCALE_GENERATE_BIN + "' -n 50 -d 6 -c '0,1:10:0.1' --levels 10" +
                              " --tie-groups 7 -o '" + prefix + "' > '" + dir.file("out.txt") + "' 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), static_cast<int>(ExitCode::usage));
  EXPECT_FALSE(std::filesystem::exists(prefix + ".h5"));
  EXPECT_FALSE(std::filesystem::exists(prefix + ".true"));
  const std::string ok = std::string("'") + SUBSCALE_GENERATE_BIN + "' -n 50 -d 6 -c '0,1:10:0.1' --levels 10" +
                         " --tie-correlation 0.9 --tie-groups 3 -o '" + prefix + "' > /dev/null 2>&1";
  EXPECT_EQ(std::system(ok.c_str()), 0);
  EXPECT_TRUE(std::filesystem::exists(prefix + ".h5"));
}

}  // namespace
}  // namespace subscale::datasets
