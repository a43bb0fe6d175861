// Run folders as a user meets them on the command line: a folder of the user's files is not
// written into, a rerun replaces a run as a whole or, when it fails, leaves it intact, a folder
// another run holds is refused, default names never collide, summary.json comes last and log.txt
// grows while the run goes, a run folder's own config.yaml repeats the run from anywhere, work
// that cannot finish is warned of, refused sweeps and resumes leave no folder, and an --out folder
// that holds the run's own input is refused before anything changes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;

class RunFolderCli : public subscale::testing::CliTest {
 protected:
  // `subscale ARGUMENTS` started in `folder`, so that relative paths start there.
  subscale::testing::CliOutcome run_in(const fs::path& folder, const std::string& arguments,
                                       const std::string& log_name) {
    const std::string command = "cd '" + folder.string() + "' && " + binary() + " " + arguments + " > '" +
                                (folder_ / log_name).string() + "' 2>&1";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(folder_ / log_name)};
  }
  static fs::path config() { return subscale::testing::source_root() / "configs" / "quickstart.yaml"; }
  static std::string binary() {
    const char* cli = std::getenv("SUBSCALE_CLI");
    return cli ? std::string(cli) : std::string(SUBSCALE_BINARY_DIR) + "/subscale";
  }
  subscale::testing::CliOutcome run_into(const fs::path& out, const std::string& extra, const std::string& log) {
    return run("run " + config().string() + " " + extra + " --out " + out.string() + " -q", log);
  }
  static std::set<std::string> names(const fs::path& folder) {
    std::set<std::string> found;
    for (const auto& entry : fs::directory_iterator(folder)) found.insert(entry.path().filename().string());
    return found;
  }
};

TEST_F(RunFolderCli, AFolderOfTheUsersFilesIsNotWrittenInto) {
  // Regression: --out . replaced the user's config.yaml and an input named results.h5.
  const fs::path mine = folder_ / "mine";
  fs::create_directories(mine);
  fs::copy_file(subscale::testing::source_root() / "datasets" / "quickstart.h5", mine / "results.h5");
  std::ofstream(mine / "config.yaml") << "# the user's own config\n";
  const std::string input = read_text(mine / "results.h5");
  const auto refused = run(
      "run " + config().string() + " input.path=" + (mine / "results.h5").string() + " --out " + mine.string() + " -q",
      "refused.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("--overwrite"), std::string::npos) << refused.output;
  EXPECT_EQ(read_text(mine / "config.yaml"), "# the user's own config\n");
  EXPECT_EQ(read_text(mine / "results.h5"), input);
  EXPECT_EQ(names(mine), (std::set<std::string>{"config.yaml", "results.h5"}));
  // Told to, the run's files join the folder.
  const auto told = run_into(mine, "--overwrite", "told.log");
  EXPECT_EQ(told.exit_code, 0) << told.output;
  EXPECT_TRUE(fs::exists(mine / "summary.json"));
}

TEST_F(RunFolderCli, ARerunReplacesTheEarlierRunAsAWhole) {
  // Regression: the first run's clusters.txt stayed beside the second run's summary (text off).
  const fs::path out = folder_ / "run";
  ASSERT_EQ(run_into(out, "", "first.log").exit_code, 0);
  ASSERT_TRUE(fs::exists(out / "clusters.txt"));
  const auto second = run_into(out, "output.text=false", "second.log");
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_FALSE(fs::exists(out / "clusters.txt")) << "a file of the first run stayed in the second's folder";
  EXPECT_FALSE(fs::exists(out / "subspaces.txt"));
  EXPECT_TRUE(fs::exists(out / "summary.json"));
  EXPECT_EQ(names(folder_).count("run"), 1u);
  for (const auto& name : names(folder_)) EXPECT_EQ(name.find(".partial"), std::string::npos) << name;
}

TEST_F(RunFolderCli, AFailedRerunLeavesTheEarlierRunIntact) {
  // Regression: a rerun on a full disk left the old summary.json and results.h5 beside its own files.
  const fs::path out = folder_ / "run";
  ASSERT_EQ(run_into(out, "", "first.log").exit_code, 0);
  std::map<std::string, std::string> before;
  for (const auto& name : names(out)) before[name] = read_text(out / name);
  // 64 KiB: the text files fit, results.h5 does not (a full disk stands in).
  const std::string command = "bash -c 'ulimit -f 64; exec " + binary() + " run " + config().string() +
                              " epsilon=0.005 -q --out " + out.string() + "' > " + (folder_ / "full.log").string() +
                              " 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1) << read_text(folder_ / "full.log");
  std::map<std::string, std::string> after;
  for (const auto& name : names(out)) after[name] = read_text(out / name);
  EXPECT_TRUE(after == before) << "the failed rerun changed the earlier run's folder";
  for (const auto& name : names(folder_)) EXPECT_EQ(name.find(".partial"), std::string::npos) << name;
}

TEST_F(RunFolderCli, ASecondRunIntoAFolderInUseIsRefused) {
  // Regression: two runs into one --out interleaved their files, both exit 0. A lock held here
  // stands for the first run.
  const fs::path out = folder_ / "run";
  fs::create_directories(out);
  const int fd = ::open(out.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const auto second = run_into(out, "", "second.log");
  ::close(fd);
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_NE(second.output.find("another subscale run"), std::string::npos) << second.output;
  EXPECT_TRUE(fs::is_empty(out));
}

TEST_F(RunFolderCli, RunsStartedTogetherGetTheirOwnFolders) {
  // Regression: three runs of one config started in the same second all wrote one folder.
  std::string command = "cd '" + folder_.string() + "' && (";
  for (int i = 0; i < 3; ++i)
    command += binary() + " run " + config().string() + " -q > run" + std::to_string(i) + ".log 2>&1 & ";
  command += "wait)";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const std::set<std::string> runs = names(folder_ / "runs");
  EXPECT_EQ(runs.size(), 3u) << read_text(folder_ / "run0.log") << read_text(folder_ / "run1.log");
  for (const auto& name : runs) EXPECT_TRUE(fs::exists(folder_ / "runs" / name / "summary.json")) << name;
}

TEST_F(RunFolderCli, LogGrowsWhileTheRunGoesAndSummaryComesLast) {
  // Regression: log.txt appeared only at the end, after summary.json.
  const fs::path out = folder_ / "run";
  const std::string command = binary() + " run " + config().string() + " epsilon=0.006 -q --out " + out.string() +
                              " > " + (folder_ / "run.log").string() + " 2>&1; touch " + (folder_ / "done").string();
  std::thread runner([&] { std::system(command.c_str()); });
  bool seen_during = false;
  while (!fs::exists(folder_ / "done")) {
    for (const auto& entry : fs::directory_iterator(folder_)) {
      const fs::path log = entry.path() / "log.txt";
      if (entry.is_directory() && fs::exists(log) && !fs::exists(entry.path() / "summary.json") &&
          read_text(log).find("load") != std::string::npos)
        seen_during = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  runner.join();
  EXPECT_TRUE(seen_during) << "no log.txt with the first lines while the run went";
  const auto summary_time = fs::last_write_time(out / "summary.json");
  for (const auto& name : names(out))
    EXPECT_LE(fs::last_write_time(out / name), summary_time) << name << " was written after summary.json";
}

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

TEST_F(RunFolderCli, ASweepOverRefusedInputLeavesNoFolder) {
  // Regression: each refused combination left its folder.
  const fs::path out = folder_ / "sweep";
  const auto refused =
      run_into(out, "input.path=" + (folder_ / "missing.h5").string() + " epsilon=[0.004,0.005]", "sweep.log");
  EXPECT_EQ(refused.exit_code, 3) << refused.output;
  EXPECT_FALSE(fs::exists(out)) << "a sweep over refused input left a folder";
}

TEST_F(RunFolderCli, ARefusedResumeIsDecidedBeforeTheDataAndLeavesNoFolder) {
  // Regression: a resume refused for its settings first loaded all the data, then left a folder
  // holding only log.txt. Here the data cannot even be read: the checkpoint's settings decide.
  const fs::path checkpoint = folder_ / "checkpoint";
  ASSERT_EQ(run_into(folder_ / "first", "checkpoint.dir=" + checkpoint.string(), "first.log").exit_code, 0);
  const fs::path out = folder_ / "resumed";
  const auto refused =
      run("run " + config().string() + " epsilon=0.005 input.path=" + (folder_ / "missing.h5").string() + " --resume " +
              checkpoint.string() + " --out " + out.string() + " -q",
          "resume.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("epsilon"), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(out));
  // Other data under the same settings: refused once the data are read, still before the folder.
  std::string csv;
  for (int i = 0; i < 200; ++i) csv += std::to_string(i % 7 / 7.0) + "," + std::to_string(i % 11 / 11.0) + "\n";
  const fs::path other = write("other.csv", csv);
  const auto other_data =
      run("run " + config().string() + " input.path=" + other.string() + " ground_truth.path= --resume " +
              checkpoint.string() + " --out " + out.string() + " -q",
          "other.log");
  EXPECT_EQ(other_data.exit_code, 2) << other_data.output;
  EXPECT_NE(other_data.output.find("input data"), std::string::npos) << other_data.output;
  EXPECT_FALSE(fs::exists(out)) << "a resume refused for its data left a folder";
}

TEST_F(RunFolderCli, WorkThatCannotFinishIsWarnedOfEvenWhenQuiet) {
  // Regression: a constant column passed silently; plan gave no time. (With significance on, a
  // value most points share is kept out of the core's work: no warning then.)
  std::string csv;
  for (int i = 0; i < 300; ++i)
    csv += std::to_string((i * 37) % 101 / 100.0) + "," + std::to_string((i * 53) % 97 / 96.0) + ",0.5\n";
  const fs::path data = write("constant.csv", csv);
  const std::string base =
      "input.path=" + data.string() + " ground_truth.path= epsilon=0.02 min_points=3 significance.enabled=false";
  const auto plan = run("plan " + config().string() + " " + base, "plan.log");
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("single value (2;"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find("estimated time"), std::string::npos) << plan.output;
  const auto quiet = run_into(folder_ / "run", base, "quiet.log");
  EXPECT_EQ(quiet.exit_code, 0) << quiet.output;
  EXPECT_NE(quiet.output.find("single value"), std::string::npos) << "-q hid a warning:\n" << quiet.output;
  const auto kept_out = run("plan " + config().string() + " input.path=" + data.string() +
                                " ground_truth.path= epsilon=0.02 min_points=3 significance.enabled=true",
                            "kept_out.log");
  EXPECT_EQ(kept_out.output.find("single value"), std::string::npos) << kept_out.output;
}

TEST_F(RunFolderCli, AnEarlierRunHoldingTheInputIsRefusedAndKept) {
  // Regression: --out RUN with input.path RUN/results.h5 replaced the earlier run as a whole at
  // the end, the input with it.
  const fs::path out = folder_ / "run";
  ASSERT_EQ(run_into(out, "", "first.log").exit_code, 0);
  fs::copy_file(subscale::testing::source_root() / "datasets" / "quickstart.h5", out / "results.h5",
                fs::copy_options::overwrite_existing);
  std::map<std::string, std::string> before;
  for (const auto& name : names(out)) before[name] = read_text(out / name);
  const auto second = run_into(out, "input.path=" + (out / "results.h5").string(), "second.log");
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_NE(second.output.find("holds input.path"), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("give another --out"), std::string::npos) << second.output;
  std::map<std::string, std::string> after;
  for (const auto& name : names(out)) after[name] = read_text(out / name);
  EXPECT_TRUE(after == before) << "the refused run changed the earlier run's folder";
  for (const auto& name : names(folder_)) EXPECT_EQ(name.find(".partial"), std::string::npos) << name;
}

TEST_F(RunFolderCli, OverwriteIsRefusedWhereTheRunWouldWriteOverItsInput) {
  // With --overwrite the run's files join the user's, replacing namesakes: an input named
  // results.h5 would be replaced by the run's own.
  const fs::path mine = folder_ / "mine";
  fs::create_directories(mine);
  fs::copy_file(subscale::testing::source_root() / "datasets" / "quickstart.h5", mine / "results.h5");
  fs::copy_file(subscale::testing::source_root() / "datasets" / "quickstart.h5", mine / "data.h5");
  const std::string input = read_text(mine / "results.h5");
  const auto refused = run_into(mine, "input.path=" + (mine / "results.h5").string() + " --overwrite", "refused.log");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("its own results.h5 over it"), std::string::npos) << refused.output;
  EXPECT_EQ(read_text(mine / "results.h5"), input);
  EXPECT_EQ(names(mine), (std::set<std::string>{"data.h5", "results.h5"}));
  // An input under a name the run does not write stays beside the run's files.
  const auto beside = run_into(mine, "input.path=" + (mine / "data.h5").string() + " --overwrite", "beside.log");
  EXPECT_EQ(beside.exit_code, 0) << beside.output;
  EXPECT_EQ(read_text(mine / "data.h5"), input);
}

}  // namespace
