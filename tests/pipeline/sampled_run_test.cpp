// Discovery on a sample: the clusters found on a uniform sample come out with every point of the
// input that belongs to them, tested on every point; the run says so in its log, summary.json,
// results.h5 and config.yaml (which repeats it exactly); without the test there is no sample.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "datasets/synthetic_generator.hpp"
#include "io/ground_truth.hpp"
#include "io/hdf5_dataset_writer.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;

class SampledRun : public subscale::testing::CliTest {
 protected:
  // 8,000 points in 12 dimensions, three planted clusters of 4-10% of the points.
  fs::path planted_config() {
    subscale::datasets::GeneratorConfig spec;
    spec.points = 8000;
    spec.dimensions = 12;
    spec.seed = 21;
    spec.clusters = {{{1, 4}, 800, 0.05}, {{0, 6, 9}, 500, 0.05}, {{2, 3, 7, 11}, 320, 0.06}};
    const auto generated = subscale::datasets::generate(spec);
    subscale::io::write_hdf5_dataset(generated.dataset, (folder_ / "planted.h5").string());
    subscale::io::GroundTruth truth;
    truth.dimensions = spec.dimensions;
    truth.clusters = generated.truth;
    subscale::io::write_ground_truth(folder_ / "planted.true", truth);
    return write("planted.yaml", "input:\n  path: " + (folder_ / "planted.h5").string() +
                                     "\nground_truth:\n  path: " + (folder_ / "planted.true").string() + "\n");
  }
  subscale::testing::CliOutcome run_into(const fs::path& config, const std::string& name, const std::string& extra) {
    return run("run " + config.string() + " " + extra + " --out " + (folder_ / name).string() + " -q", name + ".log");
  }
};

TEST_F(SampledRun, ClustersFoundOnASampleHoldEveryPointOfThem) {
  const fs::path config = planted_config();
  const auto sampled = run_into(config, "sampled", "sample.enabled=true sample.points=2000 threads=2");
  ASSERT_EQ(sampled.exit_code, 0) << sampled.output;
  const fs::path out = folder_ / "sampled";
  const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
  EXPECT_EQ(summary["sample"]["points"].get<int>(), 2000);
  EXPECT_EQ(summary["sample"]["of"].get<int>(), 8000);
  EXPECT_EQ(summary["sample"]["seed"].get<int>(), 1);
  EXPECT_EQ(summary["evaluation"]["found_clusters"].get<int>(), 3);
  // On the sample alone the clusters hold a quarter of their points: coverage would be about 0.05.
  EXPECT_GE(summary["evaluation"]["e4sc"].get<double>(), 0.9);
  EXPECT_GE(summary["evaluation"]["coverage"].get<double>(), 0.19);
  const std::string log = read_text(out / "log.txt");
  EXPECT_NE(log.find("sample      2000 of 8000 points"), std::string::npos) << log;
  EXPECT_NE(log.find("extended to all 8000"), std::string::npos) << log;
  const std::string yaml = read_text(out / "config.yaml");
  EXPECT_NE(yaml.find("points: 2000"), std::string::npos) << yaml;
  // config.yaml repeats the run: the same sample, the same clusters.
  const auto again =
      run("run " + (out / "config.yaml").string() + " --out " + (folder_ / "again").string() + " -q", "again.log");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(read_text(folder_ / "again" / "clusters.txt"), read_text(out / "clusters.txt"));
  EXPECT_EQ(read_text(folder_ / "again" / "subspaces.txt"), read_text(out / "subspaces.txt"));
}

TEST_F(SampledRun, AnotherSeedDrawsAnotherSampleButFindsTheSameClusters) {
  const fs::path config = planted_config();
  ASSERT_EQ(run_into(config, "one", "sample.enabled=true sample.points=2000").exit_code, 0);
  ASSERT_EQ(run_into(config, "two", "sample.enabled=true sample.points=2000 sample.seed=5").exit_code, 0);
  EXPECT_NE(read_text(folder_ / "one" / "subspaces.txt"), read_text(folder_ / "two" / "subspaces.txt"));
  const auto one = nlohmann::json::parse(read_text(folder_ / "one" / "summary.json"));
  const auto two = nlohmann::json::parse(read_text(folder_ / "two" / "summary.json"));
  EXPECT_EQ(two["evaluation"]["found_clusters"], one["evaluation"]["found_clusters"]);
  EXPECT_NEAR(two["evaluation"]["e4sc"].get<double>(), one["evaluation"]["e4sc"].get<double>(), 0.05);
}

TEST_F(SampledRun, SmallInputsAndRunsWithoutTheTestTakeNoSample) {
  const fs::path config = planted_config();
  ASSERT_EQ(run_into(config, "plain", "").exit_code, 0);
  const auto summary = nlohmann::json::parse(read_text(folder_ / "plain" / "summary.json"));
  EXPECT_TRUE(summary["sample"].is_null());
  EXPECT_FALSE(summary["budget_limited"].get<bool>());
  const auto refused = run_into(config, "refused", "sample.enabled=true significance.enabled=false");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("sample.enabled: true needs significance.enabled: true"), std::string::npos)
      << refused.output;
  EXPECT_FALSE(fs::exists(folder_ / "refused"));
}

TEST_F(SampledRun, PlanSaysWhichSampleTheRunWouldTake) {
  const auto plan = run("plan " + planted_config().string() + " sample.enabled=true sample.points=3000", "plan.log");
  ASSERT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("sample      3000 of 8000 points"), std::string::npos) << plan.output;
}

}  // namespace
