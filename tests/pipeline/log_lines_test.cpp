// The run log's lines as a user reads them: counts with their nouns in the right number, the
// significance test's lines where its steps run (after the stage each follows), and progress lines
// that never claim "0 s left" for work that is still going, or stay silent on a long stage.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pipeline/log/log_format.hpp"
#include "pipeline/log/progress.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"
#include "tests/pipeline/planted_cluster_rows.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

class LogLines : public subscale::testing::CliTest {};

TEST_F(LogLines, ARunWithOneClusterSaysClusterAndSubspaceInTheSingular) {
  // Regression: "subspaces   1 subspaces", "merge       1 clusters".
  namespace planted = subscale::testing::planted_cluster;
  std::string csv;
  for (int row = 0; row < planted::kPoints; ++row)
    csv += std::to_string(planted::clustered_value(row, 0)) + "," + std::to_string(planted::clustered_value(row, 1)) +
           "\n";
  const fs::path data = write("one.csv", csv);
  const auto out =
      run("run " + data.string() + " epsilon=0.01 min_points=3 merge.min_points=5 significance.enabled=false --out " +
          (folder_ / "run").string());
  ASSERT_EQ(out.exit_code, 0) << out.output;
  ASSERT_EQ(subscale::testing::read_text(folder_ / "run" / "clusters.txt"), "{0, 1}-[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n");
  EXPECT_THAT(out.output, HasSubstr("subspaces   1 subspace\n"));
  EXPECT_THAT(out.output, HasSubstr("merge       1 cluster\n"));
  EXPECT_THAT(out.output, HasSubstr("consolidate 1 cluster from 1 (0 joins"));
  EXPECT_THAT(out.output, Not(HasSubstr(" 1 clusters")));
  EXPECT_THAT(out.output, Not(HasSubstr(" 1 subspaces")));
}

TEST_F(LogLines, SignificanceLinesFollowTheStageTheyBelongTo) {
  // Regression: every significance line came after consolidate's, the merge test's among them.
  const auto out = run("run " + (subscale::testing::source_root() / "configs" / "quickstart.yaml").string() +
                       " --out " + (folder_ / "run").string());
  ASSERT_EQ(out.exit_code, 0) << out.output;
  const std::vector<std::string> in_order = {"subspaces   ", "significance 49 of 89 subspaces skipped",
                                             "merge       ", "significance 39 of 40 merge clusters",
                                             "consolidate ", "significance 5 of 5 consolidated clusters",
                                             "evaluate    "};
  std::size_t at = 0;
  for (const std::string& line : in_order) {
    const std::size_t found = out.output.find(line, at);
    ASSERT_NE(found, std::string::npos) << "'" << line << "' missing or out of order:\n" << out.output;
    at = found;
  }
}

TEST(CountedNouns, TheNounFollowsTheCount) {
  using subscale::pipeline::counted;
  EXPECT_EQ(counted(1, "cluster"), "1 cluster");
  EXPECT_EQ(counted(0, "cluster"), "0 clusters");
  EXPECT_EQ(counted(2, "point"), "2 points");
  EXPECT_EQ(counted(3, "match", "matches"), "3 matches");
}

// What a progress or heartbeat line thread has said so far.
struct Lines {
  std::mutex mutex;
  std::vector<std::string> said;
  subscale::pipeline::ProgressBar::LineSink sink() {
    return [this](const std::string& line) {
      const std::lock_guard lock(mutex);
      said.push_back(line);
    };
  }
  std::string all() {
    const std::lock_guard lock(mutex);
    std::string text;
    for (const auto& line : said) text += line + "\n";
    return text;
  }
};

TEST(ProgressLines, WorkCountedPastThePlanIsNotZeroSecondsLeft) {
  // Regression: a signature table of several partitions counts every unit once per partition; the
  // count passed the plan after the first and the lines said "about 0 s left" for the rest.
  Lines lines;
  {
    subscale::pipeline::ProgressBar bar("dense_units", 1000, subscale::pipeline::ProgressDisplay::lines, 0.02,
                                        lines.sink());
    bar.advance(2500);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_FALSE(lines.said.empty());
  EXPECT_THAT(lines.all(), Not(HasSubstr("0 s left")));
  EXPECT_THAT(lines.all(), HasSubstr("more than planned"));
}

TEST(ProgressLines, AStageWithoutACountSaysItStillRuns) {
  Lines lines;
  {
    const subscale::pipeline::StageHeartbeat beat("significance", subscale::pipeline::ProgressDisplay::lines, 0.02,
                                                  lines.sink());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_THAT(lines.all(), HasSubstr("significance still running after"));
  const std::size_t said = lines.said.size();
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_EQ(lines.said.size(), said) << "lines after the stage ended";
}

}  // namespace
