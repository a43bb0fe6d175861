// What a config or an override says is taken as written, or refused: a second YAML document, text
// after an override's value and a key given twice are UsageErrors; string and path overrides keep
// every byte (YAML would fold a newline into a space, or cut the value at " #").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/core_schema.hpp"

namespace subscale::pipeline {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const char* kMinimal = "input: {path: data.h5}\nepsilon: 0.01\nmin_points: 4\n";

Config load(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return Config::from_text(yaml, overrides, core_config_schema(), "/base", "test.yaml");
}

std::string usage_error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    load(yaml, overrides);
  } catch (const UsageError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no UsageError for overrides of " << yaml;
  return "";
}

TEST(ConfigStrictness, SecondYamlDocumentIsRefusedNotIgnored) {
  EXPECT_THAT(usage_error_of(std::string(kMinimal) + "---\nepsilon: 0.5\n"),
              AllOf(StartsWith("test.yaml: line 5"), HasSubstr("second YAML document"), HasSubstr("'---'")));
  // A document start before the only document, or an empty document after it, holds no key.
  EXPECT_DOUBLE_EQ(load(std::string("---\n") + kMinimal).number("epsilon"), 0.01);
  EXPECT_DOUBLE_EQ(load(std::string(kMinimal) + "---\n# nothing more\n").number("epsilon"), 0.01);
}

TEST(ConfigStrictness, TextAfterAnOverrideValueIsRefused) {
  EXPECT_THAT(usage_error_of(kMinimal, {"epsilon=[0.004]junk"}),
              AllOf(StartsWith("command line: the value of 'epsilon'"), HasSubstr("[0.004]junk"),
                    HasSubstr("after the value's end")));
  EXPECT_THAT(usage_error_of(kMinimal, {"min_points={a: 1} 4"}), HasSubstr("'min_points'"));
  EXPECT_THAT(usage_error_of(kMinimal, {"mode=[direct] exact"}), HasSubstr("after the value's end"));
  // A list alone is still a sweep.
  EXPECT_EQ(load(kMinimal, {"epsilon=[0.004, 0.008]"}).sweep_keys(), std::vector<std::string>{"epsilon"});
}

TEST(ConfigStrictness, RepeatedOverrideIsRefusedNamingTheKey) {
  EXPECT_THAT(usage_error_of(kMinimal, {"epsilon=0.1", "epsilon=0.2"}),
              AllOf(HasSubstr("'epsilon' is given twice"), HasSubstr("'epsilon=0.1'"), HasSubstr("'epsilon=0.2'")));
  // A section's switch and its .enabled key are one key.
  EXPECT_THAT(usage_error_of(kMinimal, {"consolidate=off", "consolidate.enabled=on"}),
              HasSubstr("'consolidate.enabled' is given twice"));
  // An override of a key the file sets is what overrides are for.
  EXPECT_DOUBLE_EQ(load(kMinimal, {"epsilon=0.2"}).number("epsilon"), 0.2);
}

TEST(ConfigStrictness, PathOverrideKeepsNewlinesAndHashesLiterally) {
  const Config config = load(kMinimal, {"input.path=/data/new line\n/x.h5", "ground_truth.path=/t/a #1.true"});
  EXPECT_EQ(config.file_path("input.path"), "/data/new line\n/x.h5");
  EXPECT_EQ(config.file_path("ground_truth.path"), "/t/a #1.true");
  // Written and read back (the run folder's config.yaml) the path stays the same.
  EXPECT_EQ(load(config.to_yaml()).file_path("input.path"), "/data/new line\n/x.h5");
  // A relative path starts from the working folder, with its odd characters kept.
  EXPECT_EQ(load(kMinimal, {"input.path=[1].csv"}).file_path("input.path"),
            std::filesystem::current_path() / "[1].csv");
}

TEST(ConfigStrictness, StringOverrideIsLiteralUnlessItIsAList) {
  EXPECT_EQ(load(kMinimal, {"input.dataset=/group #2/data"}).string("input.dataset"), "/group #2/data");
  EXPECT_EQ(load(kMinimal, {"input.label_column=class\nname"}).string("input.label_column"), "class\nname");
  EXPECT_EQ(load(kMinimal, {"mode=[direct, exact]"}).sweep_keys(), std::vector<std::string>{"mode"});
  EXPECT_THAT(usage_error_of(kMinimal, {"normalize=[minmax, none]"}), HasSubstr("takes one value"));
  EXPECT_THAT(usage_error_of(kMinimal, {"mode=direct "}), HasSubstr("'direct '"));
}

TEST(ConfigStrictness, OverridesAreNamedByTheirOrigin) {
  try {
    Config::from_text(kMinimal, {"epsilon=-1"}, core_config_schema(), "/base", "X", "parameters");
    FAIL() << "epsilon=-1 was accepted";
  } catch (const UsageError& error) {
    EXPECT_THAT(error.what(), StartsWith("parameters: 'epsilon'"));
  }
  EXPECT_THAT(usage_error_of(kMinimal, {"epsilon=-1"}), StartsWith("command line: 'epsilon'"));
}

TEST(ConfigStrictness, MergeMinPointsAboveThePointLimitIsRefused) {
  EXPECT_THAT(usage_error_of(kMinimal, {"merge.min_points=4294967297"}), HasSubstr("'merge.min_points'"));
}

}  // namespace
}  // namespace subscale::pipeline
