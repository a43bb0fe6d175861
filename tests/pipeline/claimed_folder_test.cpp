// The run folder's life (pipeline/output/claimed_folder.hpp): claimed and locked, written beside, swapped in
// whole; refused when another run holds it or when it holds files no run wrote.
#include "pipeline/output/claimed_folder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "common/error.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"

namespace subscale::pipeline {
namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;
using ::testing::HasSubstr;

class ClaimedFolderTest : public subscale::testing::CliTest {
 protected:
  std::set<std::string> names(const fs::path& folder) const {
    std::set<std::string> found;
    for (const auto& entry : fs::directory_iterator(folder)) found.insert(entry.path().filename().string());
    return found;
  }
  void write_run(const fs::path& folder, const std::string& marker) const {
    std::ofstream(folder / "log.txt") << marker;
    std::ofstream(folder / "summary.json") << "{\"counts\": {}, \"marker\": \"" << marker << "\"}";
    std::ofstream(folder / "clusters.txt") << marker;
  }
};

TEST_F(ClaimedFolderTest, ANewFolderIsWrittenInPlace) {
  const fs::path out = folder_ / "run";
  {
    ClaimedFolder run = ClaimedFolder::claim(out, false);
    EXPECT_TRUE(fs::is_directory(out));
    run.begin();
    EXPECT_EQ(run.work_path(), out);
    write_run(run.work_path(), "new");
    run.finish();
  }
  EXPECT_EQ(names(out), (std::set<std::string>{"log.txt", "summary.json", "clusters.txt"}));
  EXPECT_EQ(names(folder_), (std::set<std::string>{"run"})) << "the work folder was left behind";
}

TEST_F(ClaimedFolderTest, ARerunReplacesTheEarlierRunAsAWhole) {
  // Regression: the second run's files were mixed with the first's.
  const fs::path out = folder_ / "run";
  fs::create_directories(out);
  write_run(out, "old");
  std::ofstream(out / "clusters_raw.txt") << "old";
  {
    ClaimedFolder run = ClaimedFolder::claim(out, false);
    run.begin();
    EXPECT_EQ(run.work_path().parent_path(), folder_);
    std::ofstream(run.work_path() / "summary.json") << "{\"counts\": {}}";
    EXPECT_EQ(read_text(out / "log.txt"), "old") << "the earlier run changed before the new one finished";
    run.finish();
  }
  EXPECT_EQ(names(out), (std::set<std::string>{"summary.json"}));
  EXPECT_EQ(names(folder_), (std::set<std::string>{"run"})) << "the work folder was left behind";
}

TEST_F(ClaimedFolderTest, AWorkFolderOfAKilledRerunIsRemovedByTheNextRun) {
  // A rerun killed with SIGKILL left .run.partial-PID behind, and nothing removed it.
  const fs::path out = folder_ / "run";
  fs::create_directories(out);
  write_run(out, "old");
  for (const char* stale : {".run.partial-4242", ".run.partial-4242-1", ".run.partial-77.old"}) {
    fs::create_directories(folder_ / stale);
    std::ofstream(folder_ / stale / "log.txt") << "killed";
  }
  fs::create_directories(folder_ / ".run.partial-notes");   // not a work folder's name: kept
  fs::create_directories(folder_ / ".other.partial-4242");  // another folder's: kept
  {
    ClaimedFolder run = ClaimedFolder::claim(out, false);
    run.begin();
    std::ofstream(run.work_path() / "summary.json") << "{\"counts\": {}}";
    run.finish();
  }
  EXPECT_EQ(names(folder_), (std::set<std::string>{"run", ".run.partial-notes", ".other.partial-4242"}));
}

TEST_F(ClaimedFolderTest, AFailedRerunLeavesTheEarlierRunIntact) {
  // Regression: a rerun that failed (a full disk) left its files beside the old summary.
  const fs::path out = folder_ / "run";
  fs::create_directories(out);
  write_run(out, "old");
  {
    ClaimedFolder run = ClaimedFolder::claim(out, false);
    run.begin();
    std::ofstream(run.work_path() / "config.yaml") << "new";
    std::ofstream(run.work_path() / "log.txt") << "new, then an error";
  }
  EXPECT_EQ(names(out), (std::set<std::string>{"log.txt", "summary.json", "clusters.txt"}));
  EXPECT_EQ(read_text(out / "log.txt"), "old");
  EXPECT_EQ(names(folder_), (std::set<std::string>{"run"}));
}

TEST_F(ClaimedFolderTest, AFailedFirstRunLeavesItsLogAndNoSummary) {
  const fs::path out = folder_ / "run";
  {
    ClaimedFolder run = ClaimedFolder::claim(out, false);
    run.begin();
    std::ofstream(run.work_path() / "log.txt") << "error: disk full";
  }
  EXPECT_EQ(names(out), (std::set<std::string>{"log.txt"}));
  EXPECT_EQ(names(folder_), (std::set<std::string>{"run"}));
}

TEST_F(ClaimedFolderTest, InputRefusedBeforeTheRunBeganLeavesNoFolder) {
  { ClaimedFolder run = ClaimedFolder::claim(folder_ / "run", false); }
  EXPECT_FALSE(fs::exists(folder_ / "run"));
  // A folder the user made stays, empty.
  fs::create_directories(folder_ / "mine");
  { ClaimedFolder run = ClaimedFolder::claim(folder_ / "mine", false); }
  EXPECT_TRUE(fs::is_directory(folder_ / "mine"));
}

TEST_F(ClaimedFolderTest, AFolderOfOtherFilesIsRefusedUnlessOverwrite) {
  // Regression: --out . replaced the user's config.yaml and an input named results.h5.
  const fs::path out = folder_ / "mine";
  fs::create_directories(out);
  std::ofstream(out / "config.yaml") << "the user's config";
  std::ofstream(out / "results.h5") << "the user's input";
  std::ofstream(out / "notes.txt") << "the user's notes";
  try {
    ClaimedFolder::claim(out, false);
    FAIL() << "a folder of the user's files was claimed";
  } catch (const UsageError& error) {
    EXPECT_THAT(std::string(error.what()), HasSubstr("--overwrite"));
  }
  EXPECT_EQ(read_text(out / "config.yaml"), "the user's config");
  {
    ClaimedFolder run = ClaimedFolder::claim(out, true);
    run.begin();
    std::ofstream(run.work_path() / "config.yaml") << "the run's config";
    run.finish();
  }
  EXPECT_EQ(read_text(out / "config.yaml"), "the run's config");
  EXPECT_EQ(read_text(out / "notes.txt"), "the user's notes") << "--overwrite removed a file the run did not write";
}

TEST_F(ClaimedFolderTest, ASecondRunIntoTheSameFolderIsRefusedWhileTheFirstHoldsIt) {
  // Regression: two runs into one --out interleaved their files.
  const fs::path out = folder_ / "run";
  ClaimedFolder first = ClaimedFolder::claim(out, false);
  // The lock is per open file; a child process stands for the second run.
  const pid_t child = ::fork();
  if (child == 0) {
    try {
      ClaimedFolder second = ClaimedFolder::claim(out, false);
      ::_exit(0);
    } catch (const UsageError& error) {
      ::_exit(std::string(error.what()).find("another subscale run") != std::string::npos ? 2 : 3);
    } catch (...) {
      ::_exit(4);
    }
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2) << "the second run was not refused with its reason";
}

TEST_F(ClaimedFolderTest, DefaultNamesAreUniqueAndSortByTime) {
  // Regression: three runs started in the same second wrote one folder.
  std::vector<ClaimedFolder> runs;
  for (int i = 0; i < 3; ++i) runs.push_back(ClaimedFolder::claim_new(folder_ / "runs", "quickstart"));
  std::set<fs::path> paths;
  for (const ClaimedFolder& run : runs) paths.insert(run.path());
  EXPECT_EQ(paths.size(), 3u);
  for (const ClaimedFolder& run : runs)
    EXPECT_THAT(run.path().filename().string(), ::testing::StartsWith("quickstart-"));
  EXPECT_LT(runs[0].path().filename().string(), runs[1].path().filename().string());
}

TEST_F(ClaimedFolderTest, AnEarlierRunIsRecognised) {
  fs::create_directories(folder_ / "run" / "epsilon=0.1");
  write_run(folder_ / "run" / "epsilon=0.1", "x");
  std::ofstream(folder_ / "run" / "sweep.csv") << "x";
  EXPECT_TRUE(is_run_folder(folder_ / "run"));
  std::ofstream(folder_ / "run" / "data.csv") << "x";
  EXPECT_FALSE(is_run_folder(folder_ / "run"));
}

}  // namespace
}  // namespace subscale::pipeline
