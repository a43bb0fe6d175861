// `subscale run DATA` and `subscale plan DATA`: a data file in the config's place stands for a
// config that holds only `input.path: DATA`, overrides applied after it; a file that is neither a
// config nor data is refused with both forms shown.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;
using ::testing::HasSubstr;

class DataPositional : public subscale::testing::CliTest {
 protected:
  static fs::path quickstart() { return subscale::testing::source_root() / "datasets" / "quickstart.h5"; }
};

TEST_F(DataPositional, RunOfADataFileEqualsARunOfAConfigNamingIt) {
  const fs::path data = folder_ / "points.h5";
  fs::copy_file(quickstart(), data);
  const fs::path config = write("only-input.yaml", "input:\n  path: points.h5\n");
  const auto from_config = run("run " + config.string() + " --out " + (folder_ / "by-config").string() + " -q");
  ASSERT_EQ(from_config.exit_code, 0) << from_config.output;
  const auto from_data = run("run " + data.string() + " --out " + (folder_ / "by-data").string() + " -q", "data.txt");
  ASSERT_EQ(from_data.exit_code, 0) << from_data.output;
  for (const char* file : {"clusters.txt", "subspaces.txt"}) {
    const std::string expected = read_text(folder_ / "by-config" / file);
    EXPECT_FALSE(expected.empty()) << file;
    EXPECT_EQ(read_text(folder_ / "by-data" / file), expected) << file;
  }
  EXPECT_THAT(read_text(folder_ / "by-data" / "config.yaml"), HasSubstr("path: " + data.string()));
}

TEST_F(DataPositional, OverridesFollowTheDataFile) {
  const auto out =
      run("run " + quickstart().string() + " epsilon=0.004 min_points=4 --out " + (folder_ / "run").string() + " -q");
  ASSERT_EQ(out.exit_code, 0) << out.output;
  const std::string config = read_text(folder_ / "run" / "config.yaml");
  EXPECT_THAT(config, HasSubstr("epsilon: 0.004"));
  EXPECT_THAT(config, HasSubstr("min_points: 4"));
}

TEST_F(DataPositional, PlanTakesADataFile) {
  const fs::path data = write("points.csv", "0.1,0.2\n0.11,0.21\n0.12,0.19\n0.9,0.5\n0.3,0.7\n0.13,0.2\n");
  const auto out = run("plan " + data.string() + " epsilon=0.05 min_points=3");
  EXPECT_EQ(out.exit_code, 0) << out.output;
  EXPECT_THAT(out.output, HasSubstr("total dense units"));
}

TEST_F(DataPositional, AConfigUnderAnotherNameIsStillAConfig) {
  const fs::path data = folder_ / "points.h5";
  fs::copy_file(quickstart(), data);
  const fs::path config = write("experiment.cfg", "input:\n  path: points.h5\nepsilon: 0.004\nmin_points: 4\n");
  const auto out = run("plan " + config.string());
  EXPECT_EQ(out.exit_code, 0) << out.output;
  EXPECT_THAT(out.output, HasSubstr("total dense units"));
}

TEST_F(DataPositional, AFileThatIsNeitherConfigNorDataShowsBothForms) {
  const fs::path notes = write("notes.bin", "just some words\n");
  for (const std::string command : {"run", "plan"}) {
    const std::string out_option = command == "run" ? " --out " + (folder_ / "run").string() : "";
    const auto out = run(command + " " + notes.string() + out_option);
    EXPECT_EQ(out.exit_code, 2) << out.output;
    EXPECT_THAT(out.output, HasSubstr("notes.bin: neither a YAML config nor a data file"));
    EXPECT_THAT(out.output, HasSubstr("subscale " + command + " CONFIG.yaml [key=value ...]"));
    EXPECT_THAT(out.output, HasSubstr("subscale " + command + " DATA.csv [key=value ...]"));
    EXPECT_FALSE(fs::exists(folder_ / "run"));
  }
}

}  // namespace
