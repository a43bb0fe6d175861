// Whether a run is warned of or refused for its time comes from a rate, not from its parameters:
// an epsilon of 1 on a few dozen points ends at once and is no warning; a run whose rate projects
// more than a day of dense units is refused (exit 2) unless --force is given. The rate is assumed
// through SUBSCALE_ASSUME_UNITS_PER_SECOND here, so that no test runs long.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "common/error.hpp"
#include "pipeline/log/core_time_guard.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

class CoreTime : public subscale::testing::CliTest {
 protected:
  void TearDown() override {
    ::unsetenv("SUBSCALE_ASSUME_UNITS_PER_SECOND");
    CliTest::TearDown();
  }
  // 60 points in 4 dimensions; at epsilon 1 and min_points 3 every triple is a dense unit of every
  // dimension: 136648 units, walked in milliseconds.
  fs::path data() {
    std::string csv;
    for (int i = 0; i < 60; ++i)
      for (int j = 0; j < 4; ++j) csv += std::to_string(((i * 37 + j * 11) % 61) / 60.0) + (j < 3 ? "," : "\n");
    return write("points.csv", csv);
  }
  std::string wide_run(const std::string& extra) {
    return "run " + data().string() + " epsilon=1 min_points=3 --out " + (folder_ / "run").string() + " " + extra;
  }
};

TEST_F(CoreTime, AFastRunWithEpsilonOneIsNotWarnedOf) {
  // Regression: epsilon >= 1 was warned of as a run that would not finish, though it ended at once.
  const auto out = run(wide_run(""));
  ASSERT_EQ(out.exit_code, 0) << out.output;
  EXPECT_THAT(out.output, Not(HasSubstr("warning")));
  EXPECT_THAT(out.output, Not(HasSubstr("will not finish")));
}

TEST_F(CoreTime, ARunProjectedPastADayIsRefusedWithoutForce) {
  ::setenv("SUBSCALE_ASSUME_UNITS_PER_SECOND", "1", 1);  // 136648 units: 38 hours
  const auto refused = run(wide_run("-q"));
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_THAT(refused.output, HasSubstr("would take about 37 h 57 min"));
  EXPECT_THAT(refused.output, HasSubstr("--force"));
  EXPECT_FALSE(fs::exists(folder_ / "run" / "summary.json"));
  const auto forced = run(wide_run("-q --force"), "forced.txt");
  EXPECT_EQ(forced.exit_code, 0) << forced.output;
  EXPECT_THAT(forced.output, HasSubstr("warning: the core's dense units will take about 37 h 57 min"));
}

TEST_F(CoreTime, ARunProjectedPastAnHourIsWarnedOfAndRuns) {
  ::setenv("SUBSCALE_ASSUME_UNITS_PER_SECOND", "20", 1);  // 136648 units: 1 h 54 min
  const auto out = run(wide_run("-q"));
  EXPECT_EQ(out.exit_code, 0) << out.output;
  EXPECT_THAT(out.output, HasSubstr("warning: the core's dense units will take about 1 h 54 min"));
}

TEST_F(CoreTime, AnAssumedRateThatIsNoRateIsRefused) {
  ::setenv("SUBSCALE_ASSUME_UNITS_PER_SECOND", "fast", 1);
  const auto out = run(wide_run("-q"));
  EXPECT_EQ(out.exit_code, 2) << out.output;
  EXPECT_THAT(out.output, HasSubstr("SUBSCALE_ASSUME_UNITS_PER_SECOND is 'fast'"));
}

TEST(CoreTimeGuard, TheFirstSecondsRateJudgesTheRun) {
  // 1000 units a second against 10^12 units: 31 years, refused once a second has been measured.
  subscale::pipeline::CoreTimeGuard guard(1'000'000'000'000, false, {});
  guard.advance(1);
  guard.advance(1);
  EXPECT_FALSE(guard.judged());
  std::this_thread::sleep_for(std::chrono::milliseconds(1050));
  EXPECT_THROW(guard.advance(1000), subscale::UsageError);
  EXPECT_TRUE(guard.judged());
  EXPECT_NO_THROW(guard.advance(1000)) << "judged twice";
}

TEST(CoreTimeGuard, AForcedRunIsWarnedOfNotRefused) {
  std::string warning;
  subscale::pipeline::CoreTimeGuard guard(1'000'000'000'000, true, [&](const std::string& line) { warning = line; });
  guard.judge(1e9, "a test's rate");
  EXPECT_THAT(warning, HasSubstr("warning: the core's dense units will take about"));
  EXPECT_THAT(warning, HasSubstr("a test's rate"));
}

}  // namespace
