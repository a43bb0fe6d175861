// Run folders as a user meets them on the command line (issue 27): a run folder's own config.yaml
// repeats the run from anywhere (defect 12).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;

class RunFolderCli : public subscale::testing::CliTest {
 protected:
  // `subscale ARGUMENTS` started in `folder`, so that relative paths start there.
  subscale::testing::CliOutcome run_in(const fs::path& folder, const std::string& arguments,
                                       const std::string& log_name) {
    const char* cli = std::getenv("SUBSCALE_CLI");
    const std::string binary = cli ? std::string(cli) : std::string(SUBSCALE_BINARY_DIR) + "/subscale";
    const std::string command = "cd '" + folder.string() + "' && " + binary + " " + arguments + " > '" +
                                (folder_ / log_name).string() + "' 2>&1";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(folder_ / log_name)};
  }
};

TEST_F(RunFolderCli, ARunFoldersConfigRepeatsTheRunFromAnywhere) {
  // The config named relative to the repository root: its input paths were recorded relative to
  // there, and read relative to the run folder when the run's config.yaml was run again.
  const fs::path first = folder_ / "first", second = folder_ / "second";
  const auto made = run_in(subscale::testing::source_root(),
                           "run configs/quickstart.yaml --out '" + first.string() + "' -q", "first.log");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  const auto again = run_in(folder_, "run first/config.yaml --out '" + second.string() + "' -q", "second.log");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(read_text(second / "clusters.txt"), read_text(first / "clusters.txt"));
}

}  // namespace
