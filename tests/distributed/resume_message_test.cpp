// Resuming as a user sees it: a resume refused for a checkpoint of another run says so once on
// stderr (before, the run's log printed the error line and main printed it again), and log.txt
// keeps it; a resumed run reports the units it read back apart from those it walked.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

using subscale::testing::read_text;
using subscale::testing::source_root;

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

class ResumeMessage : public subscale::testing::CliTest {};

TEST_F(ResumeMessage, MismatchedCheckpointIsReportedOnce) {
  const std::string config = (source_root() / "configs" / "quickstart.yaml").string();
  const std::string checkpoint = (folder_ / "checkpoint").string();
  ASSERT_EQ(run("run " + config + " -q threads=1 checkpoint.dir=" + checkpoint + " --out " + (folder_ / "a").string())
                .exit_code,
            0);
  // Not quiet: the log's lines go to stderr too.
  const auto refused =
      run("run " + config + " threads=1 epsilon=0.005 --resume " + checkpoint + " --out " + (folder_ / "b").string());
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_EQ(occurrences(refused.output, "epsilon is 0.004 in the checkpoint and 0.005 here"), 1u) << refused.output;
  // A refused resume is decided before the run claims its folder: nothing is left behind.
  EXPECT_FALSE(std::filesystem::exists(folder_ / "b"));
}

}  // namespace

namespace {

// After a resume the log and summary.json keep the units read back apart from those walked (the
// rate counts only the walked ones), and summary.json records the process count and the resume.
TEST_F(ResumeMessage, ResumedRunReportsUnitsReadBackApartFromThoseWalked) {
  const std::string config = (source_root() / "configs" / "quickstart.yaml").string();
  const auto checkpoint = folder_ / "checkpoint";
  ASSERT_EQ(run("run " + config + " -q threads=1 checkpoint.units=8 checkpoint.dir=" + checkpoint.string() + " --out " +
                (folder_ / "whole").string())
                .exit_code,
            0);
  for (int unit = 0; unit < 8; unit += 2)
    std::filesystem::remove(checkpoint / ("unit-" + std::to_string(unit) + ".bin"));
  const auto resumed = run("run " + config + " -q threads=1 --resume " + checkpoint.string() + " --out " +
                           (folder_ / "resumed").string());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  const auto summary = nlohmann::json::parse(read_text(folder_ / "resumed" / "summary.json"));
  EXPECT_EQ(summary["processes"], 1);
  EXPECT_EQ(summary["resumed"], true);
  ASSERT_TRUE(summary.contains("checkpoint")) << summary.dump(2);
  const auto& c = summary["checkpoint"];
  EXPECT_EQ(c["work_units"], 8);
  EXPECT_EQ(c["work_units_read_back"], 4);
  const std::uint64_t total = summary["counts"]["dense_units"], walked = c["dense_units_walked"],
                      read_back = c["dense_units_read_back"];
  EXPECT_EQ(walked + read_back, total);
  EXPECT_GT(walked, 0u);
  EXPECT_GT(read_back, 0u);
  const double seconds = summary["timings_seconds"]["dense_units"];
  EXPECT_NEAR(summary["dense_units_per_second"].get<double>(), static_cast<double>(walked) / seconds,
              1e-6 * static_cast<double>(walked) / seconds);
  const std::string log = read_text(folder_ / "resumed" / "log.txt");
  EXPECT_NE(log.find("4 unit(s) read back, 4 walked"), std::string::npos) << log;
  EXPECT_NE(log.find("read back from the checkpoint"), std::string::npos) << log;
  // The first run, checkpointed but not resumed, walked every unit.
  const auto whole = nlohmann::json::parse(read_text(folder_ / "whole" / "summary.json"));
  EXPECT_EQ(whole["processes"], 1);
  EXPECT_EQ(whole["resumed"], false);
  EXPECT_EQ(whole["checkpoint"]["work_units_read_back"], 0);
}

}  // namespace
