// The pipeline config's `join:` section end to end: `subscale run` attaches the columns
// of a second HDF5 table by id before clustering, drops or refuses unmatched rows, and refuses
// bad keys and missing tables before any run folder exists.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <vector>

#include "common/dataset.hpp"
#include "io/hdf5_dataset_reader.hpp"
#include "io/hdf5_dataset_writer.hpp"
#include "io/hdf5_file.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"
#include "tests/pipeline/planted_cluster_rows.hpp"
#include "tests/source_root.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::Dataset;
namespace io = subscale::io;

using Outcome = subscale::testing::CliOutcome;

using subscale::testing::planted_cluster::clustered_value;
using subscale::testing::planted_cluster::id_of;
using subscale::testing::planted_cluster::kClustered;
using subscale::testing::planted_cluster::kPoints;

// Two input columns with no 1-D cluster at epsilon 0.01: permutations of k / 40. Rows 0..9 form a
// 2-D cluster in the attached columns only (clustered_value).
double input_value(int row, int column) { return ((row * (column == 0 ? 7 : 13)) % kPoints) / double(kPoints); }

class JoinSection : public subscale::testing::CliTest {
 protected:
  // The main input as HDF5: /data (40 x 2) and /ids.
  void write_main_hdf5() {
    Dataset data;
    data.values.resize(kPoints, 2);
    for (int i = 0; i < kPoints; ++i) {
      data.ids.push_back(id_of(i));
      for (int c = 0; c < 2; ++c) data.values(i, c) = input_value(i, c);
    }
    io::write_hdf5_dataset(data, (folder_ / "main.h5").string());
  }

  // The main input as CSV with the ids in column 0.
  void write_main_csv() {
    std::ostringstream text;
    text << "id,a,b\n";
    for (int i = 0; i < kPoints; ++i) text << id_of(i) << "," << input_value(i, 0) << "," << input_value(i, 1) << "\n";
    write("main.csv", text.str());
  }

  // The second table: the input's ids in reverse order (so row order alone cannot line them
  // up), without the ids of `missing` rows, plus three ids the input lacks.
  void write_features(const std::set<int>& missing = {}) {
    std::vector<std::uint64_t> ids;
    std::vector<double> values;  // row-major (rows, 2)
    for (int i = kPoints - 1; i >= 0; --i) {
      if (missing.count(i)) continue;
      ids.push_back(id_of(i));
      values.push_back(clustered_value(i, 0));
      values.push_back(clustered_value(i, 1));
    }
    for (std::uint64_t extra : {5u, 6u, 99999u}) {
      ids.push_back(extra);
      values.push_back(0.25);
      values.push_back(0.75);
    }
    io::Hdf5File file((folder_ / "features.h5").string(), io::Hdf5File::Mode::create_truncate);
    file.write("/ids", ids);
    file.write("/data", {static_cast<std::uint64_t>(ids.size()), 2}, values.data());
  }

  fs::path config(const std::string& input, const std::string& extra = "") {
    return write("config.yaml",
                 "input:\n  path: " + input +
                     "\nepsilon: 0.01\nmin_points: 3\nsignificance:\n  enabled: false\njoin:\n  path: features.h5\n" +
                     extra);
  }

  Outcome run_into(const fs::path& config_file, const std::string& name, const std::string& overrides = "") {
    return run("run " + config_file.string() + " " + overrides + " --out " + (folder_ / name).string() + " -q");
  }

  std::string read(const fs::path& file) { return subscale::testing::read_text(file); }

  std::vector<std::string> lines(const fs::path& file) {
    std::vector<std::string> out;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(line);
    return out;
  }
};

const std::string kClusterLine = "{2, 3}-[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";

TEST_F(JoinSection, AttachedColumnsAreClusteredAfterTheInputColumns) {
  write_main_hdf5();
  write_features();
  const auto out = run_into(config("main.h5"), "run");
  ASSERT_EQ(out.exit_code, 0) << out.output;
  const auto summary = nlohmann::json::parse(std::ifstream(folder_ / "run" / "summary.json"));
  EXPECT_EQ(summary["points"], kPoints);
  EXPECT_EQ(summary["dimensions"], 4);  // 2 of the input, then 2 attached
  EXPECT_TRUE(summary["timings_seconds"].contains("join"));
  // The input columns have no 1-D cluster, so every subspace lies in the attached columns, and
  // the cluster shows that each row took the values of its own id, not of its table row.
  EXPECT_EQ(lines(folder_ / "run" / "subspaces.txt"), std::vector<std::string>{kClusterLine});
  const std::string log = read(folder_ / "run" / "log.txt");
  EXPECT_NE(log.find("join        attached 2 columns from "), std::string::npos) << log;
  EXPECT_NE(log.find("features.h5, 40 rows matched, 0 dropped"), std::string::npos) << log;
  EXPECT_NE(read(folder_ / "run" / "config.yaml").find("unmatched: error"), std::string::npos);

  // Without the join the same input has no subspace at all.
  write("plain.yaml", "input:\n  path: main.h5\nepsilon: 0.01\nmin_points: 3\n");
  const auto plain = run_into(folder_ / "plain.yaml", "plain");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_TRUE(lines(folder_ / "plain" / "subspaces.txt").empty());
}

TEST_F(JoinSection, SplitQuickstartRejoinsToTheSameClusters) {
  // The shipped dataset cut in two: its first 10 columns with ids, and its last 10 in a shuffled
  // table keyed by (signed) ids with an extra row. Joined, the run must equal the run on the whole.
  const Dataset whole =
      io::read_hdf5_dataset((subscale::testing::source_root() / "datasets" / "quickstart.h5").string());
  const auto n = static_cast<Eigen::Index>(whole.points());
  ASSERT_EQ(whole.dimensions(), 20u);
  Dataset left;
  left.values = whole.values.leftCols(10);
  for (Eigen::Index i = 0; i < n; ++i) left.ids.push_back(3 * static_cast<std::uint64_t>(i) + 17);
  io::write_hdf5_dataset(left, (folder_ / "left.h5").string());
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  std::vector<std::int64_t> ids;
  std::vector<double> values;  // row-major (n + 1, 10)
  for (const Eigen::Index i : order) {
    ids.push_back(static_cast<std::int64_t>(left.ids[static_cast<std::size_t>(i)]));
    for (Eigen::Index c = 10; c < 20; ++c) values.push_back(whole.values(i, c));
  }
  ids.push_back(1);  // no input row has id 1
  values.insert(values.end(), 10, 0.5);
  {
    io::Hdf5File file((folder_ / "features.h5").string(), io::Hdf5File::Mode::create_truncate);
    file.write("/ids", ids);
    file.write("/data", {ids.size(), 10}, values.data());
  }
  const std::string quickstart = (subscale::testing::source_root() / "datasets" / "quickstart.h5").string();
  write("whole.yaml", "input:\n  path: " + quickstart + "\nepsilon: 0.004\nmin_points: 4\n");
  write("split.yaml", "input:\n  path: left.h5\nepsilon: 0.004\nmin_points: 4\njoin:\n  path: features.h5\n");
  const auto a = run_into(folder_ / "whole.yaml", "whole");
  const auto b = run_into(folder_ / "split.yaml", "split");
  ASSERT_EQ(a.exit_code, 0) << a.output;
  ASSERT_EQ(b.exit_code, 0) << b.output;
  const auto found = lines(folder_ / "split" / "subspaces.txt");
  EXPECT_FALSE(found.empty());
  EXPECT_EQ(found, lines(folder_ / "whole" / "subspaces.txt"));
  EXPECT_EQ(lines(folder_ / "split" / "clusters.txt"), lines(folder_ / "whole" / "clusters.txt"));
}

TEST_F(JoinSection, KeyColumnOfACsvInputLeavesTheMatrix) {
  write_main_csv();
  write_features();
  const auto out = run_into(config("main.csv", "  key: 0\n  backend: cpu\n"), "run");
  ASSERT_EQ(out.exit_code, 0) << out.output;
  const auto summary = nlohmann::json::parse(std::ifstream(folder_ / "run" / "summary.json"));
  EXPECT_EQ(summary["dimensions"], 4);  // a, b, then the 2 attached; the id column is gone
  EXPECT_EQ(lines(folder_ / "run" / "subspaces.txt"), std::vector<std::string>{kClusterLine});

  // A CSV input has no ids of its own, and a non-integer key column is refused.
  const auto no_ids = run_into(folder_ / "config.yaml", "r1", "join.key=ids");
  EXPECT_EQ(no_ids.exit_code, 3) << no_ids.output;
  EXPECT_NE(no_ids.output.find("join.key"), std::string::npos) << no_ids.output;
  const auto fractional = run_into(folder_ / "config.yaml", "r2", "join.key=1");
  EXPECT_EQ(fractional.exit_code, 3) << fractional.output;
  EXPECT_NE(fractional.output.find("not a whole number"), std::string::npos) << fractional.output;
  EXPECT_FALSE(fs::exists(folder_ / "r1"));
  EXPECT_FALSE(fs::exists(folder_ / "r2"));

  // Taking a column out renumbers the dimensions a ground truth names.
  const fs::path truth = write("truth.true", "DIM=4\n0 0 1 1 10 0 1 2 3 4 5 6 7 8 9\n");
  const auto with_truth = run_into(folder_ / "config.yaml", "r3", "ground_truth.path=" + truth.string());
  EXPECT_EQ(with_truth.exit_code, 2) << with_truth.output;
  EXPECT_NE(with_truth.output.find("ground_truth.path"), std::string::npos) << with_truth.output;
  EXPECT_FALSE(fs::exists(folder_ / "r3"));
}

TEST_F(JoinSection, UnmatchedRowsAreDroppedOrRefused) {
  write_main_hdf5();
  write_features({30, 31, 32, 33, 34});
  const auto refused = run_into(config("main.h5"), "refused");
  EXPECT_EQ(refused.exit_code, 3) << refused.output;
  EXPECT_NE(refused.output.find("5 of 40 data rows"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("join.unmatched=drop"), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(folder_ / "refused"));

  const auto dropped = run_into(folder_ / "config.yaml", "dropped", "join.unmatched=drop");
  ASSERT_EQ(dropped.exit_code, 0) << dropped.output;
  const auto summary = nlohmann::json::parse(std::ifstream(folder_ / "dropped" / "summary.json"));
  EXPECT_EQ(summary["points"], kPoints - 5);
  EXPECT_EQ(summary["dimensions"], 4);
  // Kept rows stay in input order, so the clustered rows 0..9 keep their numbers.
  EXPECT_EQ(lines(folder_ / "dropped" / "subspaces.txt"), std::vector<std::string>{kClusterLine});
  const std::string log = read(folder_ / "dropped" / "log.txt");
  EXPECT_NE(log.find("35 rows matched, 5 dropped"), std::string::npos) << log;
}

TEST_F(JoinSection, GroundTruthIsEvaluatedUnlessRowsAreDropped) {
  write_main_hdf5();
  write("truth.true", "DIM=4;FILE=main.h5\n0 0 1 1 10 0 1 2 3 4 5 6 7 8 9\n");
  write_features();
  const auto whole = run_into(config("main.h5", "ground_truth:\n  path: truth.true\n"), "whole");
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  const auto summary = nlohmann::json::parse(std::ifstream(folder_ / "whole" / "summary.json"));
  EXPECT_DOUBLE_EQ(summary["evaluation"]["f1"].get<double>(), 1.0);

  // Dropped rows would renumber the points the ground truth names.
  write_features({35});
  const auto dropped = run_into(folder_ / "config.yaml", "dropped", "join.unmatched=drop");
  EXPECT_EQ(dropped.exit_code, 2) << dropped.output;
  EXPECT_NE(dropped.output.find("ground_truth.path"), std::string::npos) << dropped.output;
  EXPECT_FALSE(fs::exists(folder_ / "dropped"));
}

TEST_F(JoinSection, MissingTableOrDatasetIsAnInputErrorAndLeavesNothing) {
  write_main_hdf5();
  const auto no_file = run_into(config("main.h5"), "r1");
  EXPECT_EQ(no_file.exit_code, 3) << no_file.output;
  EXPECT_NE(no_file.output.find("features.h5"), std::string::npos) << no_file.output;
  EXPECT_NE(no_file.output.find("join.path"), std::string::npos) << no_file.output;
  EXPECT_FALSE(fs::exists(folder_ / "r1"));

  write_features();
  for (const std::string key : {"join.dataset", "join.ids"}) {
    const auto no_dataset = run_into(folder_ / "config.yaml", "r2", key + "=/absent");
    EXPECT_EQ(no_dataset.exit_code, 3) << no_dataset.output;
    EXPECT_NE(no_dataset.output.find("/absent"), std::string::npos) << no_dataset.output;
    EXPECT_NE(no_dataset.output.find(key), std::string::npos) << no_dataset.output;
    EXPECT_FALSE(fs::exists(folder_ / "r2"));
  }

  // A NaN in the attached columns is refused like one in the input, with its row and column.
  {
    io::Hdf5File file((folder_ / "features.h5").string(), io::Hdf5File::Mode::create_truncate);
    file.write("/ids", std::vector<std::uint64_t>{id_of(0), id_of(1)});
    const std::vector<double> values = {0.1, 0.2, 0.3, std::nan("")};
    file.write("/data", {2, 2}, values.data());
  }
  const auto nan = run_into(folder_ / "config.yaml", "r3", "join.unmatched=drop");
  EXPECT_EQ(nan.exit_code, 3) << nan.output;
  EXPECT_NE(nan.output.find("row 2"), std::string::npos) << nan.output;
  EXPECT_FALSE(fs::exists(folder_ / "r3"));
}

TEST_F(JoinSection, BadKeyValuesExitTwoAndNameTheKey) {
  write_main_hdf5();
  write_features();
  const fs::path file = config("main.h5");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"join.unmatched=maybe", "join.unmatched"},
      {"join.backend=gpu", "join.backend"},
      {"join.key=first", "join.key"},
      {"join.key=-1", "join.key"},
      {"join.key=7", "join.key"},  // the input has 2 columns
      {"join.dataset=''", "join.dataset"},
      {"join.frobnicate=1", "join.frobnicate"},
  };
  for (const auto& [override_text, key] : cases) {
    const auto out = run_into(file, "r", override_text);
    EXPECT_EQ(out.exit_code, 2) << override_text << ": " << out.output;
    EXPECT_NE(out.output.find(key), std::string::npos) << override_text << ": " << out.output;
    EXPECT_FALSE(fs::exists(folder_ / "r")) << override_text;
  }
}

TEST_F(JoinSection, DroppedRowsLeavePointsNamedByTheirInputRows) {
  // Rows 0..2 have no features: the points are input rows 3..39, and the clustered rows keep
  // their input numbers 3..9 in every output (they would be positions 0..6 of the joined matrix).
  write_main_hdf5();
  write_features({0, 1, 2});
  const auto dropped = run_into(config("main.h5"), "dropped", "join.unmatched=drop");
  ASSERT_EQ(dropped.exit_code, 0) << dropped.output;
  EXPECT_EQ(lines(folder_ / "dropped" / "subspaces.txt"), std::vector<std::string>{"{2, 3}-[3, 4, 5, 6, 7, 8, 9]"});
  const auto summary = nlohmann::json::parse(std::ifstream(folder_ / "dropped" / "summary.json"));
  EXPECT_EQ(summary["points"], kPoints - 3);
  EXPECT_EQ(summary["input_rows"], kPoints);
  EXPECT_EQ(summary["point_ids"], "input_row");
  io::Hdf5File results((folder_ / "dropped" / "results.h5").string(), io::Hdf5File::Mode::read);
  std::vector<std::uint64_t> rows(kPoints - 3);
  std::iota(rows.begin(), rows.end(), std::uint64_t{3});
  EXPECT_EQ(results.read<std::uint64_t>("/points/input_row").data, rows);
  EXPECT_EQ(results.read<std::uint32_t>("/subspaces/points").data, (std::vector<std::uint32_t>{3, 4, 5, 6, 7, 8, 9}));
}

}  // namespace
