// Results read back by `evaluate` and `report` from files a user may have damaged or made up:
// an unfinished run folder is not scored, a point id read from a file does
// not decide gigabytes of memory, and a summary.json that is valid JSON but not a run's
// summary is refused naming the file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;

class HostileResults : public subscale::testing::CliTest {
 protected:
  fs::path quickstart_run() {
    const fs::path out = folder_ / "run";
    const auto outcome = run("run " + config().string() + " --out " + out.string() + " -q", "run.log");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    return out;
  }
  static fs::path config() { return subscale::testing::source_root() / "configs" / "quickstart.yaml"; }
  static fs::path truth() { return subscale::testing::source_root() / "datasets" / "quickstart.true"; }
};

TEST_F(HostileResults, EvaluateRefusesARunFolderWithoutSummary) {
  const fs::path out = quickstart_run();
  fs::remove(out / "summary.json");  // as a run that is still going, or failed, leaves it
  const auto outcome = run("evaluate --found " + out.string() + " --truth " + truth().string(), "evaluate.log");
  EXPECT_EQ(outcome.exit_code, 3) << outcome.output;
  EXPECT_NE(outcome.output.find("summary.json"), std::string::npos) << outcome.output;
  EXPECT_EQ(outcome.output.find("F1"), std::string::npos) << "an unfinished run was scored:\n" << outcome.output;
}

TEST_F(HostileResults, AHugePointIdDoesNotDecideTheMemory) {
  // A one-line cluster file naming point 4294967295 made evaluate take 21 GB before the kernel
  // killed it; the memory the id asks for is now checked first (exit 4, naming --points).
  const fs::path clusters = write("clusters.txt", "{0, 1}-[1, 2, 4294967295]\n");
  setenv("SUBSCALE_AVAILABLE_MEMORY", "8G", 1);  // the same answer on a machine with 100 GB free
  const auto outcome = run("evaluate --found " + clusters.string() + " --truth " + truth().string(), "evaluate.log");
  unsetenv("SUBSCALE_AVAILABLE_MEMORY");
  EXPECT_EQ(outcome.exit_code, 4) << outcome.output;
  EXPECT_NE(outcome.output.find("--points"), std::string::npos) << outcome.output;
  // With the data's size given, the id is simply out of range.
  const auto given =
      run("evaluate --found " + clusters.string() + " --truth " + truth().string() + " --points 1000", "given.log");
  EXPECT_EQ(given.exit_code, 3) << given.output;
}

TEST_F(HostileResults, ARunFolderIsScoredAgainstItsOwnNumberOfPoints) {
  const fs::path out = quickstart_run();
  const auto outcome = run("evaluate --found " + out.string() + " --truth " + truth().string(), "evaluate.log");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_NE(outcome.output.find("points: 1000\n"), std::string::npos) << outcome.output;
}

TEST_F(HostileResults, ReportRefusesASummaryThatIsNotAnObject) {
  const fs::path out = quickstart_run();
  write("run/summary.json", "[1,2,3]\n");
  const auto outcome = run("report " + out.string(), "report.log");
  EXPECT_EQ(outcome.exit_code, 3) << outcome.output;
  EXPECT_NE(outcome.output.find((out / "summary.json").string()), std::string::npos) << outcome.output;
  write("run/summary.json", "{\"counts\": 7}\n");
  const auto typed = run("report " + out.string(), "typed.log");
  EXPECT_EQ(typed.exit_code, 3) << typed.output;
  EXPECT_NE(typed.output.find("summary.json"), std::string::npos) << typed.output;
}

}  // namespace
