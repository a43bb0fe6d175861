// `subscale filter`: a table in HDF5 (or generated) in, the selected row ids, the aggregate and
// optionally the selected rows out (HDF5 + JSON), and nothing written on a config or input error.
#include "pipeline/commands/filter_command.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "io/hdf5_file.hpp"
#include "stages/filter/table_hdf5.hpp"
#include "tests/filter/filter_test_util.hpp"

namespace subscale::pipeline {
namespace {

class FilterCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("subscale-filter-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    filter::ColumnTable table;
    table.columns.push_back(
        {"day", filter::ColumnType::date, 0,
         std::vector<std::int32_t>{filter::days_from_civil(1994, 1, 1), filter::days_from_civil(1993, 12, 31),
                                   filter::days_from_civil(1994, 12, 31)}});
    table.columns.push_back({"price", filter::ColumnType::decimal, 2, std::vector<std::int64_t>{1050, 2000, 333}});
    table.columns.push_back(filter::testing::string_column("name", {"alpha", "beta", "alpine"}));
    filter::write_column_table(dir_ / "t.h5", "/t", table, true);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Config config(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
    return Config::from_text(yaml, overrides, filter_command_schema(), dir_, "test.yaml");
  }
  nlohmann::json json(const std::string& name) {
    std::ifstream in(dir_ / name);
    return nlohmann::json::parse(in);
  }

  std::filesystem::path dir_;
  const std::string table_ = "table: {file: t.h5, group: /t}\nfilter: {backend: cpu}\n";
};

TEST_F(FilterCommand, WritesIdsAggregateAndTheSelectedRows) {
  std::ostringstream out;
  const auto result =
      run_filter_command(config(table_ + "where:\n  and:\n    - {column: day, between: [1994-01-01, 1994-12-31]}\n"
                                         "    - {column: name, regex: '^al'}\n"
                                         "aggregate: {function: sum, expression: price * 2 + 0.001}\n"
                                         "output: {file: out/sel.h5, table: true}\n"),
                         out);
  EXPECT_EQ(result.rows, 3u);
  EXPECT_EQ(result.selected, 2u);
  io::Hdf5File file((dir_ / "out/sel.h5").string(), io::Hdf5File::Mode::read);
  EXPECT_EQ(file.read<std::uint64_t>("/ids").data, (std::vector<std::uint64_t>{0, 2}));
  EXPECT_EQ(file.read_string_attribute("/aggregate", "value"), "27.662");  // 21.001 + 6.661
  const auto j = json("out/sel.json");
  EXPECT_EQ(j["aggregate"]["value"], "27.662");
  EXPECT_EQ(j["aggregate"]["scaled"], 27662);
  EXPECT_EQ(j["selected"], 2);
  const auto rows = filter::read_column_table({dir_ / "out/sel.h5", "/table"});
  EXPECT_EQ(rows.names(), (std::vector<std::string>{"day", "price", "name"}));
  EXPECT_EQ(std::get<std::vector<std::int64_t>>(rows.find("price")->values), (std::vector<std::int64_t>{1050, 333}));
  EXPECT_NE(out.str().find("sum(price * 2 + 0.001) = 27.662"), std::string::npos) << out.str();
}

TEST_F(FilterCommand, Q6OnAGeneratedTable) {
  std::ostringstream out;
  run_filter_command(config("generate: {table: lineitem, scale_factor: 0.001, save: gen.h5}\n"
                            "where: [{column: l_shipdate, ge: 1994-01-01, lt: 1995-01-01},"
                            " {column: l_discount, between: [0.05, 0.07]}, {column: l_quantity, lt: 24}]\n"
                            "aggregate: {function: sum, expression: l_extendedprice * l_discount}\n"
                            "filter: {backend: cpu}\noutput: {file: q6.h5}\n"),
                     out);
  // The saved table filtered again from the file gives the same answer.
  run_filter_command(config("table: {file: gen.h5}\n"
                            "where: [{column: l_shipdate, ge: 1994-01-01, lt: 1995-01-01},"
                            " {column: l_discount, between: [0.05, 0.07]}, {column: l_quantity, lt: 24}]\n"
                            "aggregate: {function: sum, expression: l_extendedprice * l_discount}\n"
                            "filter: {backend: cpu}\noutput: {file: again.h5}\n"),
                     out);
  EXPECT_EQ(json("q6.json")["aggregate"], json("again.json")["aggregate"]);
  EXPECT_EQ(json("q6.json")["rows"], 6001);
}

void expect_nothing_written(const std::filesystem::path& dir) {
  EXPECT_FALSE(std::filesystem::exists(dir / "out.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_TRUE(entry.path().filename() == "t.h5" || entry.path().filename() == "bad.h5") << entry.path();
}

TEST_F(FilterCommand, ConfigErrorsNameTheProblemAndWriteNothing) {
  std::ostringstream out;
  const auto expect_usage = [&](const std::string& yaml, const std::string& expected) {
    try {
      run_filter_command(config(table_ + yaml + "output: {file: out.h5}\n"), out);
      ADD_FAILURE() << "accepted " << yaml;
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    }
    expect_nothing_written(dir_);
  };
  expect_usage("where: {column: nope, lt: 1}\n", "column 'nope' is not in");
  expect_usage("where: {column: name, lt: 1}\n", "compares a string column with a number");
  expect_usage("where: {column: name, regex: 'a(b'}\n", "regex 'a(b'");
  expect_usage("aggregate: {function: sum}\n", "needs aggregate.expression");
  expect_usage("aggregate: {function: max, expression: name}\n", "holds strings");
  EXPECT_THROW(config(table_ + "where2: {column: day, lt: 1}\noutput: {file: out.h5}\n"), UsageError);
}

TEST_F(FilterCommand, BadInputIsAnInputErrorAndWritesNothing) {
  {
    io::Hdf5File file((dir_ / "bad.h5").string(), io::Hdf5File::Mode::create_truncate);
    file.write("/s/offsets", std::vector<std::int64_t>{0, 4, 3});
    file.write("/s/bytes", std::vector<std::uint8_t>{'a', 'b', 'c', 'd'});
  }
  std::ostringstream out;
  EXPECT_THROW(
      run_filter_command(config("table: {file: bad.h5}\nwhere: {column: s, equals: a}\noutput: {file: out.h5}\n"), out),
      InputError);
  expect_nothing_written(dir_);
}

// Reading the bytes of a file, to see that a refused command left it as it was.
std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST_F(FilterCommand, AnOutputNamingTheInputTableIsRefusedAndTheTableKept) {
  const std::string before = file_bytes(dir_ / "t.h5");
  std::filesystem::create_symlink(dir_ / "t.h5", dir_ / "link.h5");
  std::ostringstream out;
  const auto expect_refused = [&](const std::string& output, const std::string& named) {
    try {
      run_filter_command(config(table_ + "where: {column: name, prefix: al}\noutput: " + output + "\n"), out);
      ADD_FAILURE() << "accepted output: " << output;
    } catch (const UsageError& error) {
      EXPECT_EQ(error.code(), ExitCode::usage);
      const std::string message = error.what();
      EXPECT_NE(message.find(named), std::string::npos) << message;
      EXPECT_NE(message.find("table.file"), std::string::npos) << message;
      EXPECT_NE(message.find("same file"), std::string::npos) << message;
    }
    EXPECT_EQ(file_bytes(dir_ / "t.h5"), before) << "output: " << output;
  };
  expect_refused("{file: t.h5}", "output.file");
  expect_refused("{file: ./sub/../t.h5}", "output.file");
  expect_refused("{file: link.h5}", "output.file");
  expect_refused("{file: sel.h5, json: t.h5}", "output.json");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "sel.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "sel.json"));
}

TEST_F(FilterCommand, TwoOutputsNamingOneFileAreRefused) {
  std::ostringstream out;
  try {
    run_filter_command(config(table_ + "output: {file: sel.h5, json: ./sel.h5}\n"), out);
    ADD_FAILURE() << "accepted output.json equal to output.file";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("output.json"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("output.file"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "sel.h5"));
}

TEST_F(FilterCommand, AnOutputInsideAFinishedRunsFolderIsRefused) {
  std::filesystem::create_directories(dir_ / "run");
  std::ofstream(dir_ / "run" / "summary.json") << "{\"counts\": {}}\n";
  std::ofstream(dir_ / "run" / "results.h5") << "the run's results";
  std::ostringstream out;
  try {
    run_filter_command(config(table_ + "output: {file: run/results.h5}\n"), out);
    ADD_FAILURE() << "wrote into a finished run's folder";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("folder of a run"), std::string::npos) << error.what();
  }
  EXPECT_EQ(file_bytes(dir_ / "run" / "results.h5"), "the run's results");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "run" / "results.json"));
}

}  // namespace
}  // namespace subscale::pipeline
