// The command line as a user meets it: exit codes, messages that name the file, row and column,
// and no run folder left behind when the input is refused.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;

using Outcome = subscale::testing::CliOutcome;

class CommandLine : public subscale::testing::CliTest {
 protected:
  fs::path config_for(const std::string& data_file, const std::string& extra = "") {
    return write("config.yaml", "input:\n  path: " + data_file + "\nepsilon: 0.2\nmin_points: 2\n" + extra);
  }
};

TEST_F(CommandLine, RunsOnCsvAndWritesTheRunFolder) {
  write("data.csv", "a,b,c\n0.1,0.2,0.3\n0.15,0.22,0.31\n0.9,0.8,0.1\n0.12,0.21,0.9\n");
  const auto out = run("run " + config_for("data.csv").string() + " --out " + (folder_ / "run").string() + " -q");
  ASSERT_EQ(out.exit_code, 0) << out.output;
  for (const char* file : {"config.yaml", "results.h5", "summary.json", "subspaces.txt", "clusters.txt", "log.txt"})
    EXPECT_TRUE(fs::exists(folder_ / "run" / file)) << file;
  std::ifstream subspaces(folder_ / "run" / "subspaces.txt");
  std::string line;
  std::getline(subspaces, line);
  EXPECT_EQ(line, "{0, 1, 2}-[0, 1]");  // points 0 and 1 are within 0.2 in all three dimensions
  const auto summary = nlohmann::json::parse(std::ifstream(folder_ / "run" / "summary.json"));
  EXPECT_EQ(summary["points"], 4);
  EXPECT_EQ(summary["seed"], 1);
  for (const auto& entry : fs::directory_iterator(folder_ / "run"))
    EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << entry.path();
}

struct BadInput {
  const char* name;
  const char* content;
  std::vector<std::string> must_mention;
};

TEST_F(CommandLine, BadInputExitsThreeNamesWhereAndLeavesNothing) {
  const std::vector<BadInput> cases = {
      {"nan.csv", "1,2\n3,nan\n", {"nan.csv", "line 2", "column 2"}},
      {"inf.csv", "1,2\ninf,4\n", {"inf.csv", "line 2", "column 1"}},
      {"ragged.csv", "1,2,3\n4,5\n", {"ragged.csv", "line 2"}},
      {"text.csv", "1,2\n3,abc\n", {"text.csv", "line 2", "column 2"}},
      {"empty.csv", "", {"empty.csv"}},
  };
  for (const auto& bad : cases) {
    write(bad.name, bad.content);
    const fs::path out_folder = folder_ / (std::string("run-") + bad.name);
    const auto out = run("run " + config_for(bad.name).string() + " --out " + out_folder.string());
    EXPECT_EQ(out.exit_code, 3) << bad.name << ": " << out.output;
    for (const auto& word : bad.must_mention)
      EXPECT_NE(out.output.find(word), std::string::npos) << word << " in " << out.output;
    EXPECT_FALSE(fs::exists(out_folder)) << bad.name;
  }
  const auto missing = run("run " + config_for("absent.h5").string() + " --out " + (folder_ / "r").string());
  EXPECT_EQ(missing.exit_code, 3) << missing.output;
  EXPECT_NE(missing.output.find("absent.h5"), std::string::npos);
  EXPECT_FALSE(fs::exists(folder_ / "r"));
}

TEST_F(CommandLine, UsageAndConfigErrorsExitTwo) {
  write("data.csv", "0.1,0.2\n0.3,0.4\n0.5,0.6\n");
  EXPECT_EQ(run("").exit_code, 2);
  EXPECT_EQ(run("frobnicate").exit_code, 2);
  EXPECT_EQ(run("run " + (folder_ / "nope.yaml").string()).exit_code, 2);
  const auto typo = run("run " + config_for("data.csv", "epsilom: 1\n").string());
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.output.find("did you mean 'epsilon'"), std::string::npos) << typo.output;
  const auto too_many =
      run("run " + config_for("data.csv").string() + " min_points=4 --out " + (folder_ / "r").string());
  EXPECT_EQ(too_many.exit_code, 2) << too_many.output;
  EXPECT_NE(too_many.output.find("larger than the number of points"), std::string::npos) << too_many.output;
  EXPECT_FALSE(fs::exists(folder_ / "r"));
  EXPECT_EQ(run("run " + config_for("data.csv").string() + " epsilon=-1").exit_code, 2);
}

TEST_F(CommandLine, TooSmallMemoryBudgetIsAResourceError) {
  write("data.csv", "0.1,0.2\n0.11,0.21\n0.12,0.22\n0.5,0.6\n");
  const auto out = run("run " + config_for("data.csv").string() + " mode=signature memory.host_bytes=1 --out " +
                       (folder_ / "r").string());
  EXPECT_EQ(out.exit_code, 4) << out.output;
  EXPECT_NE(out.output.find("too small for even one window"), std::string::npos) << out.output;
  EXPECT_FALSE(fs::exists(folder_ / "r" / "results.h5"));
}

TEST_F(CommandLine, HelpExplainsKeysAndPlanPrintsCounts) {
  const auto help = run("run --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("merge.epsilon"), std::string::npos);
  EXPECT_NE(help.output.find("partitions.scheme"), std::string::npos);
  write("data.csv", "0.1,0.2\n0.11,0.21\n0.12,0.22\n0.5,0.6\n");
  const auto plan = run("plan " + config_for("data.csv").string() + " -q");
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("total dense units"), std::string::npos) << plan.output;
}

TEST_F(CommandLine, CudaBackendWithoutAGpuIsAResourceError) {
  if (std::getenv("SUBSCALE_EXPECT_GPU")) GTEST_SKIP() << "a GPU is expected here";
  write("data.csv", "0.1,0.2\n0.11,0.21\n0.12,0.22\n0.5,0.6\n");
  const auto out = run("run " + config_for("data.csv").string() + " backend=cuda --out " + (folder_ / "r").string());
  if (out.exit_code == 0) GTEST_SKIP() << "this machine has a usable GPU";
  EXPECT_EQ(out.exit_code, 4) << out.output;
}

TEST_F(CommandLine, MessagesSayWhatIsWrongWithTheValue) {
  write("data.csv", "0.1,0.2\n0.11,0.21\n0.12,0.22\n0.5,0.6\n");
  const std::string config = config_for("data.csv").string();
  const auto tiny = run("plan " + config + " epsilon=1e-320", "tiny.log");
  EXPECT_EQ(tiny.exit_code, 2) << tiny.output;
  EXPECT_EQ(tiny.output.find("expects a number"), std::string::npos) << tiny.output;
  EXPECT_NE(tiny.output.find("below the smallest"), std::string::npos) << tiny.output;
  const auto huge = run("plan " + config + " epsilon=1e400", "huge.log");
  EXPECT_EQ(huge.exit_code, 2) << huge.output;
  EXPECT_NE(huge.output.find("out of range"), std::string::npos) << huge.output;
  EXPECT_EQ(huge.output.find("not a number"), std::string::npos) << huge.output;

  const auto processes = run("plan " + config + " --processes 0", "processes.log");
  EXPECT_EQ(processes.exit_code, 2) << processes.output;
  EXPECT_NE(processes.output.find("at least 1"), std::string::npos) << processes.output;
  EXPECT_EQ(processes.output.find("1797693134862315"), std::string::npos) << processes.output;
  const fs::path truth = write("t.true", "DIM=2\n1 1 0 1\n");
  const fs::path clusters = write("c.txt", "{0, 1}-[0, 1]\n");
  const auto points =
      run("evaluate --found " + clusters.string() + " --truth " + truth.string() + " --points 0", "points.log");
  EXPECT_EQ(points.exit_code, 2) << points.output;
  EXPECT_NE(points.output.find("--points"), std::string::npos) << points.output;
  EXPECT_NE(points.output.find("at least 1"), std::string::npos) << points.output;
  EXPECT_EQ(points.output.find("1797693134862315"), std::string::npos) << points.output;

  const auto typo = run("evalute --found x", "typo.log");
  EXPECT_EQ(typo.exit_code, 2) << typo.output;
  EXPECT_NE(typo.output.find("unknown subcommand 'evalute'"), std::string::npos) << typo.output;
  EXPECT_NE(typo.output.find("did you mean 'evaluate'"), std::string::npos) << typo.output;

  const auto section = run("plan " + config_for("data.csv", "").string() + " input=3", "section.log");
  EXPECT_EQ(section.exit_code, 2) << section.output;
  EXPECT_NE(section.output.find("'input' is a section"), std::string::npos) << section.output;
  EXPECT_NE(section.output.find("input.path"), std::string::npos) << section.output;
  const fs::path scalar_section = write("scalar.yaml", "input: 3\nepsilon: 0.2\n");
  const auto in_file = run("plan " + scalar_section.string(), "in_file.log");
  EXPECT_EQ(in_file.exit_code, 2) << in_file.output;
  EXPECT_NE(in_file.output.find("expects a mapping"), std::string::npos) << in_file.output;
}

TEST_F(CommandLine, ACsvWithCarriageReturnLineEndsIsNamedAsSuch) {
  write("cr.csv", "a,b\r0.1,0.2\r0.11,0.21\r0.12,0.22\r0.5,0.6\r");
  const auto out = run("run " + config_for("cr.csv").string() + " --out " + (folder_ / "r").string());
  EXPECT_EQ(out.exit_code, 3) << out.output;
  EXPECT_NE(out.output.find("carriage return"), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("LF"), std::string::npos) << out.output;
  EXPECT_FALSE(fs::exists(folder_ / "r"));
}

TEST_F(CommandLine, RunCheckTakesTheConfigAndRunsNothing) {
  const fs::path config = subscale::testing::source_root() / "configs" / "quickstart.yaml";
  const fs::path out = folder_ / "run";
  const auto valid = run("run " + config.string() + " \"epsilon=[0.003, 0.004]\" --check --out " + out.string());
  EXPECT_EQ(valid.exit_code, 0) << valid.output;
  EXPECT_NE(valid.output.find("the config and 1 override are valid (2 runs)"), std::string::npos) << valid.output;
  EXPECT_FALSE(fs::exists(out)) << "--check wrote a folder";
  const auto bad_value = run("run " + config.string() + " epsilon=abc --check", "bad.txt");
  EXPECT_EQ(bad_value.exit_code, 2) << bad_value.output;
  EXPECT_NE(bad_value.output.find("'epsilon'"), std::string::npos) << bad_value.output;
  const auto missing =
      run("run " + config.string() + " input.path=" + (folder_ / "none.csv").string() + " --check", "missing.txt");
  EXPECT_EQ(missing.exit_code, 3) << missing.output;
  EXPECT_NE(missing.output.find("none.csv: no such file"), std::string::npos) << missing.output;
}

}  // namespace
