// `subscale hash`: reads an HDF5 table, writes the hashes (HDF5) and the figures (JSON), and
// refuses bad configs and inputs with the documented errors.
#include "pipeline/commands/hash_command.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "io/hdf5_file.hpp"

namespace subscale::pipeline {
namespace {

class HashCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("subscale-hash-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Config config(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
    return Config::from_text(yaml, overrides, hash_command_schema(), dir_, "test.yaml");
  }

  std::filesystem::path dir_;
};

TEST_F(HashCommand, HashesAnHdf5TableAndWritesHashesAndJson) {
  // 300 rows x 2 uint32 columns.
  std::vector<std::uint32_t> words(600);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = static_cast<std::uint32_t>(i * 2654435761u);
  {
    io::Hdf5File file((dir_ / "table.h5").string(), io::Hdf5File::Mode::create_truncate);
    file.write("/data", {300, 2}, words.data());
  }
  std::ostringstream out;
  const auto result = run_hash_command(
      config("input: {file: table.h5}\nhash: {function: xor_hw, bits: 32, backend: cpu}\noutput: {file: out/h.h5}\n"),
      out);
  EXPECT_EQ(result.hashes_file, dir_ / "out/h.h5");
  io::Hdf5File file(result.hashes_file.string(), io::Hdf5File::Mode::read);
  const auto hashes = file.read<std::uint32_t>("/hashes");
  ASSERT_EQ(hashes.data.size(), 300u);
  for (std::size_t r = 0; r < 300; ++r)
    EXPECT_EQ(hashes.data[r], (hash::hash_words<hash::HashFunction::xor_hw, std::uint32_t>(&words[2 * r], 2)));
  EXPECT_EQ(file.read_string_attribute("/hashes", "function"), "xor_hw");

  std::ifstream json_file(dir_ / "out/h.json");
  const auto json = nlohmann::json::parse(json_file);
  EXPECT_EQ(json["hash"]["function"], "xor_hw");
  EXPECT_EQ(json["hash"]["bits"], 32);
  EXPECT_EQ(json["input"]["rows"], 300);
  EXPECT_EQ(json["quality"]["collisions"]["rows"], 300);
  EXPECT_NE(out.str().find("avalanche mean"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("overall:"), std::string::npos) << out.str();
}

TEST_F(HashCommand, Float64ColumnsAreTwoWordsEachAndNRoundsAreReported) {
  std::vector<double> values = {0.5, -1.25, 3.0, 1e300, 0.0, 2.5};  // 3 rows x 2 columns
  {
    io::Hdf5File file((dir_ / "f.h5").string(), io::Hdf5File::Mode::create_truncate);
    file.write("/points", {3, 2}, values.data());
  }
  std::ostringstream out;
  run_hash_command(config("input: {file: f.h5, dataset: /points}\noutput: {file: f-hash.h5}\n",
                          {"hash.function=n_mult_xor", "hash.rounds=3", "hash.backend=cpu"}),
                   out);
  io::Hdf5File file((dir_ / "f-hash.h5").string(), io::Hdf5File::Mode::read);
  const auto hashes = file.read<std::uint64_t>("/hashes");
  ASSERT_EQ(hashes.data.size(), 3u);
  std::uint32_t row[4];
  std::memcpy(row, &values[2], 16);
  EXPECT_EQ(hashes.data[1], (hash::hash_words<hash::HashFunction::mult_xor, std::uint64_t>(row, 4, 3)));
  std::ifstream json_file(dir_ / "f-hash.json");
  const auto json = nlohmann::json::parse(json_file);
  EXPECT_EQ(json["hash"]["function"], "n_mult_xor");
  EXPECT_EQ(json["hash"]["rounds"], 3);
  EXPECT_EQ(json["input"]["row_words"], 4);
}

TEST_F(HashCommand, GeneratedInputWithoutQuality) {
  std::ostringstream out;
  const auto result = run_hash_command(config("input: {generate: normal, rows: 1000, row_words: 3}\n"
                                              "quality: {enabled: false}\n"
                                              "hash: {backend: cpu}\n"
                                              "output: {file: g.h5, json: g-summary.json}\n"),
                                       out);
  EXPECT_TRUE(std::filesystem::exists(dir_ / "g.h5"));
  EXPECT_TRUE(std::filesystem::exists(dir_ / "g-summary.json"));
  EXPECT_TRUE(result.quality_pass);
  EXPECT_EQ(out.str().find("avalanche"), std::string::npos);
}

TEST_F(HashCommand, BadConfigsAndInputsAreRefusedAndLeaveNoOutput) {
  std::ostringstream out;
  const std::string output = "output: {file: bad.h5}\n";
  // Unknown function: the config layer names the key and suggests a name.
  try {
    run_hash_command(config("input: {generate: normal}\nhash: {function: xor_hv}\n" + output), out);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("xor_hw"), std::string::npos) << e.what();
  }
  EXPECT_THROW(run_hash_command(config("input: {generate: normal}\nhash: {bits: 48}\n" + output), out), UsageError);
  EXPECT_THROW(run_hash_command(config("hash: {backend: cpu}\n" + output), out), UsageError);  // no input
  EXPECT_THROW(run_hash_command(config("input: {generate: normal}\nquality: {radix_bits: \"8,x\"}\n" + output), out),
               UsageError);
  EXPECT_THROW(config("input: {generate: normal}\n"), UsageError);  // output.file is required
  // A missing dataset and a 3-D dataset are input errors.
  {
    io::Hdf5File file((dir_ / "t.h5").string(), io::Hdf5File::Mode::create_truncate);
    const std::vector<std::uint32_t> cube(8, 1);
    file.write("/cube", {2, 2, 2}, cube.data());
  }
  EXPECT_THROW(run_hash_command(config("input: {file: t.h5}\nhash: {backend: cpu}\n" + output), out), InputError);
  EXPECT_THROW(run_hash_command(config("input: {file: t.h5, dataset: /cube}\nhash: {backend: cpu}\n" + output), out),
               InputError);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "bad.h5"));
}

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST_F(HashCommand, AnOutputNamingTheInputOrAnotherOutputIsRefused) {
  {
    io::Hdf5File file((dir_ / "table.h5").string(), io::Hdf5File::Mode::create_truncate);
    file.write("/data", std::vector<std::uint32_t>{1, 2, 3, 4});
  }
  const std::string before = file_bytes(dir_ / "table.h5");
  std::filesystem::create_hard_link(dir_ / "table.h5", dir_ / "hard.h5");
  const std::string input = "input: {file: table.h5}\nhash: {function: fmix64, backend: cpu}\n";
  std::ostringstream out;
  const auto expect_refused = [&](const std::string& output, const std::string& first, const std::string& second) {
    try {
      run_hash_command(config(input + "output: " + output + "\n"), out);
      ADD_FAILURE() << "accepted output: " << output;
    } catch (const UsageError& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find(first), std::string::npos) << message;
      EXPECT_NE(message.find(second), std::string::npos) << message;
      EXPECT_NE(message.find("same file"), std::string::npos) << message;
    }
    EXPECT_EQ(file_bytes(dir_ / "table.h5"), before) << "output: " << output;
  };
  expect_refused("{file: table.h5}", "output.file", "input.file");
  expect_refused("{file: hard.h5}", "output.file", "input.file");
  expect_refused("{file: h.h5, json: table.h5}", "output.json", "input.file");
  // Both outputs in one file: the HDF5 file would be renamed over the JSON, and only one remain.
  expect_refused("{file: h.h5, json: h.h5}", "output.json", "output.file");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "h.h5"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "h.json"));
}

}  // namespace
}  // namespace subscale::pipeline
