// A run with the significance test (on by default) and automatic parameters: a config holding only
// input.path runs, says what it chose and why, writes the resolved values into config.yaml (which
// repeats the run exactly), and reports every cluster's score, strongest first; with
// significance.enabled false none of it appears.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "datasets/synthetic_generator.hpp"
#include "io/ground_truth.hpp"
#include "io/hdf5_dataset_writer.hpp"
#include "stages/evaluate/cluster_text.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;
using subscale::testing::source_root;

std::vector<double> read_doubles(const fs::path& file_path, const std::string& path) {
  std::vector<double> values;
  const hid_t file = H5Fopen(file_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0 || H5Lexists(file, path.c_str(), H5P_DEFAULT) <= 0) {
    if (file >= 0) H5Fclose(file);
    return values;
  }
  const hid_t dataset = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(dataset);
  hsize_t count = 0;
  H5Sget_simple_extent_dims(space, &count, nullptr);
  values.resize(count);
  if (count > 0) H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Sclose(space);
  H5Dclose(dataset);
  H5Fclose(file);
  return values;
}

bool has_dataset(const fs::path& file_path, const std::string& path) {
  const hid_t file = H5Fopen(file_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const bool found = H5Lexists(file, "/clusters", H5P_DEFAULT) > 0 && H5Lexists(file, path.c_str(), H5P_DEFAULT) > 0;
  H5Fclose(file);
  return found;
}

std::size_t lines_of(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class SignificanceRun : public subscale::testing::CliTest {
 protected:
  // The quickstart data with nothing but its path and its ground truth.
  fs::path minimal_config() {
    const fs::path data = source_root() / "datasets";
    return write("minimal.yaml", "input:\n  path: " + (data / "quickstart.h5").string() +
                                     "\nground_truth:\n  path: " + (data / "quickstart.true").string() + "\n");
  }
  fs::path run_into(const fs::path& config, const std::string& name, const std::string& extra = "") {
    const auto outcome =
        run("run " + config.string() + " " + extra + " --out " + (folder_ / name).string() + " -q", name + ".log");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    return folder_ / name;
  }
};

TEST_F(SignificanceRun, OnlyInputPathFindsTheHiddenClusters) {
  const auto plan = run("plan " + minimal_config().string(), "auto-plan.log");
  EXPECT_NE(plan.output.find("so the subspaces go to merge as the core finds them"), std::string::npos) << plan.output;
  const fs::path out = run_into(minimal_config(), "auto");
  const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
  EXPECT_EQ(summary["evaluation"]["found_clusters"].get<int>(), 5);
  EXPECT_GE(summary["evaluation"]["e4sc"].get<double>(), 0.95);  // reached: 1.000
  EXPECT_GE(summary["evaluation"]["f1"].get<double>(), 0.95);    // reached: 1.000
  const auto& sig = summary["significance"];
  EXPECT_GT(sig["subspaces_skipped"].get<int>(), 0);
  EXPECT_LT(sig["merge_kept"].get<int>(), sig["merge_tested"].get<int>());
  // Every significant consolidated cluster is reported, dropped as a piece, or taken into a lead.
  EXPECT_EQ(sig["consolidated_kept"].get<int>() - sig["repeated"].get<int>() - sig["touching_joins"].get<int>(), 5);

  const std::string log = read_text(out / "log.txt");
  for (const char* line : {"auto        epsilon = ", "auto        min_points = ", "auto        merge.epsilon = ",
                           "auto        merge.min_points = ", "significance "})
    EXPECT_NE(log.find(line), std::string::npos) << line << "\n" << log;
  const std::string config = read_text(out / "config.yaml");
  EXPECT_EQ(config.find("epsilon: auto"), std::string::npos) << config;
  EXPECT_EQ(config.find("min_points: auto"), std::string::npos) << config;
}

TEST_F(SignificanceRun, ScoresStrongestFirstBesideTheClusters) {
  const fs::path out = run_into(minimal_config(), "auto");
  const auto scores = read_doubles(out / "results.h5", "/clusters/score");
  ASSERT_EQ(scores.size(), lines_of(read_text(out / "clusters.txt")));
  EXPECT_TRUE(std::is_sorted(scores.rbegin(), scores.rend()));
  for (const double s : scores) EXPECT_GE(s, 2.0);  // significant at the default alpha 0.01
  const auto log10_p = read_doubles(out / "results.h5", "/clusters/log10_p");
  ASSERT_EQ(log10_p.size(), scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) EXPECT_LE(log10_p[i], -scores[i]);  // raw p below corrected
  const auto raw = read_doubles(out / "results.h5", "/raw_clusters/score");
  EXPECT_EQ(raw.size(), lines_of(read_text(out / "clusters_raw.txt")));
}

// log10 of a near miss's p-value times the boxes searched: what ranks them, score 0 or not.
double corrected_p(const nlohmann::json& miss) {
  return miss["log10_p"].get<double>() + miss["log10_search"].get<double>();
}

// A run that ends with no cluster says why: its strongest candidates, how far each fell short (the
// alpha it would pass at), and what to change; summary.json lists them too. Here a planted cluster of
// 10 points in 2 of 10 dimensions among 150 is too weak for the test, and it is the first named.
TEST_F(SignificanceRun, AnEmptyResultNamesItsStrongestCandidates) {
  ASSERT_TRUE(generate("-n 150 -d 10 -c 0,1:10:0.08 -s 5", "weak"));
  const fs::path out = run_into(write("weak.yaml", "input:\n  path: weak.h5\n"), "weak");
  EXPECT_TRUE(read_text(out / "clusters.txt").empty());
  const std::string log = read_text(out / "log.txt");
  EXPECT_NE(log.find("no cluster passes the test (bonferroni at alpha 0.01); the strongest candidates"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("significance   {0, 1} "), std::string::npos) << log;
  EXPECT_NE(log.find("significance.alpha="), std::string::npos) << log;
  const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
  const auto& misses = summary["significance"]["near_misses"];
  ASSERT_FALSE(misses.empty());
  EXPECT_LE(misses.size(), 5u);
  EXPECT_EQ(misses[0]["dimensions"], nlohmann::json::array({0, 1}));
  for (std::size_t i = 0; i < misses.size(); ++i) {
    EXPECT_GT(misses[i]["alpha_needed"].get<double>(), 0.01);  // each failed at the default alpha
    if (i > 0) {
      EXPECT_LE(misses[i]["score"].get<double>(), misses[i - 1]["score"].get<double>());
      EXPECT_GE(corrected_p(misses[i]), corrected_p(misses[i - 1]));
    }
  }
}

// Where merge finds clusters and none comes even close enough to be passed on to consolidation
// (skewed integer levels and no cluster: 700 chance clusters), the empty result still names the
// ones closest to passing, strongest first by their corrected p-values.
TEST_F(SignificanceRun, AnEmptyResultWithNoCandidateNamesMergesClosestClusters) {
  ASSERT_TRUE(generate("-n 345 -d 6 -c 0,1:3:0.5 --levels 10 --skew 1 -s 1", "levels"));
  const fs::path out = run_into(write("levels.yaml", "input:\n  path: levels.h5\n"), "levels");
  EXPECT_TRUE(read_text(out / "clusters.txt").empty());
  const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
  const auto& significance = summary["significance"];
  ASSERT_GT(significance["merge_tested"].get<int>(), 0);
  ASSERT_EQ(significance["merge_candidates"].get<int>(), 0);
  const auto& misses = significance["near_misses"];
  ASSERT_EQ(misses.size(), 5u);
  for (std::size_t i = 0; i < misses.size(); ++i) {
    EXPECT_FALSE(misses[i]["best_case"].get<bool>());
    if (i > 0) {
      EXPECT_GE(corrected_p(misses[i]), corrected_p(misses[i - 1]));
    }
  }
  EXPECT_NE(read_text(out / "log.txt").find("in a search over 10^"), std::string::npos);
}

// min_points 2 on uniform data links a subspace's chance pairs into one cluster spanning it: the
// 200 points planted in (7, 8) come out of merge inside it, and only its denser parts
// (significance.denser_parts: true) find them.
TEST_F(SignificanceRun, AClusterChainedToTheBackgroundIsFoundAsADenserPart) {
  ASSERT_TRUE(
      generate("-n 10000 -d 20 -c '0,1,2,3:800:0.05;4,5,6:400:0.05;7,8:200:0.05;9,10,11:50:0.05' -s 7", "chained"));
  // Only the input: the parts are on by default, and join the consolidated clusters.
  const fs::path out = run_into(write("chained.yaml", "input:\n  path: chained.h5\n"), "chained");
  const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
  EXPECT_GT(summary["significance"]["denser_parts"].get<int>(), 0);
  EXPECT_NE(("\n" + read_text(out / "clusters.txt")).find("\n{7, 8}-["), std::string::npos);
  EXPECT_NE(read_text(out / "log.txt").find("denser parts of"), std::string::npos);
  EXPECT_NE(read_text(out / "log.txt").find("tested with the consolidated clusters"), std::string::npos);
  // Off: no parts, and the cluster in (7, 8) comes from a failing consolidated cluster grown over
  // every point of its subspace instead.
  const fs::path off = run_into(
      write("chained-off.yaml", "input:\n  path: chained.h5\nsignificance:\n  denser_parts: false\n"), "chained-off");
  const auto off_summary = nlohmann::json::parse(read_text(off / "summary.json"));
  EXPECT_EQ(off_summary["significance"]["denser_parts"].get<int>(), 0);
  EXPECT_GT(off_summary["significance"]["grown"].get<int>(), 0);
  EXPECT_NE(("\n" + read_text(off / "clusters.txt")).find("\n{7, 8}-["), std::string::npos);
  EXPECT_NE(read_text(off / "log.txt").find("grown over every point of their subspace"), std::string::npos);
}

// With a cluster found there is nothing to explain.
TEST_F(SignificanceRun, AResultWithClustersListsNoNearMisses) {
  const fs::path out = run_into(minimal_config(), "found");
  const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
  EXPECT_TRUE(summary["significance"]["near_misses"].empty());
  EXPECT_EQ(read_text(out / "log.txt").find("no cluster passes the test"), std::string::npos);
}

TEST_F(SignificanceRun, ResolvedConfigRepeatsTheRun) {
  const fs::path first = run_into(minimal_config(), "first");
  const fs::path second = run_into(first / "config.yaml", "second");
  EXPECT_EQ(read_text(first / "clusters.txt"), read_text(second / "clusters.txt"));
  EXPECT_EQ(read_text(first / "config.yaml"), read_text(second / "config.yaml"));
}

TEST_F(SignificanceRun, DisabledLeavesNoTrace) {
  const fs::path config = source_root() / "configs" / "quickstart.yaml";
  const fs::path off = run_into(config, "off", "significance.enabled=false");
  const auto summary = nlohmann::json::parse(read_text(off / "summary.json"));
  EXPECT_FALSE(summary.contains("significance"));
  EXPECT_FALSE(summary["timings_seconds"].contains("significance"));
  EXPECT_FALSE(has_dataset(off / "results.h5", "/clusters/score"));
  EXPECT_EQ(read_text(off / "log.txt").find("significance "), std::string::npos);
}

// A skewed integer grid (a Zipf skew of 1.3 over 60 levels: a dimension's commonest level holds
// about a third of its points). Two points coincide in about 7 further dimensions by chance, so
// each hidden cluster's units scatter over thousands of maximal subspaces of two points; without
// pooling them into pairs of dimensions no piece could pass and the run reported one cluster of
// three (E4SC 0.15), with a dimension it only avoided added to it.
TEST_F(SignificanceRun, ClustersOfASkewedGridAreFoundFromPooledPairs) {
  subscale::datasets::GeneratorConfig spec;
  spec.points = 1000;
  spec.dimensions = 30;
  spec.seed = 7;
  spec.grid.levels = 60;
  spec.grid.skew = 1.3;
  spec.clusters = {{{2, 9}, 250, 0.03}, {{4, 11, 17, 25}, 250, 0.03}, {{7, 20, 28}, 200, 0.03}};
  const auto generated = subscale::datasets::generate(spec);
  subscale::io::write_hdf5_dataset(generated.dataset, (folder_ / "grid.h5").string());
  subscale::io::GroundTruth truth;
  truth.dimensions = spec.dimensions;
  truth.clusters = generated.truth;
  subscale::io::write_ground_truth(folder_ / "grid.true", truth);
  const fs::path config = write("grid.yaml", "input:\n  path: " + (folder_ / "grid.h5").string() +
                                                 "\nground_truth:\n  path: " + (folder_ / "grid.true").string() + "\n");
  const auto plan = run("plan " + config.string(), "grid-plan.log");
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("so the run pools the subspaces into their pairs of dimensions"), std::string::npos)
      << plan.output;
  const fs::path out = run_into(config, "grid");
  const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
  EXPECT_EQ(summary["evaluation"]["found_clusters"].get<int>(), 3);
  EXPECT_GE(summary["evaluation"]["e4sc"].get<double>(), 0.9);
  EXPECT_NE(read_text(out / "log.txt").find("pooled into"), std::string::npos);
  EXPECT_TRUE(summary["significance"]["pooled"].get<bool>());
  EXPECT_GT(summary["significance"]["chance_dimensions"].get<double>(), 1.0);
  EXPECT_EQ(summary["significance"]["pooled_pairs"].get<int>(), 30 * 29 / 2);
}

// 200 points along the diagonal of dimensions 2 and 6 (sd 0.08 along it, 0.008 across) among
// 1,300 uniform points in 10 dimensions. Its box holds about a sixth of the data in those two
// dimensions, so the whole cluster fails as a box and the run reported a piece of it; judged by a
// rectangle turned to its direction, the piece grows into the whole.
TEST_F(SignificanceRun, AStretchedClusterOfTwoDimensionsComesOutWhole) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> along(0.0, 0.08), across(0.0, 0.008);
  subscale::Dataset data;
  data.values = subscale::Matrix(1500, 10);
  for (Eigen::Index i = 0; i < data.values.rows(); ++i)
    for (Eigen::Index j = 0; j < data.values.cols(); ++j) data.values(i, j) = uniform(rng);
  for (Eigen::Index i = 0; i < 200; ++i) {
    const double t = along(rng), w = across(rng);
    data.values(i, 2) = 0.5 + (t - w) / std::sqrt(2.0);
    data.values(i, 6) = 0.45 + (t + w) / std::sqrt(2.0);
  }
  subscale::io::write_hdf5_dataset(data, (folder_ / "stretched.h5").string());
  const fs::path out =
      run_into(write("stretched.yaml", "input:\n  path: " + (folder_ / "stretched.h5").string() + "\n"), "stretched");
  const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
  EXPECT_GE(summary["significance"]["turned"].get<int>(), 1);
  EXPECT_NE(read_text(out / "log.txt").find("judged by a rectangle turned to the cluster's own direction"),
            std::string::npos);
  const auto found = subscale::evaluate::read_cluster_text(out / "clusters.txt");
  const auto whole = std::find_if(found.begin(), found.end(), [](const auto& c) {
    return c.dimensions == std::vector<std::uint32_t>{2, 6};
  });
  ASSERT_NE(whole, found.end()) << read_text(out / "clusters.txt");
  const auto planted = std::count_if(whole->points.begin(), whole->points.end(), [](auto p) { return p < 200; });
  EXPECT_GE(planted, 170) << "of the 200 planted points";
  EXPECT_LE(static_cast<std::ptrdiff_t>(whole->points.size()) - planted, 30) << "background points taken in";
}

TEST_F(SignificanceRun, BadSettingsAreRefusedByName) {
  const auto alpha =
      run("run " + minimal_config().string() + " significance.alpha=0 --out " + (folder_ / "a").string() + " -q");
  EXPECT_EQ(alpha.exit_code, 2) << alpha.output;
  EXPECT_NE(alpha.output.find("significance.alpha"), std::string::npos) << alpha.output;
  const auto word =
      run("run " + minimal_config().string() + " epsilon=automatic --out " + (folder_ / "b").string() + " -q");
  EXPECT_EQ(word.exit_code, 2) << word.output;
  EXPECT_NE(word.output.find("epsilon"), std::string::npos) << word.output;
}

}  // namespace
