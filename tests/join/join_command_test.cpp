// `subscale join`: two HDF5 tables in, the pairs or S's rows with R's columns out (HDF5 + JSON),
// and the documented errors for bad configs and inputs.
#include "pipeline/commands/join_command.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "datasets/generators/join_generators.hpp"
#include "gpu/device_info.hpp"
#include "io/hdf5_file.hpp"
#include "tests/filter/hdf5_strings.hpp"
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

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST_F(JoinCommand, AnOutputNamingROrSIsRefusedAndTheTablesKept) {
  const std::string r_before = file_bytes(dir_ / "r.h5"), s_before = file_bytes(dir_ / "s.h5");
  std::filesystem::create_symlink(dir_ / "s.h5", dir_ / "s_link.h5");
  std::ostringstream out;
  const auto expect_refused = [&](const std::string& output, const std::string& setting, const std::string& input) {
    try {
      run_join_command(config(tables_ + "output: " + output + "\n"), out);
      ADD_FAILURE() << "accepted output: " << output;
    } catch (const UsageError& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find(setting), std::string::npos) << message;
      EXPECT_NE(message.find(input), std::string::npos) << message;
      EXPECT_NE(message.find("same file"), std::string::npos) << message;
    }
  };
  expect_refused("{file: r.h5}", "output.file", "r.file");
  expect_refused("{file: s_link.h5, mode: pairs}", "output.file", "s.file");
  expect_refused("{file: joined.h5, json: s.h5}", "output.json", "s.file");
  expect_refused("{file: joined.h5, json: joined.h5}", "output.json", "output.file");
  EXPECT_EQ(file_bytes(dir_ / "r.h5"), r_before);
  EXPECT_EQ(file_bytes(dir_ / "s.h5"), s_before);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "joined.h5"));
}

TEST_F(JoinCommand, KeysOfMixedSignednessCompareByValueNotByBitPattern) {
  {
    io::Hdf5File r((dir_ / "big.h5").string(), io::Hdf5File::Mode::create_truncate);
    r.write("/ids", std::vector<std::uint64_t>{5, std::numeric_limits<std::uint64_t>::max(), std::uint64_t{1} << 63});
    io::Hdf5File s((dir_ / "negative.h5").string(), io::Hdf5File::Mode::create_truncate);
    s.write("/ids", std::vector<std::int64_t>{-1, std::numeric_limits<std::int64_t>::min(), 5});
  }
  std::ostringstream out;
  try {
    run_join_command(config("r: {file: big.h5}\ns: {file: negative.h5}\njoin: {backend: cpu}\n"
                            "output: {mode: pairs, file: pairs.h5}\n"),
                     out);
    ADD_FAILURE() << "2^64 - 1 was joined with -1 (or 2^63 with -2^63)";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("18446744073709551615"), std::string::npos) << message;
    EXPECT_NE(message.find("signed"), std::string::npos) << message;
    EXPECT_NE(message.find("same signedness"), std::string::npos) << message;
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "pairs.h5"));

  // Signed keys on both sides keep their values, in the pairs and in the /ids written.
  {
    io::Hdf5File r((dir_ / "signed_r.h5").string(), io::Hdf5File::Mode::create_truncate);
    r.write("/ids", std::vector<std::int64_t>{-1, 3});
    r.write("/data", std::vector<double>{0.5, 0.25});
  }
  run_join_command(config("r: {file: signed_r.h5}\ns: {file: negative.h5, data: ''}\njoin: {backend: cpu}\n"
                          "output: {file: signed.h5}\n"),
                   out);
  io::Hdf5File file((dir_ / "signed.h5").string(), io::Hdf5File::Mode::read);
  EXPECT_EQ(file.info("/ids").element_class, io::ElementClass::signed_integer);
  EXPECT_EQ(file.read<std::int64_t>("/ids").data, (std::vector<std::int64_t>{-1}));
  EXPECT_EQ(file.read<double>("/data").data, (std::vector<double>{0.5}));
}

TEST_F(JoinCommand, StringKeysAreRefusedAsStrings) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, 2);
  const char keys[] = {'a', 'b', 'c', 'd'};
  filter::testing::write_string_dataset(dir_ / "s.h5", "/name_ids", type, 2, keys);
  H5Tclose(type);
  std::ostringstream out;
  try {
    run_join_command(config(tables_ + "output: {file: x.h5}\n", {"s.key=/name_ids"}), out);
    ADD_FAILURE() << "string keys were accepted";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("strings"), std::string::npos) << message;
    EXPECT_EQ(message.find("floating"), std::string::npos) << message;
  }
}

TEST_F(JoinCommand, AResultTooLargeForMemoryGetsAdviceForItsMode) {
  {
    // 1000 x 1000 rows of one key: 10^6 pairs, 16 MB to hold and sort; attached, 64 MB more.
    io::Hdf5File r((dir_ / "same_r.h5").string(), io::Hdf5File::Mode::create_truncate);
    r.write("/ids", std::vector<std::uint64_t>(1000, 7));
    r.write("/data", std::vector<double>(1000, 1.0));
    io::Hdf5File s((dir_ / "same_s.h5").string(), io::Hdf5File::Mode::create_truncate);
    s.write("/ids", std::vector<std::uint64_t>(1000, 7));
    s.write("/data", std::vector<double>(1000, 2.0));
  }
  const std::string tables = "r: {file: same_r.h5}\ns: {file: same_s.h5}\njoin: {backend: cpu}\n";
  std::ostringstream out;
  const auto message_of = [&](const std::string& yaml) {
    try {
      run_join_command(config(tables + yaml), out);
    } catch (const ResourceError& error) {
      return std::string(error.what());
    }
    ADD_FAILURE() << "joined within the memory: " << yaml;
    return std::string();
  };
  setenv("SUBSCALE_AVAILABLE_MEMORY", "1M", 1);
  const std::string pairs = message_of("output: {mode: pairs, file: p.h5}\n");
  setenv("SUBSCALE_AVAILABLE_MEMORY", "32M", 1);
  const std::string attach = message_of("output: {mode: attach, file: a.h5}\n");
  unsetenv("SUBSCALE_AVAILABLE_MEMORY");
  EXPECT_NE(pairs.find("1000000 pairs"), std::string::npos) << pairs;
  EXPECT_EQ(pairs.find("output.mode=pairs"), std::string::npos) << "pairs mode was advised pairs mode: " << pairs;
  EXPECT_NE(pairs.find("in pieces"), std::string::npos) << pairs;
  EXPECT_NE(attach.find("output.mode=pairs"), std::string::npos) << attach;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "p.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "a.h5"));
}

}  // namespace
}  // namespace subscale::pipeline
