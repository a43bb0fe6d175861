#pragma once
// What the tests that start the `subscale` binary share: a fresh temporary folder per test,
// files written into it, and the binary run with its output captured there.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/source_root.hpp"

namespace subscale::testing {

struct CliOutcome {
  int exit_code;
  std::string output;  // stdout and stderr together
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    folder_ = std::filesystem::temp_directory_path() / ("subscale-" + std::string(test->test_suite_name()) + "-" +
                                                        test->name() + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  std::filesystem::path write(const std::string& name, const std::string& text) {
    std::ofstream(folder_ / name) << text;
    return folder_ / name;
  }

  // Runs `subscale ARGUMENTS`, its output kept in `log_name` inside the folder. SUBSCALE_CLI
  // names the binary where the build folder has moved (the GPU bundle).
  CliOutcome run(const std::string& arguments, const std::string& log_name = "out.txt") {
    const char* cli = std::getenv("SUBSCALE_CLI");
    const std::string command = (cli ? std::string(cli) : std::string(SUBSCALE_BINARY_DIR) + "/subscale") + " " +
                                arguments + " > " + (folder_ / log_name).string() + " 2>&1";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(folder_ / log_name)};
  }

  // Runs `subscale-generate ARGUMENTS -o folder/STEM` (the generator beside the binary under test,
  // which the GPU bundle moves with it); false when it fails.
  bool generate(const std::string& arguments, const std::string& stem) {
    const char* cli = std::getenv("SUBSCALE_CLI");
    const std::filesystem::path generator = cli ? std::filesystem::path(cli).parent_path() / "subscale-generate"
                                                : std::filesystem::path(SUBSCALE_BINARY_DIR) / "subscale-generate";
    const std::string command =
        generator.string() + " " + arguments + " -o " + (folder_ / stem).string() + " > /dev/null";
    return std::system(command.c_str()) == 0;
  }

  std::filesystem::path folder_;
};

}  // namespace subscale::testing
