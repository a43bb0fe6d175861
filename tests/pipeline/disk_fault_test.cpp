// Output on a full or read-only file system: the run ends with exit 1 and a message that names the
// file or folder it could not write, and leaves no half-written file and no run folder that looks
// finished (summary.json, written last, is absent; no temporary files stay behind). A file size
// limit (ulimit -f) stands in for a full disk everywhere; a small tmpfs and a read-only tmpfs are
// used where the machine lets the tests mount them (root with the capability), else those skip.
#include <sys/mount.h>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace subscale::testing {
namespace {

class DiskFaultTest : public CliTest {
 protected:
  void TearDown() override {
    if (mounted_) umount2(mount_point_.c_str(), MNT_DETACH);
    CliTest::TearDown();
  }

  // Mounts a tmpfs of `bytes` at folder_/mnt (read-only when asked); false when not allowed.
  bool mount_tmpfs(std::size_t bytes, bool read_only) {
    mount_point_ = (folder_ / "mnt").string();
    std::filesystem::create_directories(mount_point_);
    const std::string options = "size=" + std::to_string(bytes);
    mounted_ = mount("tmpfs", mount_point_.c_str(), "tmpfs", read_only ? MS_RDONLY : 0, options.c_str()) == 0;
    return mounted_;
  }

  std::string config() const { return (source_root() / "configs" / "quickstart.yaml").string(); }

  // What a failed run may leave: no summary.json, no temporary file, nothing named as finished
  // that is not complete (results.h5 only when summary.json is there, which it is not).
  static void expect_no_finished_run(const std::filesystem::path& run) {
    EXPECT_FALSE(std::filesystem::exists(run / "summary.json")) << run;
    EXPECT_FALSE(std::filesystem::exists(run / "results.h5")) << run;
    if (!std::filesystem::exists(run)) return;
    for (const auto& entry : std::filesystem::directory_iterator(run))
      EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();
  }

  std::string mount_point_;
  bool mounted_ = false;
};

TEST_F(DiskFaultTest, FileSizeLimitDuringResultsEndsWithExit1AndNamesTheFile) {
  const std::filesystem::path run_folder = folder_ / "run";
  // 64 KiB: the config and the text outputs fit, results.h5 (about 150 KiB) does not.
  const char* cli = std::getenv("SUBSCALE_CLI");
  const std::string binary = cli ? cli : std::string(SUBSCALE_BINARY_DIR) + "/subscale";
  const std::string command = "bash -c 'ulimit -f 64; exec " + binary + " run " + config() + " -q --out " +
                              run_folder.string() + "' > " + (folder_ / "out.txt").string() + " 2>&1";
  const int status = std::system(command.c_str());
  const std::string output = read_text(folder_ / "out.txt");
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal instead of reporting the write error: " << output;
  EXPECT_EQ(WEXITSTATUS(status), 1) << output;
  EXPECT_NE(output.find((run_folder / "results.h5").string()), std::string::npos) << output;
  expect_no_finished_run(run_folder);
  EXPECT_NE(read_text(run_folder / "log.txt").find("error:"), std::string::npos);
}

// The join, filter and hash commands under a 64 KiB file size limit, with outputs sized so that
// their data fits and only the last flush of the HDF5 file crosses the limit (measured with the
// Debian libhdf5 1.10): the close check reports it with the file's path and exit 1, and neither
// the HDF5 file nor the JSON written after it exists, nor a temporary file.
class CommandCloseFaultTest : public DiskFaultTest {
 protected:
  void expect_close_failure(const std::string& command, const std::string& config_name, const std::string& settings,
                            const std::filesystem::path& output) {
    const char* cli = std::getenv("SUBSCALE_CLI");
    const std::string binary = cli ? cli : std::string(SUBSCALE_BINARY_DIR) + "/subscale";
    const std::string line = "bash -c 'ulimit -f 64; exec " + binary + " " + command + " " +
                             (source_root() / "configs" / config_name).string() + " " + settings +
                             " output.file=" + output.string() + "' > " + (folder_ / "out.txt").string() + " 2>&1";
    const int status = std::system(line.c_str());
    const std::string said = read_text(folder_ / "out.txt");
    ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal: " << said;
    EXPECT_EQ(WEXITSTATUS(status), 1) << said;
    EXPECT_NE(said.find(output.string()), std::string::npos) << said;
    EXPECT_NE(said.find("cannot finish writing the HDF5 file"), std::string::npos) << said;
    EXPECT_FALSE(std::filesystem::exists(output));
    for (const auto& entry : std::filesystem::directory_iterator(output.parent_path()))
      ADD_FAILURE() << "left behind: " << entry.path();
  }
};

TEST_F(CommandCloseFaultTest, HashOutputThatCannotBeFlushedIsAnError) {
  expect_close_failure("hash", "hash_quickstart.yaml", "input.rows=8000 quality.enabled=false hash.backend=cpu",
                       folder_ / "hash" / "hashes.h5");
}

TEST_F(CommandCloseFaultTest, JoinOutputThatCannotBeFlushedIsAnError) {
  expect_close_failure("join", "join_quickstart.yaml", "generate.r_rows=16000 generate.s_rows=16000 join.backend=cpu",
                       folder_ / "join" / "pairs.h5");
}

TEST_F(CommandCloseFaultTest, FilterOutputThatCannotBeFlushedIsAnError) {
  expect_close_failure("filter", "filter_q6.yaml", "generate.scale_factor=0.07 filter.backend=cpu output.table=false",
                       folder_ / "ids" / "selected.h5");
  // The selected rows' table, written into the same file after the ids, fails at its own close.
  expect_close_failure("filter", "filter_q6.yaml", "generate.scale_factor=0.015 filter.backend=cpu output.table=true",
                       folder_ / "table" / "selected.h5");
}

TEST_F(DiskFaultTest, FullFileSystemEndsWithExit1AndLeavesNoFinishedRun) {
  if (!mount_tmpfs(96 << 10, false)) GTEST_SKIP() << "cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)";
  const std::filesystem::path run_folder = std::filesystem::path(mount_point_) / "run";
  const CliOutcome outcome = run("run " + config() + " -q --out " + run_folder.string());
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find(run_folder.string()), std::string::npos) << outcome.output;
  expect_no_finished_run(run_folder);
}

TEST_F(DiskFaultTest, ReadOnlyFileSystemEndsWithExit1AndNamesTheFolder) {
  if (!mount_tmpfs(1 << 20, true)) GTEST_SKIP() << "cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)";
  const std::filesystem::path run_folder = std::filesystem::path(mount_point_) / "run";
  const CliOutcome outcome = run("run " + config() + " -q --out " + run_folder.string());
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find(run_folder.string()), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("Read-only file system"), std::string::npos) << outcome.output;
  EXPECT_FALSE(std::filesystem::exists(run_folder));
  // The folder itself given as the run folder: it exists, and its first file cannot be written.
  const CliOutcome into_root = run("run " + config() + " -q --out " + mount_point_);
  EXPECT_EQ(into_root.exit_code, 1) << into_root.output;
  // Its first file is log.txt, made as soon as the input is accepted.
  EXPECT_NE(into_root.output.find(mount_point_ + "/log.txt"), std::string::npos) << into_root.output;
  expect_no_finished_run(mount_point_);
}

}  // namespace
}  // namespace subscale::testing
