// `plan` says before a run how small a cluster the significance test could pass on the data (2 to
// 4 dimensions), and warns where even a cluster of a tenth of the points could not pass in 2: a
// run that would end with nothing on too few points in too many dimensions.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>

#include "pipeline/log/significance_reach.hpp"
#include "stages/significance/subspace_bound.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"

namespace subscale::testing {
namespace {

constexpr const char* kWarning = "warning: even a cluster of";

TEST(SignificanceReach, NamesTheSmallestPassingClusterPerDimensionality) {
  const auto lines = pipeline::significance_reach_lines(1000, 20, 1000, 0.01);
  ASSERT_EQ(lines.size(), 1u);  // no warning: small clusters pass on 1000 points in 20 dimensions
  for (std::uint32_t s = 2; s <= 4; ++s) {
    const std::uint32_t k = significance::smallest_passing_size(1000, 20, s, 1000, 2.0);
    EXPECT_NE(lines[0].find("in " + std::to_string(s) + " dimensions " + std::to_string(k) + " points"),
              std::string::npos)
        << lines[0];
  }
}

TEST(SignificanceReach, WarnsWhereATenthOfThePointsCannotPassInTwoDimensions) {
  const auto lines = pipeline::significance_reach_lines(30, 50, 30, 0.01);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("in 2 dimensions more than 3 points (10%)"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].rfind(kWarning, 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("significance.alpha"), std::string::npos) << lines[1];
  // One dimension leaves no subspace to test, and says nothing.
  EXPECT_TRUE(pipeline::significance_reach_lines(30, 1, 30, 0.01).empty());
}

TEST(SignificanceReach, MedianDistinctValues) {
  Matrix values(4, 3);
  values << 0, 0, 0, 1, 0, 0.5, 2, 1, 0.5, 3, 1, 1;
  EXPECT_EQ(pipeline::median_distinct_values(HeldValues::of(std::move(values))), 3u);
}

class PlanSignificance : public CliTest {
 protected:
  // Uniform noise, `rows` x `columns`, as CSV.
  std::string noise_csv(int rows, int columns) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> value(0, 1);
    std::ofstream csv(folder_ / "noise.csv");
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < columns; ++c) csv << value(random) << (c + 1 < columns ? "," : "\n");
    return (folder_ / "noise.csv").string();
  }
};

TEST_F(PlanSignificance, FewPointsInManyDimensionsAreWarnedOf) {
  const CliOutcome plan = run("plan " + noise_csv(40, 60));
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("significance the smallest cluster that could pass"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find(kWarning), std::string::npos) << plan.output;
}

TEST_F(PlanSignificance, TheQuickstartDataIsNotWarnedOf) {
  const CliOutcome plan = run("plan " + (source_root() / "configs" / "quickstart.yaml").string());
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("significance the smallest cluster that could pass"), std::string::npos) << plan.output;
  EXPECT_EQ(plan.output.find(kWarning), std::string::npos) << plan.output;
  // Without the test there is nothing to pass.
  const CliOutcome off =
      run("plan " + (source_root() / "configs" / "quickstart.yaml").string() + " significance.enabled=false");
  EXPECT_EQ(off.exit_code, 0) << off.output;
  EXPECT_EQ(off.output.find("the smallest cluster that could pass"), std::string::npos) << off.output;
}

}  // namespace
}  // namespace subscale::testing
