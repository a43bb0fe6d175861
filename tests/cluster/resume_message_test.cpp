// A resume refused for a checkpoint of another run says so once on stderr (before, the run's log
// printed the error line and main printed it again), and log.txt keeps it.
#include <gtest/gtest.h>

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
  EXPECT_EQ(occurrences(read_text(folder_ / "b" / "log.txt"), "epsilon is 0.004 in the checkpoint"), 1u);
}

}  // namespace
