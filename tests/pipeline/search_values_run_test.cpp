// The search's own view of the values (pipeline/steps/search_values.hpp), through whole runs:
// repeated columns give the clusters of the data without them, reported in every repeat; columns
// on integer levels are searched at the reach the run chose, which config.yaml repeats exactly.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "datasets/synthetic_generator.hpp"
#include "pipeline/steps/library_run.hpp"

namespace subscale::pipeline {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

datasets::GeneratedData quickstart_like(std::uint32_t levels = 0) {
  datasets::GeneratorConfig config;
  config.points = 1000;
  config.dimensions = 12;
  config.seed = 2024;
  config.clusters = datasets::parse_cluster_spec("2,7:150:0.03;0,5,9:155:0.04;3,8,11:160:0.03;1,4,6,10:165:0.035",
                                                 config.points, config.dimensions, std::nullopt, config.seed);
  config.grid.levels = levels;
  return datasets::generate(config);
}

LibraryRun run_on(const Matrix& values, const std::vector<std::string>& overrides = {}) {
  RunControl control;
  const MemoryInput input{
      load::MatrixView<double>{values.data(), static_cast<std::size_t>(values.rows()),
                               static_cast<std::size_t>(values.cols()), 1, static_cast<std::ptrdiff_t>(values.rows())},
      {},
      {}};
  std::vector<std::string> settings = overrides;
  settings.push_back("threads=1");
  return run_library(settings, input, control);
}

// Every column twice (the copy right after it), and three more: a x + b of column 0, 1 - x of
// column 3 as a x + b with a < 0, and a copy of column 5.
Matrix with_repeats(const Matrix& base, std::vector<std::vector<std::uint32_t>>& copies_of) {
  const Eigen::Index d = base.cols();
  Matrix out(base.rows(), 2 * d + 3);
  copies_of.assign(static_cast<std::size_t>(d), {});
  for (Eigen::Index j = 0; j < d; ++j) {
    out.col(2 * j) = base.col(j);
    out.col(2 * j + 1) = base.col(j);
    copies_of[static_cast<std::size_t>(j)] = {static_cast<std::uint32_t>(2 * j), static_cast<std::uint32_t>(2 * j + 1)};
  }
  out.col(2 * d) = (4.5 * base.col(0).array() + 17.0).matrix();
  out.col(2 * d + 1) = (-0.75 * base.col(3).array() + 2.0).matrix();
  out.col(2 * d + 2) = base.col(5);
  copies_of[0].push_back(static_cast<std::uint32_t>(2 * d));
  copies_of[3].push_back(static_cast<std::uint32_t>(2 * d + 1));
  copies_of[5].push_back(static_cast<std::uint32_t>(2 * d + 2));
  return out;
}

TEST(SearchValuesRun, RepeatedColumnsGiveTheClustersOfTheDataWithoutThem) {
  const auto data = quickstart_like();
  std::vector<std::vector<std::uint32_t>> copies_of;
  const Matrix repeated = with_repeats(data.dataset.values, copies_of);
  const LibraryRun base = run_on(data.dataset.values);
  const LibraryRun run = run_on(repeated);
  ASSERT_TRUE(base.report.consolidated && run.report.consolidated);
  const auto& expected = base.report.consolidated->clusters;
  const auto& found = run.report.consolidated->clusters;
  ASSERT_GE(expected.size(), 3U);
  ASSERT_EQ(found.size(), expected.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    std::vector<std::uint32_t> dimensions;
    for (const auto j : expected[i].dimensions)
      dimensions.insert(dimensions.end(), copies_of[j].begin(), copies_of[j].end());
    std::sort(dimensions.begin(), dimensions.end());
    EXPECT_EQ(found[i].dimensions, dimensions) << i;
    EXPECT_EQ(found[i].points, expected[i].points) << i;
  }
  EXPECT_THAT(run.log, HasSubstr("15 of 27 columns repeat another after normalisation (1 of them mirrored"));
  EXPECT_THAT(base.log, Not(HasSubstr("repeat another")));
  // The choice of parameters sees what the search reads.
  const std::regex epsilon("\nepsilon: ([^\n]*)\n");
  std::smatch a, b;
  ASSERT_TRUE(std::regex_search(base.config_yaml, a, epsilon) && std::regex_search(run.config_yaml, b, epsilon));
  EXPECT_EQ(a[1], b[1]);
}

TEST(SearchValuesRun, WithoutTheTestRepeatsAreSearchedAsTheyAre) {
  const auto data = quickstart_like();
  std::vector<std::vector<std::uint32_t>> copies_of;
  const LibraryRun run = run_on(with_repeats(data.dataset.values, copies_of),
                                {"significance.enabled=false", "epsilon=0.01", "min_points=4", "merge.min_points=40"});
  EXPECT_THAT(run.log, Not(HasSubstr("repeat another")));
  EXPECT_THAT(run.log, Not(HasSubstr("levels")));
}

std::string resolved(const std::string& yaml, const std::string& key) {
  const std::regex line("\n" + key + ": ([^\n]*)\n");
  std::smatch match;
  return std::regex_search(yaml, match, line) ? std::string(match[1]) : std::string();
}

TEST(SearchValuesRun, LevelsAreChosenLoggedAndRepeatTheRunFromConfigYaml) {
  const auto data = quickstart_like(200);
  const LibraryRun run = run_on(data.dataset.values);
  // 1000 points on 200 levels: epsilon is about 1.6 gaps, so the core links levels up to 2 apart.
  EXPECT_THAT(run.log, HasSubstr("auto        levels: 12 of 12 dimensions on integer levels; 200 levels in 11"));
  const std::string levels = resolved(run.config_yaml, "levels");
  ASSERT_THAT(levels, HasSubstr("0:2:6,1:2:6,"));
  std::vector<std::string> again;
  for (const char* key : {"epsilon", "min_points", "merge.epsilon", "merge.min_points"}) {
    const std::string path = key, leaf = path.substr(path.find('.') + 1);
    again.push_back(path + "=" + resolved(run.config_yaml, path == leaf ? path : "  " + leaf));
  }
  again.push_back("levels=" + levels);
  const LibraryRun rerun = run_on(data.dataset.values, again);
  ASSERT_TRUE(run.report.consolidated && rerun.report.consolidated);
  EXPECT_EQ(rerun.report.consolidated->clusters, run.report.consolidated->clusters);
  EXPECT_EQ(rerun.report.core.subspaces, run.report.core.subspaces);
  // Without the scaling the same parameters search another way.
  again.back() = "levels=none";
  const LibraryRun plain = run_on(data.dataset.values, again);
  EXPECT_NE(plain.report.core.subspaces, run.report.core.subspaces);
}

TEST(SearchValuesRun, ABadLevelsListIsRefusedNamingTheKey) {
  const auto data = quickstart_like();
  try {
    run_on(data.dataset.values, {"levels=3:1"});
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_THAT(error.what(), HasSubstr("levels: '3:1' is not DIM:CORE:MERGE"));
  }
  try {
    run_on(data.dataset.values, {"levels=3:1:2", "epsilon=0.01"});  // continuous values: no grid
    FAIL();
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("dimension 3 are not on a grid"));
  }
}

}  // namespace
}  // namespace subscale::pipeline
