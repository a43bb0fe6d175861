// Every fuzz target's seed corpus and every input a fuzzer found (crashes, leaks, refusals that
// were not the project's own errors) replayed through the target: each must be parsed or refused
// with a subscale::Error. Under the sanitizer build this also checks memory errors and leaks.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/source_root.hpp"

// Leaks inside libhdf5 on corrupted files are the library's own (fuzz/lsan.supp).
extern "C" const char* __lsan_default_suppressions() { return "leak:libhdf5_serial.so\nleak:libhdf5.so\n"; }
// A damaged file makes libhdf5 ask malloc for absurd sizes; malloc says no (NULL), as in the
// product, and libhdf5 reports an error, instead of the sanitizer stopping the test there.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

#define SUBSCALE_FUZZ_TARGETS(X) \
  X(fuzz_csv)                    \
  X(fuzz_arff)                   \
  X(fuzz_ground_truth) X(fuzz_cluster_text) X(fuzz_config) X(fuzz_hdf5_dataset) X(fuzz_join_table) X(fuzz_filter_table)

#define SUBSCALE_DECLARE(name)                                                      \
  extern "C" int name##_test_one_input(const std::uint8_t* data, std::size_t size); \
  extern "C" __attribute__((weak)) int name##_initialize(int* argc, char*** argv);
SUBSCALE_FUZZ_TARGETS(SUBSCALE_DECLARE)

namespace {

using EntryPoint = int (*)(const std::uint8_t*, std::size_t);
using Initializer = int (*)(int*, char***);

std::size_t replay(const std::string& target, EntryPoint entry, Initializer initialize) {
  if (initialize) {
    int argc = 0;
    char** argv = nullptr;
    initialize(&argc, &argv);
  }
  std::size_t files = 0;
  for (const std::string& folder :
       {(subscale::testing::source_root() / "fuzz" / "corpus" / target).string(),
        (subscale::testing::source_root() / "tests" / "fuzz_regressions" / target).string()}) {
    if (!std::filesystem::is_directory(folder)) continue;
    for (const auto& entry_file : std::filesystem::directory_iterator(folder)) {
      std::ifstream in(entry_file.path(), std::ios::binary);
      const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      SCOPED_TRACE(entry_file.path().string());
      entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++files;
    }
  }
  return files;
}

#define SUBSCALE_REPLAY_TEST(name)                                                                              \
  TEST(FuzzReplay, name) {                                                                                      \
    EXPECT_GT(replay(#name, name##_test_one_input, name##_initialize), 0u) << "no seeds in fuzz/corpus/" #name; \
  }
SUBSCALE_FUZZ_TARGETS(SUBSCALE_REPLAY_TEST)

}  // namespace
