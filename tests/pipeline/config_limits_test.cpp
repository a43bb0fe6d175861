// Limits of the config reader that keep a hostile or mistaken config from exhausting memory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "pipeline/config.hpp"
#include "pipeline/core_schema.hpp"

namespace subscale::pipeline {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string list_of(int count, double start) {
  std::string text = "[";
  for (int i = 0; i < count; ++i) text += (i ? ", " : "") + std::to_string(start + 0.001 * i);
  return text + "]";
}

TEST(ConfigLimits, SweepOfMoreThan100000RunsIsRefusedBeforeExpanding) {
  // 11^5 = 161051 combinations: refused with the key where the product passed the limit.
  const std::string yaml =
      "input: {path: a.h5}\nepsilon: " + list_of(11, 0.01) + "\nmerge:\n  epsilon: " + list_of(11, 0.02) +
      "\n  min_points: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n" + "min_points: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n";
  const Config config = Config::from_text(yaml, {"signature.bits=[64, 128, 64, 128, 64, 128, 64, 128, 64, 128, 64]"},
                                          core_config_schema(), "/base", "big_sweep.yaml");
  try {
    config.expand_sweeps();
    ADD_FAILURE() << "expanded a sweep of 161051 runs";
  } catch (const UsageError& error) {
    EXPECT_THAT(std::string(error.what()), AllOf(HasSubstr("big_sweep.yaml"), HasSubstr("more than 100000 runs")));
  }
  // Two of the lists fixed by overrides: 11^2 runs are fine.
  const Config smaller =
      Config::from_text(yaml, {"min_points=4", "merge.min_points=5"}, core_config_schema(), "/base", "sweep.yaml");
  EXPECT_EQ(smaller.expand_sweeps().size(), 121u);
}

TEST(ConfigLimits, FuzzFindingAListOrMappingAsAKeyIsAUsageError) {
  // Found by fuzz_config (tests/fuzz_regressions/fuzz_config/mapping_as_key.yaml): yaml-cpp's own
  // conversion error escaped, and the command line ended with exit 1 and "bad conversion".
  for (const char* yaml : {"input:\n? path: d.h5\n: 1\n", "? [a, b]\n: 1\n", "{? {x: 1}: 2}\n"}) {
    try {
      Config::from_text(yaml, {}, core_config_schema(), "/base", "keys.yaml");
      ADD_FAILURE() << "accepted " << yaml;
    } catch (const UsageError& error) {
      EXPECT_THAT(std::string(error.what()),
                  AllOf(HasSubstr("keys.yaml: line"), HasSubstr("a key must be a plain name")))
          << yaml;
    }
  }
}

}  // namespace
}  // namespace subscale::pipeline
