// log.txt grows while the run goes: once attached, every line is in the file
// as soon as it is logged; the file is created exclusively, never through a planted link.
#include "pipeline/log/run_log.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"

namespace subscale::pipeline {
namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;

class RunLogTest : public subscale::testing::CliTest {};

TEST_F(RunLogTest, LinesReachTheFileAsTheyAreLogged) {
  RunLog log(true);
  log.line("load        1000 points");
  log.write_to(folder_ / "log.txt");
  EXPECT_NE(read_text(folder_ / "log.txt").find("load        1000 points\n"), std::string::npos);
  log.line("dense_units 42.0% done");
  EXPECT_NE(read_text(folder_ / "log.txt").find("dense_units 42.0% done\n"), std::string::npos)
      << "a line was held back until the end";
  log.warning("warning: shown even when quiet");
  EXPECT_EQ(read_text(folder_ / "log.txt"), log.text());
  EXPECT_NO_THROW(log.check_written());
}

TEST_F(RunLogTest, AnExistingFileOrLinkIsNotWrittenThrough) {
  const fs::path outside = folder_ / "outside.txt";
  std::ofstream(outside) << "the user's file";
  fs::create_symlink(outside, folder_ / "log.txt");
  RunLog log(true);
  EXPECT_THROW(log.write_to(folder_ / "log.txt"), Error);
  log.line("x");
  EXPECT_EQ(read_text(outside), "the user's file");
}

}  // namespace
}  // namespace subscale::pipeline
