// Input paths and how a run reads them, through the command line: what a CSV file's first line
// was taken as is said in log.txt (and input.header decides it), a path override is the file it
// names to the byte, a FIFO or a device is refused by name at once for every input path, and a
// config or override that says more than one thing ends with exit 2 before anything is written.
// Every command runs under `timeout`: the failure these guard against is a run that never ends.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace subscale::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

class InputPathsCli : public CliTest {
 protected:
  // `subscale ARGUMENTS` stopped after 30 s (exit 124), its output kept in out.txt.
  CliOutcome run_guarded(const std::string& arguments) {
    const char* cli = std::getenv("SUBSCALE_CLI");
    const std::string binary = cli ? std::string(cli) : std::string(SUBSCALE_BINARY_DIR) + "/subscale";
    const std::string command =
        "timeout 30 " + binary + " " + arguments + " > '" + (folder_ / "out.txt").string() + "' 2>&1";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(folder_ / "out.txt")};
  }

  // `rows` points in 3 columns, the first column the row's number (so a lost row shows), written
  // after `first_line` when one is given.
  fs::path write_points(const fs::path& path, int rows, const std::string& first_line = "") {
    std::string text = first_line;
    for (int i = 0; i < rows; ++i)
      text += std::to_string(i) + "," + std::to_string((i * 37) % 101 / 100.0) + "," +
              std::to_string((i * 53) % 97 / 96.0) + "\n";
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  fs::path config_for(const fs::path& input, const std::string& extra = "") {
    return write("config.yaml", "input:\n  path: '" + input.string() + "'\nepsilon: 0.05\nmin_points: 3\n" + extra);
  }

  // Runs `config` with `overrides` into folder_/run; the run's summary.json.
  nlohmann::json run_ok(const fs::path& config, const std::string& overrides = "") {
    const CliOutcome outcome =
        run_guarded("run " + config.string() + " " + overrides + " -q --out '" + (folder_ / "run").string() + "'");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    if (outcome.exit_code != 0) return {};
    return nlohmann::json::parse(read_text(folder_ / "run" / "summary.json"));
  }

  // Runs `config` with `overrides`; expects `code`, every text of `says` in the output, no folder.
  void expect_refused(const fs::path& config, const std::string& overrides, int code,
                      const std::vector<std::string>& says) {
    const fs::path out = folder_ / "refused";
    const CliOutcome outcome = run_guarded("run " + config.string() + " " + overrides + " -q --out " + out.string());
    EXPECT_EQ(outcome.exit_code, code) << overrides << ": " << outcome.output;
    for (const auto& text : says) EXPECT_THAT(outcome.output, HasSubstr(text)) << overrides;
    EXPECT_FALSE(fs::exists(out)) << overrides;
  }

  fs::path make_fifo(const std::string& name) {
    const fs::path path = folder_ / name;
    EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0) << path;
    return path;
  }
};

TEST_F(InputPathsCli, HeaderlessCsvWithAByteOrderMarkKeepsEveryPointAndTheLogSaysSo) {
  const fs::path csv = write_points(folder_ / "points.csv", 200, "\xEF\xBB\xBF");
  const auto summary = run_ok(config_for(csv));
  EXPECT_EQ(summary.value("points", 0), 200);
  const std::string log = read_text(folder_ / "run" / "log.txt");
  EXPECT_THAT(log, AllOf(HasSubstr("load        header: none, line 1 is data"), HasSubstr("byte-order mark"),
                         HasSubstr("input.header: true")));
}

TEST_F(InputPathsCli, InputHeaderKeyDecidesAndIsRecorded) {
  const fs::path csv = write_points(folder_ / "points.csv", 200);
  const auto summary = run_ok(config_for(csv), "input.header=true");
  EXPECT_EQ(summary.value("points", 0), 199);
  EXPECT_THAT(read_text(folder_ / "run" / "log.txt"),
              HasSubstr("header: line 1 names the columns (input.header: true)"));
  EXPECT_THAT(read_text(folder_ / "run" / "config.yaml"), HasSubstr("header: true"));
  expect_refused(config_for(csv), "input.header=maybe", 2, {"'input.header'"});
}

TEST_F(InputPathsCli, FirstLineWithAMissingValueIsRefusedNotTakenAsAHeader) {
  const fs::path csv = write_points(folder_ / "points.csv", 200, "5,,0.5\n");
  expect_refused(config_for(csv), "", 3, {"points.csv, line 1, column 2", "the cell is empty"});
}

TEST_F(InputPathsCli, PathOverrideWithANewlineReadsThatFileNotAFoldedName) {
  write_points(folder_ / "new line" / "x.csv", 150);  // what YAML folds "new\nline" into
  const fs::path meant = write_points(folder_ / "new\nline" / "x.csv", 200);
  const auto summary = run_ok(config_for(folder_ / "unused.csv"), "'input.path=" + meant.string() + "'");
  EXPECT_EQ(summary.value("points", 0), 200);
}

TEST_F(InputPathsCli, NonRegularInputFilesAreRefusedAtOnce) {
  const fs::path csv = write_points(folder_ / "points.csv", 50);
  const fs::path fifo_csv = make_fifo("pipe.csv");
  const fs::path fifo_h5 = make_fifo("pipe.h5");
  expect_refused(config_for("/dev/zero"), "input.format=csv", 3, {"/dev/zero: is a character device", "regular file"});
  expect_refused(config_for("/dev/zero"), "", 3, {"/dev/zero: is a character device"});  // format from the bytes
  expect_refused(config_for(fifo_csv), "", 3, {fifo_csv.string() + ": is a FIFO (named pipe)"});
  expect_refused(config_for(fifo_h5), "", 3, {fifo_h5.string() + ": is a FIFO (named pipe)"});
  expect_refused(config_for(csv), "ground_truth.path=/dev/zero", 3, {"/dev/zero: is a character device"});
  expect_refused(config_for(csv), "join.path=" + fifo_h5.string() + " join.key=0", 3,
                 {fifo_h5.string() + ": is a FIFO"});
}

TEST_F(InputPathsCli, NonRegularTablesOfTheOtherCommandsAreRefused) {
  const fs::path fifo = make_fifo("table.h5");
  const fs::path hash = write("hash.yaml", "input: {file: /dev/zero}\noutput: {file: hashes.h5}\n");
  CliOutcome outcome = run_guarded("hash " + hash.string());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.output;
  EXPECT_THAT(outcome.output, HasSubstr("/dev/zero: is a character device"));
  const fs::path filter =
      write("filter.yaml", "table: {file: '" + fifo.string() +
                               "', group: /t}\nwhere: {column: a, between: [0, 1]}\noutput: {file: sel.h5}\n");
  outcome = run_guarded("filter " + filter.string());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.output;
  EXPECT_THAT(outcome.output, HasSubstr(fifo.string() + ": is a FIFO"));
}

TEST_F(InputPathsCli, ConfigThatSaysTwoThingsEndsWithExitTwo) {
  const fs::path csv = write_points(folder_ / "points.csv", 50);
  const fs::path two_documents = write("two.yaml", "input:\n  path: '" + csv.string() + "'\n---\nepsilon: 0.05\n");
  expect_refused(two_documents, "min_points=3", 2, {"two.yaml: line 4", "second YAML document"});
  expect_refused(config_for(csv), "epsilon=[0.004]junk", 2, {"'epsilon'", "after the value's end"});
  expect_refused(config_for(csv), "epsilon=0.1 epsilon=0.2", 2, {"'epsilon' is given twice"});
}

TEST_F(InputPathsCli, MergeMinPointsAboveThePointsIsRefusedLikeMinPoints) {
  const fs::path csv = write_points(folder_ / "points.csv", 50);
  expect_refused(config_for(csv), "merge.min_points=100", 2,
                 {"merge.min_points (100) is larger than the number of points (50)"});
  expect_refused(config_for(csv), "min_points=60", 2, {"min_points (60) is larger than the number of points (50)"});
  // Without merge the value has nothing to refuse.
  EXPECT_EQ(run_ok(config_for(csv), "merge=off merge.min_points=100").value("points", 0), 50);
}

}  // namespace
}  // namespace subscale::testing
