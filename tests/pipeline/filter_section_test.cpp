// The pipeline config's `filter:` section end to end: `subscale run` keeps only the
// rows a predicate selects before normalising, refuses a dropping filter with ground truth, and
// refuses a bad predicate before any run folder exists.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "io/hdf5_dataset_writer.hpp"
#include "io/hdf5_file.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"
#include "tests/pipeline/planted_cluster_rows.hpp"

namespace {

namespace fs = std::filesystem;
using Outcome = subscale::testing::CliOutcome;

using subscale::testing::planted_cluster::clustered_value;
using subscale::testing::planted_cluster::id_of;
using subscale::testing::planted_cluster::kClustered;
using subscale::testing::planted_cluster::kPoints;

class FilterSection : public subscale::testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    subscale::Dataset data;
    data.values.resize(kPoints, 2);
    for (int i = 0; i < kPoints; ++i) {
      data.ids.push_back(id_of(i));
      for (int c = 0; c < 2; ++c) data.values(i, c) = clustered_value(i, c);
    }
    subscale::io::write_hdf5_dataset(data, (folder_ / "main.h5").string());
  }

  Outcome run_with(const std::string& filter, const std::string& name, const std::string& extra = "") {
    const fs::path config = write(
        name + ".yaml", "input:\n  path: main.h5\nepsilon: 0.01\nmin_points: 3\nnormalize: none\n" + filter + extra);
    return run("run " + config.string() + " --out " + (folder_ / name).string() + " -q");
  }

  nlohmann::json summary(const std::string& name) {
    return nlohmann::json::parse(std::ifstream(folder_ / name / "summary.json"));
  }
  std::string subspaces(const std::string& name) {
    return subscale::testing::read_text(folder_ / name / "subspaces.txt");
  }
};

TEST_F(FilterSection, KeepsTheSelectedRowsBeforeClustering) {
  // Rows 0..19 by id: the cluster of rows 0..9 is still there, among 20 points.
  const auto kept =
      run_with("filter:\n  backend: cpu\n  where: {column: id, lt: " + std::to_string(id_of(20)) + "}\n", "kept");
  ASSERT_EQ(kept.exit_code, 0) << kept.output;
  EXPECT_EQ(summary("kept")["points"], 20);
  EXPECT_TRUE(summary("kept")["timings_seconds"].contains("filter"));
  EXPECT_NE(subspaces("kept").find("[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"), std::string::npos) << subspaces("kept");
  EXPECT_NE(subscale::testing::read_text(folder_ / "kept" / "log.txt").find("filter      kept 20 of 40 rows"),
            std::string::npos);
  // Dropping the clustered rows by value (c0 above 0.51 and below 0.52) leaves no subspace.
  const auto dropped =
      run_with("filter:\n  backend: cpu\n  where: {not: {column: c0, between: [0.51, 0.52]}}\n", "dropped");
  ASSERT_EQ(dropped.exit_code, 0) << dropped.output;
  EXPECT_EQ(summary("dropped")["points"], 30);
  EXPECT_EQ(subspaces("dropped").find("-["), std::string::npos) << subspaces("dropped");
}

TEST_F(FilterSection, GroundTruthAllowsOnlyAFilterThatKeepsEveryRow) {
  const fs::path truth = write("truth.true", "DIM=2\n1 1 10 0 1 2 3 4 5 6 7 8 9\n");
  const std::string with_truth = "ground_truth:\n  path: " + truth.string() + "\n";
  const auto refused = run_with("filter:\n  where: {column: c1, gt: 0.1}\n", "refused", with_truth);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("ground_truth.path"), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(folder_ / "refused"));
  const auto all = run_with("filter:\n  where: {column: c1, ge: 0}\n", "all", with_truth);
  EXPECT_EQ(all.exit_code, 0) << all.output;
}

TEST_F(FilterSection, BadPredicatesAreConfigErrors) {
  const auto unknown = run_with("filter:\n  where: {column: c7, lt: 1}\n", "unknown");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("unknown column 'c7'"), std::string::npos) << unknown.output;
  const auto strings = run_with("filter:\n  where: {column: c0, prefix: a}\n", "strings");
  EXPECT_EQ(strings.exit_code, 2) << strings.output;
  EXPECT_FALSE(fs::exists(folder_ / "unknown"));
  EXPECT_FALSE(fs::exists(folder_ / "strings"));
  const auto none = run_with("filter:\n  where: {column: c0, gt: 5}\n", "none");
  EXPECT_EQ(none.exit_code, 3) << none.output;
}

TEST_F(FilterSection, PointsAreNamedByTheirInputRowsInEveryOutput) {
  // Rows 0..4 filtered out: the clustered rows left are input rows 5..9 (positions 0..4 of the
  // filtered matrix), and every output names them 5..9.
  const auto run_out =
      run_with("filter:\n  backend: cpu\n  where: {column: id, ge: " + std::to_string(id_of(5)) + "}\n", "late",
               "significance:\n  enabled: false\n");
  ASSERT_EQ(run_out.exit_code, 0) << run_out.output;
  EXPECT_NE(subspaces("late").find("[5, 6, 7, 8, 9]"), std::string::npos) << subspaces("late");
  EXPECT_EQ(subspaces("late").find("[0, 1, 2, 3, 4]"), std::string::npos) << subspaces("late");
  EXPECT_EQ(summary("late")["points"], kPoints - 5);
  EXPECT_EQ(summary("late")["input_rows"], kPoints);
  {
    subscale::io::Hdf5File results((folder_ / "late" / "results.h5").string(), subscale::io::Hdf5File::Mode::read);
    const auto rows = results.read<std::uint64_t>("/points/input_row").data;
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(kPoints - 5));
    EXPECT_EQ(rows.front(), 5u);
    EXPECT_EQ(rows.back(), static_cast<std::uint64_t>(kPoints - 1));
  }
  // The log says how points are named.
  EXPECT_NE(subscale::testing::read_text(folder_ / "late" / "log.txt").find("named by their rows"), std::string::npos);
  // evaluate scores the run against a truth of the input's rows, over the input's 40 rows.
  const fs::path truth = write("truth.true", "DIM=2\n1 1 5 5 6 7 8 9\n");
  const auto scored = run("evaluate --found " + (folder_ / "late").string() + " --truth " + truth.string(), "ev.log");
  EXPECT_EQ(scored.exit_code, 0) << scored.output;
  EXPECT_NE(scored.output.find("points: 40\n"), std::string::npos) << scored.output;
  // The report reads the input again and finds the points at their positions.
  const auto report = run("report " + (folder_ / "late").string(), "report.log");
  EXPECT_EQ(report.exit_code, 0) << report.output;
  const std::string html = subscale::testing::read_text(folder_ / "late" / "report.html");
  EXPECT_EQ(html.find("changed since the run"), std::string::npos);
  EXPECT_NE(html.find("class=\"scatter\""), std::string::npos);
}

}  // namespace
