// SUBSCALE_AVAILABLE_MEMORY stands in for the machine's free memory; a value it cannot read is an
// error, not a silent fallback (a regression: "abc" was ignored and "2G" read as 2 bytes).
#include "io/host_memory.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "common/error.hpp"

namespace subscale::io {
namespace {

std::uint64_t available_with(const char* value) {
  setenv("SUBSCALE_AVAILABLE_MEMORY", value, 1);
  struct Unset {
    ~Unset() { unsetenv("SUBSCALE_AVAILABLE_MEMORY"); }
  } unset;
  return available_host_memory();
}

TEST(AvailableHostMemory, TheVariableAcceptsUnits) {
  EXPECT_EQ(available_with("1073741824"), std::uint64_t{1} << 30);
  EXPECT_EQ(available_with("2G"), std::uint64_t{2} << 30);
  EXPECT_EQ(available_with("512M"), std::uint64_t{512} << 20);
  EXPECT_EQ(available_with("8GB"), std::uint64_t{8000000000});
  EXPECT_EQ(available_with("1.5GiB"), std::uint64_t{3} << 29);
}

TEST(AvailableHostMemory, AValueThatIsNotASizeIsRefused) {
  for (const char* value : {"abc", "", "2 parsecs", "-5", "1e400"}) {
    try {
      available_with(value);
      ADD_FAILURE() << "accepted SUBSCALE_AVAILABLE_MEMORY=" << value;
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find("SUBSCALE_AVAILABLE_MEMORY"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace subscale::io
