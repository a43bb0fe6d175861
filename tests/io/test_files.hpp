#pragma once
// Helpers for tests that read and write real files: a private temporary folder per test and a
// way to capture the message of the InputError a call must throw.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "common/error.hpp"

namespace subscale::testing {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "test";
    for (char& c : name)
      if (c == '/') c = '_';
    path_ = std::filesystem::temp_directory_path() /
            ("subscale-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

  // Writes `text` to a file in the folder and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::string target = file(name);
    std::ofstream(target, std::ios::binary) << text;
    return target;
  }

 private:
  std::filesystem::path path_;
};

// Runs `call`, which must throw `Expected` with exit code `code`; returns its message ("" and a
// test failure otherwise). `name` says which error was expected ("an InputError").
template <class Expected, class Call>
std::string expected_error_message(Call&& call, ExitCode code, const char* name) {
  try {
    call();
  } catch (const Expected& error) {
    EXPECT_EQ(error.code(), code);
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "expected " << name << ", got: " << error.what();
    return {};
  }
  ADD_FAILURE() << "expected " << name << ", nothing was thrown";
  return {};
}

// `call` must throw InputError (exit 3).
template <class Call>
std::string input_error_message(Call&& call) {
  return expected_error_message<InputError>(std::forward<Call>(call), ExitCode::input, "an InputError");
}

// `call` must throw ResourceError (exit 4).
template <class Call>
std::string resource_error_message(Call&& call) {
  return expected_error_message<ResourceError>(std::forward<Call>(call), ExitCode::resource, "a ResourceError");
}

}  // namespace subscale::testing
