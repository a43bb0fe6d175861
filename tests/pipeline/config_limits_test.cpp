// Limits of the config reader that keep a hostile or mistaken config from exhausting memory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/core_schema.hpp"

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

std::string usage_error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    Config::from_text(yaml, overrides, core_config_schema(), "/base", "hostile.yaml");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(accepted)";
}

TEST(ConfigLimits, AnAliasBombIsRefusedNamingTheKeyBeforeItExpands) {
  // Regression: 700 bytes of anchors and aliases under filter.where grew to 2.2 GB and
  // ended with exit 4 and a message about memory.host_bytes.
  // Level k is a list of ten aliases of level k - 1: 10^10 values in all.
  std::string yaml = "input: {path: a.h5}\nfilter:\n  where:\n    a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level < 10; ++level) {
    // Appended, not "a" + std::to_string(...): GCC 12 at -O3 warns (-Wstringop-overflow) on that.
    const std::string name = std::string("a").append(std::to_string(level));
    const std::string previous = std::string("*a").append(std::to_string(level - 1));
    std::string list;
    for (int i = 0; i < 10; ++i) list.append(i ? ", " : "").append(previous);
    yaml += "    " + name + ": &" + name + " [" + list + "]\n";
  }
  ASSERT_LT(yaml.size(), 1000u);
  const std::string message = usage_error_of(yaml);
  EXPECT_THAT(message, AllOf(HasSubstr("hostile.yaml: line"), HasSubstr("filter.where"), HasSubstr("aliases")));
}

TEST(ConfigLimits, DeepNestingIsRefused) {
  std::string yaml = "input: {path: a.h5}\nfilter:\n  where: ";
  for (int i = 0; i < 200; ++i) yaml += "[";
  for (int i = 0; i < 200; ++i) yaml += "]";
  EXPECT_THAT(usage_error_of(yaml + "\n"), AllOf(HasSubstr("hostile.yaml"), HasSubstr("deeper than")));
}

TEST(ConfigLimits, AListLongerThanTheSweepLimitIsRefusedWhileParsing) {
  // Regression: a 10-million-value list took 7.8 GB for 37 s before the sweep limit
  // refused it; now the list is refused at its 100001st value, before nodes are built.
  const std::string yaml = "input: {path: a.h5}\nepsilon: " + list_of(100001, 0.01) + "\n";
  EXPECT_THAT(usage_error_of(yaml),
              AllOf(HasSubstr("hostile.yaml: line 2"), HasSubstr("'epsilon'"), HasSubstr("more than 100000 values")));
  EXPECT_THAT(usage_error_of("input: {path: a.h5}\n", {"epsilon=" + list_of(100001, 0.01)}),
              HasSubstr("more than 100000 values"));
}

TEST(ConfigLimits, ADuplicateKeyIsRefusedNamingBothLines) {
  // Regression: yaml-cpp keeps both; the second silently won.
  EXPECT_THAT(usage_error_of("input: {path: a.h5}\nepsilon: 0.1\nmerge:\n  epsilon: 0.2\nepsilon: 0.3\n"),
              AllOf(HasSubstr("hostile.yaml: line 5"), HasSubstr("'epsilon' is given twice (lines 2 and 5)")));
  EXPECT_THAT(usage_error_of("input: {path: a.h5}\nmerge:\n  epsilon: 0.1\n  min_points: 3\n  epsilon: 0.2\n"),
              AllOf(HasSubstr("under 'merge'"), HasSubstr("lines 3 and 5")));
  // The same name in different sections is no repeat.
  EXPECT_EQ(usage_error_of("input: {path: a.h5}\nmin_points: 4\nepsilon: 0.1\nmerge:\n  epsilon: 0.2\n"), "(accepted)");
}

TEST(ConfigLimits, AThreadCountFarBeyondAnyMachineIsRefused) {
  // Regression: threads=1000000 was accepted and recorded.
  EXPECT_THAT(usage_error_of("input: {path: a.h5}\n", {"threads=1000000"}),
              AllOf(HasSubstr("'threads'"), HasSubstr("must be <= 4096")));
  EXPECT_EQ(usage_error_of("input: {path: a.h5}\nepsilon: 0.1\nmin_points: 4\n", {"threads=64"}), "(accepted)");
}

TEST(ConfigLimits, SizesAcceptSlurmStyleUnits) {
  EXPECT_EQ(parse_bytes("2G", "k"), std::uint64_t{2} << 30);
  EXPECT_EQ(parse_bytes("512M", "k"), std::uint64_t{512} << 20);
  EXPECT_THROW(parse_bytes("abc", "k"), UsageError);
}

}  // namespace
}  // namespace subscale::pipeline
