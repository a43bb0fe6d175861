// `subscale join`: two HDF5 tables in, the pairs or S's rows with R's columns out (HDF5 + JSON),
// and the documented errors for bad configs and inputs.
#include "pipeline/commands/join_command.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "datasets/generators/join_generators.hpp"
#include "gpu/device_info.hpp"
#include "io/hdf5_file.hpp"
#include "tests/join/sort_merge_join.hpp"

namespace subscale::pipeline {
namespace {

class JoinCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("subscale-join-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    // R: ids 10, 20, 30, 40 with two columns; S: ids 30, 99, 10, 30 with one column and labels.
    {
      io::Hdf5File r((dir_ / "r.h5").string(), io::Hdf5File::Mode::create_truncate);
      r.write("/ids", std::vector<std::uint64_t>{10, 20, 30, 40});
      const std::vector<double> data{1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5};
      r.write("/data", {4, 2}, data.data());
    }
    {
      io::Hdf5File s((dir_ / "s.h5").string(), io::Hdf5File::Mode::create_truncate);
      s.write("/ids", std::vector<std::int64_t>{30, 99, 10, 30});
      s.write("/data", std::vector<double>{0.3, 0.99, 0.1, 0.33});
      s.write("/labels", std::vector<std::int64_t>{1, 2, 3, 4});
      s.write("/float_ids", std::vector<double>{30, 99, 10, 30});
    }
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Config config(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
    return Config::from_text(yaml, overrides, join_command_schema(), dir_, "test.yaml");
  }

  std::filesystem::path dir_;
  const std::string tables_ = "r: {file: r.h5}\ns: {file: s.h5}\njoin: {backend: cpu}\n";
};

TEST_F(JoinCommand, AttachesRColumnsToSRows) {
  std::ostringstream out;
  const auto result = run_join_command(config(tables_ + "output: {file: out/joined.h5}\n"), out);
  EXPECT_EQ(result.rows, 3U);
  io::Hdf5File file((dir_ / "out/joined.h5").string(), io::Hdf5File::Mode::read);
  const auto data = file.read<double>("/data");
  ASSERT_EQ(data.shape, (std::vector<std::uint64_t>{3, 3}));
  // S rows 0 (id 30), 2 (id 10), 3 (id 30), in S order; columns s0, r0, r1.
  EXPECT_EQ(data.data, (std::vector<double>{0.3, 3, 3.5, 0.1, 1, 1.5, 0.33, 3, 3.5}));
  EXPECT_EQ(file.read<std::uint64_t>("/ids").data, (std::vector<std::uint64_t>{30, 10, 30}));
  EXPECT_EQ(file.read<std::int64_t>("/labels").data, (std::vector<std::int64_t>{1, 3, 4}));
  EXPECT_EQ(file.read<std::uint32_t>("/s_row").data, (std::vector<std::uint32_t>{0, 2, 3}));
  EXPECT_EQ(file.read<std::uint32_t>("/r_row").data, (std::vector<std::uint32_t>{2, 0, 2}));
  EXPECT_EQ(file.read_string_attribute("/data", "column_names"), "s0,r0,r1");
  std::ifstream json_file(dir_ / "out/joined.json");
  const auto json = nlohmann::json::parse(json_file);
  EXPECT_EQ(json["pairs"], 3);
  EXPECT_EQ(json["backend"], "cpu");
  EXPECT_NE(out.str().find("pairs: 3"), std::string::npos) << out.str();
}

TEST_F(JoinCommand, PairsOfGeneratedKeysEqualSortMerge) {
  std::ostringstream out;
  const auto result = run_join_command(
      config("generate: {distribution: zipf, r_rows: 3000, s_rows: 5000, alpha: 1.0, unique_r: false, seed: 3}\n"
             "join: {backend: cpu, radix_bits: 3, passes: 2}\noutput: {mode: pairs, file: pairs.h5}\n"),
      out);
  const auto input = join::generate_zipf({.r_rows = 3000, .s_rows = 5000, .alpha = 1.0, .zipf_r = true, .seed = 3});
  io::Hdf5File file((dir_ / "pairs.h5").string(), io::Hdf5File::Mode::read);
  join::JoinPairs pairs;
  pairs.r_rows = file.read<std::uint32_t>("/r_row").data;
  pairs.s_rows = file.read<std::uint32_t>("/s_row").data;
  EXPECT_EQ(result.rows, pairs.size());
  EXPECT_EQ(join::testing::as_sorted_multiset(pairs), join::testing::sort_merge_join(input.r_keys, input.s_keys));
  EXPECT_FALSE(file.exists("/data"));
}

TEST_F(JoinCommand, NoMatchesWritesEmptyResult) {
  std::ostringstream out;
  const auto result = run_join_command(
      config("generate: {distribution: uniform, r_rows: 100, s_rows: 100, overlap: 0}\njoin: {backend: cpu}\n"
             "output: {mode: pairs, file: none.h5}\n"),
      out);
  EXPECT_EQ(result.rows, 0U);
  io::Hdf5File file((dir_ / "none.h5").string(), io::Hdf5File::Mode::read);
  EXPECT_TRUE(file.read<std::uint32_t>("/r_row").data.empty());
}

TEST_F(JoinCommand, BadConfigsAndInputsAreRefusedAndWriteNothing) {
  std::ostringstream out;
  EXPECT_THROW(run_join_command(config("output: {file: x.h5}\n"), out), UsageError);  // no input
  EXPECT_THROW(run_join_command(config("generate: {distribution: uniform}\noutput: {file: x.h5}\n"), out),
               UsageError);  // generated keys have no columns to attach
  EXPECT_THROW(run_join_command(config(tables_ + "output: {file: x.h5}\n", {"s.key=/missing"}), out), InputError);
  EXPECT_THROW(run_join_command(config(tables_ + "output: {file: x.h5}\n", {"s.key=/float_ids"}), out), InputError);
  EXPECT_THROW(run_join_command(config(tables_ + "output: {file: x.h5}\n", {"s.data=/labels", "s.key=/data"}), out),
               InputError);
  EXPECT_THROW(config(tables_ + "output: {file: x.h5}\n", {"join.radix_bits=12"}), UsageError);
  EXPECT_THROW(run_join_command(config(tables_ + "output: {file: x.h5}\n", {"join.memory_budget=1KiB"}), out),
               ResourceError);
  if (!gpu::query_device().available) {
    EXPECT_THROW(run_join_command(config(tables_ + "output: {file: x.h5}\n", {"join.backend=cuda"}), out),
                 ResourceError);
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "x.h5"));
}

}  // namespace
}  // namespace subscale::pipeline
