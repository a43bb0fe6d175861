#include "pipeline/settings/config.hpp"

#include <gtest/gtest.h>

#include <set>

#include "common/error.hpp"
#include "pipeline/settings/core_schema.hpp"

namespace subscale::pipeline {
namespace {

std::string usage_error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    Config::from_text(yaml, overrides, core_config_schema(), "/base", "test.yaml");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

const char* kMinimal = "input: {path: data.h5}\nepsilon: 0.01\nmin_points: 4\n";

TEST(Config, DefaultsAndRelativePaths) {
  const Config config = Config::from_text(kMinimal, {}, core_config_schema(), "/base", "test.yaml");
  EXPECT_EQ(config.file_path("input.path"), "/base/data.h5");
  EXPECT_EQ(config.string("mode"), "auto");
  EXPECT_EQ(config.integer("signature.bits"), 128);
  EXPECT_TRUE(config.is_auto("partitions.count"));
  EXPECT_DOUBLE_EQ(config.number("epsilon"), 0.01);
  EXPECT_FALSE(config.has("ground_truth.path"));
}

TEST(Config, OverridesUseDottedPathsAndWorkingFolderPaths) {
  const Config config = Config::from_text(kMinimal, {"merge.epsilon=0.02", "input.path=other.csv", "threads=3"},
                                          core_config_schema(), "/base", "test.yaml");
  EXPECT_DOUBLE_EQ(config.number("merge.epsilon"), 0.02);
  // Held absolute, so that the run folder's config.yaml reads the same file from anywhere.
  EXPECT_EQ(config.file_path("input.path"), std::filesystem::current_path() / "other.csv");
  EXPECT_EQ(config.integer("threads"), 3);
}

TEST(Config, UnknownKeySuggestsTheNearest) {
  const std::string message = usage_error_of(std::string(kMinimal) + "epsilom: 0.1\n");
  EXPECT_NE(message.find("unknown key 'epsilom'"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'epsilon'"), std::string::npos) << message;
  const std::string nested = usage_error_of(kMinimal, {"merge.epsilonn=0.1"});
  EXPECT_NE(nested.find("did you mean 'merge.epsilon'"), std::string::npos) << nested;
}

TEST(Config, WrongTypesAndRangesNameTheKey) {
  EXPECT_NE(usage_error_of("input: {path: a}\nepsilon: abc\nmin_points: 4\n").find("'epsilon' expects a number"),
            std::string::npos);
  EXPECT_NE(usage_error_of("input: {path: a}\nepsilon: 0\nmin_points: 4\n").find("'epsilon' is 0 but must be > 0"),
            std::string::npos);
  EXPECT_NE(usage_error_of("input: {path: a}\nepsilon: 0.1\nmin_points: 1\n").find("'min_points'"), std::string::npos);
  EXPECT_NE(usage_error_of("input: {path: a}\nepsilon: 0.1\nmin_points: 2.5\n").find("expects an integer"),
            std::string::npos);
  const std::string choice = usage_error_of(kMinimal, {"mode=exakt"});
  EXPECT_NE(choice.find("did you mean 'exact'"), std::string::npos) << choice;
  EXPECT_NE(usage_error_of(kMinimal, {"signature.bits=32"}).find("64, 128"), std::string::npos);
  EXPECT_NE(usage_error_of(kMinimal, {"memory.host_bytes=lots"}).find("not a size in bytes"), std::string::npos);
  EXPECT_NE(usage_error_of("epsilon: 0.1\nmin_points: 4\n").find("'input.path' is required"), std::string::npos);
  EXPECT_NE(usage_error_of(kMinimal, {"noequals"}).find("key=value"), std::string::npos);
  EXPECT_NE(usage_error_of("epsilon: [0.1\n").find("not valid YAML"), std::string::npos);
  EXPECT_NE(usage_error_of(kMinimal, {"normalize=[minmax, none]"}).find("takes one value"), std::string::npos);
}

TEST(Config, ASectionWithASwitchTakesOnOrOffAsAWhole) {
  // `consolidate: off` is `consolidate.enabled: off`, in the file and on the command line.
  const Config defaults = Config::from_text(kMinimal, {}, core_config_schema(), "/base", "test.yaml");
  EXPECT_TRUE(defaults.boolean("consolidate.enabled"));
  EXPECT_DOUBLE_EQ(defaults.number("consolidate.overlap"), 0.5);
  EXPECT_DOUBLE_EQ(defaults.number("consolidate.span_fraction"), 0.9);
  EXPECT_DOUBLE_EQ(defaults.number("consolidate.span_tolerance"), 3.0);
  EXPECT_DOUBLE_EQ(defaults.number("consolidate.coverage"), 0.8);
  EXPECT_EQ(defaults.integer("consolidate.top_k"), 0);
  const Config in_file =
      Config::from_text(std::string(kMinimal) + "consolidate: off\n", {}, core_config_schema(), "/base", "test.yaml");
  EXPECT_FALSE(in_file.boolean("consolidate.enabled"));
  const Config overridden =
      Config::from_text(kMinimal, {"consolidate=off"}, core_config_schema(), "/base", "test.yaml");
  EXPECT_FALSE(overridden.boolean("consolidate.enabled"));
  const Config merge_off = Config::from_text(kMinimal, {"merge=false"}, core_config_schema(), "/base", "test.yaml");
  EXPECT_FALSE(merge_off.boolean("merge.enabled"));
  // The resolved config writes the switch back under its own key, and reads back the same.
  const Config again = Config::from_text(overridden.to_yaml(), {}, core_config_schema(), "/base", "again.yaml");
  EXPECT_FALSE(again.boolean("consolidate.enabled"));
  // A value that is no switch names the key; the options keep their ranges.
  EXPECT_NE(usage_error_of(kMinimal, {"consolidate=maybe"}).find("'consolidate.enabled' expects true or false"),
            std::string::npos);
  EXPECT_NE(usage_error_of(kMinimal, {"consolidate.overlap=0"}).find("'consolidate.overlap'"), std::string::npos);
  EXPECT_NE(usage_error_of(kMinimal, {"consolidate.coverage=1.5"}).find("'consolidate.coverage'"), std::string::npos);
  EXPECT_NE(usage_error_of(kMinimal, {"consolidate.top_k=-1"}).find("'consolidate.top_k'"), std::string::npos);
}

TEST(Config, BytesParse) {
  EXPECT_EQ(parse_bytes("1024", "k"), 1024u);
  EXPECT_EQ(parse_bytes("64MiB", "k"), 64u << 20);
  EXPECT_EQ(parse_bytes("2 GB", "k"), 2000000000u);
  EXPECT_EQ(parse_bytes("1.5GiB", "k"), 3u << 29);
  EXPECT_THROW(parse_bytes("-1", "k"), UsageError);
  EXPECT_THROW(parse_bytes("12 parsecs", "k"), UsageError);
}

TEST(Config, SweepsExpandToIndependentCombinations) {
  const Config config = Config::from_text(std::string(kMinimal), {"epsilon=[0.1, 0.2]", "min_points=[3, 4, 5]"},
                                          core_config_schema(), "/base", "test.yaml");
  EXPECT_EQ(config.sweep_keys(), (std::vector<std::string>{"epsilon", "min_points"}));
  const auto combinations = config.expand_sweeps();
  ASSERT_EQ(combinations.size(), 6u);
  std::set<std::pair<double, std::int64_t>> seen;
  for (const auto& c : combinations) seen.emplace(c.number("epsilon"), c.integer("min_points"));
  EXPECT_EQ(seen.size(), 6u);
  EXPECT_TRUE(combinations[0].sweep_keys().empty());
}

TEST(Config, ResolvedYamlRoundTrips) {
  Config config = Config::from_text(kMinimal, {"signature.seed=77"}, core_config_schema(), "/base", "test.yaml");
  const Config again = Config::from_text(config.to_yaml(), {}, core_config_schema(), "/elsewhere", "resolved.yaml");
  EXPECT_EQ(again.integer("signature.seed"), 77);
  EXPECT_EQ(again.file_path("input.path"), "/base/data.h5");
  EXPECT_EQ(again.to_yaml(), config.to_yaml());
}

}  // namespace
}  // namespace subscale::pipeline
