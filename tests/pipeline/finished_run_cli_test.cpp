// A finished run's folder as later commands meet it: `evaluate --json` and `report -o` never write
// over a file of the run or over the run's input, and a sweep's tables say which points are still
// to run, so that a sweep stopped part-way does not look finished; a sweep that would run a point
// twice is refused before it starts.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;

class FinishedRun : public subscale::testing::CliTest {
 protected:
  static fs::path config() { return subscale::testing::source_root() / "configs" / "quickstart.yaml"; }
  static fs::path truth() { return subscale::testing::source_root() / "datasets" / "quickstart.true"; }
  fs::path quickstart_run() {
    const fs::path out = folder_ / "run";
    const auto outcome = run("run " + config().string() + " --out " + out.string() + " -q", "run.log");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    return out;
  }
};

TEST_F(FinishedRun, EvaluateJsonDoesNotReplaceAFileOfTheRun) {
  const fs::path out = quickstart_run();
  for (const char* name : {"summary.json", "results.h5", "clusters.txt", "new.json"}) {
    const std::string before = fs::exists(out / name) ? read_text(out / name) : std::string();
    const auto outcome =
        run("evaluate --found " + out.string() + " --truth " + truth().string() + " --json " + (out / name).string(),
            "evaluate.log");
    EXPECT_EQ(outcome.exit_code, 2) << name << ": " << outcome.output;
    EXPECT_NE(outcome.output.find("--json"), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find(out.string()), std::string::npos) << outcome.output;
    if (before.empty())
      EXPECT_FALSE(fs::exists(out / name)) << name;
    else
      EXPECT_EQ(read_text(out / name), before) << name;
  }
  // Beside the folder it is written, and the folder is still a finished run.
  const auto beside = run("evaluate --found " + out.string() + " --truth " + truth().string() + " --json " +
                              (folder_ / "run-evaluation.json").string(),
                          "beside.log");
  EXPECT_EQ(beside.exit_code, 0) << beside.output;
  EXPECT_TRUE(fs::exists(folder_ / "run-evaluation.json"));
  // --json naming the truth it reads is refused too.
  const fs::path copy = folder_ / "copy.true";
  fs::copy_file(truth(), copy);
  const auto over_truth = run(
      "evaluate --found " + (out / "clusters.txt").string() + " --truth " + copy.string() + " --json " + copy.string(),
      "truth.log");
  EXPECT_EQ(over_truth.exit_code, 2) << over_truth.output;
  EXPECT_EQ(read_text(copy), read_text(truth()));
}

TEST_F(FinishedRun, ReportOutDoesNotReplaceTheRunsFilesOrItsInput) {
  const fs::path out = quickstart_run();
  const std::string results = read_text(out / "results.h5");
  const auto over_results = run("report " + out.string() + " -o " + (out / "results.h5").string(), "results.log");
  EXPECT_EQ(over_results.exit_code, 2) << over_results.output;
  EXPECT_EQ(read_text(out / "results.h5"), results);

  // The run's input, reached through a link: refused, and left as it was.
  const fs::path data = folder_ / "data.h5";
  fs::copy_file(subscale::testing::source_root() / "datasets" / "quickstart.h5", data);
  const fs::path linked = folder_ / "linked.h5";
  fs::create_symlink(data, linked);
  const fs::path own = folder_ / "own";
  ASSERT_EQ(
      run("run " + config().string() + " input.path=" + data.string() + " --out " + own.string() + " -q", "own.log")
          .exit_code,
      0);
  const std::string input = read_text(data);
  const auto over_input = run("report " + own.string() + " -o " + linked.string(), "input.log");
  EXPECT_EQ(over_input.exit_code, 2) << over_input.output;
  EXPECT_NE(over_input.output.find("input.path"), std::string::npos) << over_input.output;
  EXPECT_EQ(read_text(data), input);

  // The report's own file, by default or by -o, is written.
  EXPECT_EQ(run("report " + out.string(), "default.log").exit_code, 0);
  EXPECT_EQ(run("report " + out.string() + " -o " + (out / "report.html").string(), "own_file.log").exit_code, 0);
  EXPECT_EQ(run("report " + out.string() + " -o " + (folder_ / "page.html").string(), "page.log").exit_code, 0);
}

TEST_F(FinishedRun, ASweepWithARepeatedPointIsRefusedBeforeItStarts) {
  const fs::path out = folder_ / "sweep";
  const auto refused =
      run("run " + config().string() + " epsilon=[0.004,0.004] --out " + out.string() + " -q", "sweep.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("twice"), std::string::npos) << refused.output;
  EXPECT_EQ(refused.output.find("File exists"), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(out));
  // One value written two ways is one point.
  const auto spelled =
      run("run " + config().string() + " epsilon=[0.004,4e-3] --out " + out.string() + " -q", "spelled.log");
  EXPECT_EQ(spelled.exit_code, 2) << spelled.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(FinishedRun, ASweepStoppedPartWayIsMarkedUnfinished) {
  // The second point (epsilon 0.04 on the quickstart data) takes seconds; the sweep is killed
  // while its tables say it runs.
  const fs::path out = folder_ / "sweep";
  const char* cli = std::getenv("SUBSCALE_CLI");
  const std::string binary = cli ? std::string(cli) : std::string(SUBSCALE_BINARY_DIR) + "/subscale";
  const std::string command = "exec " + binary + " run " + config().string() + " 'epsilon=[0.004,0.04,0.005]' --out " +
                              out.string() + " -q > " + (folder_ / "sweep.log").string() + " 2>&1";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  bool second_running = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!second_running && std::chrono::steady_clock::now() < deadline) {
    const std::string csv = fs::exists(out / "sweep.csv") ? read_text(out / "sweep.csv") : std::string();
    second_running = csv.find("\n0.04,") != std::string::npos && csv.find(",running\n") != std::string::npos &&
                     csv.find(",ok\n") != std::string::npos;
    if (!second_running) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(second_running) << "the second point was never seen running:\n" << read_text(folder_ / "sweep.log");
  const std::string csv = read_text(out / "sweep.csv");
  EXPECT_NE(csv.find("\n0.004,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",ok\n0.04,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",running\n0.005,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",pending\n"), std::string::npos) << csv;
  const std::string md = read_text(out / "sweep.md");
  EXPECT_NE(md.find("unfinished"), std::string::npos) << md;
  EXPECT_EQ(md.find("The sweep finished"), std::string::npos) << md;
}

TEST_F(FinishedRun, AFinishedSweepSaysSo) {
  const fs::path out = folder_ / "sweep";
  const auto outcome =
      run("run " + config().string() + " epsilon=[0.004,0.005] --out " + out.string() + " -q", "sweep.log");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const std::string csv = read_text(out / "sweep.csv");
  EXPECT_EQ(csv.find("pending"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("running"), std::string::npos) << csv;
  EXPECT_NE(read_text(out / "sweep.md").find("The sweep finished: 2 points, 2 ok, 0 failed."), std::string::npos);
}

}  // namespace
