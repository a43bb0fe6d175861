// memberships.csv, the per-point table of a run folder: one line per clustered point, its input
// row, its strongest cluster and every cluster holding it. Checked against a small example by
// hand, and against the run's own clusters.txt (every membership the table lists is a point of
// that cluster, and every point of every cluster is listed), with and without filter.where.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "io/hdf5_dataset_writer.hpp"
#include "io/hdf5_file.hpp"
#include "pipeline/output/memberships_writer.hpp"
#include "stages/evaluate/cluster_text.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"
#include "tests/pipeline/planted_cluster_rows.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::SubspaceCluster;
using subscale::pipeline::memberships_of;
using subscale::testing::read_text;

struct Line {
  std::string strongest;            // empty for none
  std::vector<std::size_t> listed;  // the clusters column
};

// The table by input row; fails the test on a line that is not row,strongest,c1;c2;...
std::map<std::uint64_t, Line> read_table(const fs::path& file) {
  std::map<std::uint64_t, Line> table;
  std::istringstream in(read_text(file));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "row,strongest,clusters");
  while (std::getline(in, line)) {
    const auto first = line.find(','), second = line.find(',', first + 1);
    EXPECT_NE(second, std::string::npos) << line;
    if (second == std::string::npos) continue;
    Line parsed{line.substr(first + 1, second - first - 1), {}};
    std::istringstream clusters(line.substr(second + 1));
    for (std::string c; std::getline(clusters, c, ';');) parsed.listed.push_back(std::stoul(c));
    EXPECT_TRUE(table.emplace(std::stoull(line.substr(0, first)), parsed).second) << "row listed twice: " << line;
  }
  return table;
}

// The table and the clusters say the same, and the strongest is the listed cluster of the highest
// interest, the first on ties.
void expect_table_is_the_clusters(const fs::path& run, const std::vector<std::uint64_t>& rows) {
  const auto clusters = subscale::evaluate::read_cluster_text(run / "clusters.txt");
  const auto table = read_table(run / "memberships.csv");
  ASSERT_EQ(table.size(), rows.size());
  std::size_t i = 0;
  for (const auto& [row, line] : table) EXPECT_EQ(row, rows[i++]);
  std::size_t memberships = 0;
  for (std::size_t c = 0; c < clusters.size(); ++c)
    for (std::uint32_t p : clusters[c].points) {
      ASSERT_TRUE(table.count(p)) << "cluster " << c << " holds row " << p << ", which the table does not list";
      const auto& listed = table.at(p).listed;
      EXPECT_NE(std::find(listed.begin(), listed.end(), c), listed.end()) << "row " << p << " cluster " << c;
      ++memberships;
    }
  std::size_t listed_total = 0;
  for (const auto& [row, line] : table) {
    listed_total += line.listed.size();
    EXPECT_TRUE(std::is_sorted(line.listed.begin(), line.listed.end())) << row;
    if (line.listed.empty()) {
      EXPECT_EQ(line.strongest, "") << row;
      continue;
    }
    std::size_t best = line.listed[0];
    const auto interest = [&](std::size_t c) { return clusters[c].points.size() * clusters[c].dimensions.size(); };
    for (std::size_t c : line.listed) best = interest(c) > interest(best) ? c : best;
    EXPECT_EQ(line.strongest, std::to_string(best)) << row;
  }
  EXPECT_EQ(listed_total, memberships);  // nothing listed that no cluster holds
}

TEST(Memberships, EachPointListsItsClustersAndTheStrongest) {
  // Cluster 0: rows 1, 3 in 1 dimension (interest 2); cluster 1: rows 3, 4 in 2 (interest 4).
  const std::vector<SubspaceCluster> clusters{{{0}, {1, 3}}, {{0, 1}, {3, 4}}};
  const auto by_interest = memberships_of(clusters, 5, {});
  EXPECT_EQ(by_interest.offsets, (std::vector<std::uint64_t>{0, 0, 1, 1, 3, 4}));
  EXPECT_EQ(by_interest.clusters, (std::vector<std::uint32_t>{0, 0, 1, 1}));
  EXPECT_EQ(by_interest.strongest, (std::vector<std::int64_t>{-1, 0, -1, 1, 1}));
  // Equal interest keeps the first.
  EXPECT_EQ(memberships_of({{{0}, {3, 4}}, {{1}, {3, 4}}}, 5, {}).strongest[3], 0);
  // Points named by input row: rows 1, 3, 4 and 8 were clustered, at positions 0..3.
  const auto by_row = memberships_of(clusters, 4, {1, 3, 4, 8});
  EXPECT_EQ(by_row.offsets, (std::vector<std::uint64_t>{0, 1, 3, 4, 4}));
  EXPECT_EQ(by_row.strongest, (std::vector<std::int64_t>{0, 1, 1, -1}));
  EXPECT_THROW(memberships_of({{{0}, {2}}}, 4, {1, 3, 4, 8}), subscale::Error);
}

class MembershipsFile : public subscale::testing::CliTest {};

TEST_F(MembershipsFile, EqualsClustersTxtOfARunWithOverlappingClusters) {
  // Without consolidation the quickstart's hidden clusters come as 40 overlapping projections.
  const fs::path out = folder_ / "raw";
  const auto outcome = run("run " + (subscale::testing::source_root() / "configs" / "quickstart.yaml").string() +
                           " consolidate=off significance.enabled=false --out " + out.string() + " -q");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  std::vector<std::uint64_t> rows(1000);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
  expect_table_is_the_clusters(out, rows);
  std::size_t shared = 0;
  for (const auto& [row, line] : read_table(out / "memberships.csv")) shared += line.listed.size() > 1;
  EXPECT_GT(shared, 0u) << "the projections were meant to overlap";
}

TEST_F(MembershipsFile, AfterAFilterListsTheClusteredInputRows) {
  using namespace subscale::testing::planted_cluster;
  subscale::Dataset data;
  data.values.resize(kPoints, 2);
  for (int i = 0; i < kPoints; ++i) {
    data.ids.push_back(id_of(i));
    for (int c = 0; c < 2; ++c) data.values(i, c) = clustered_value(i, c);
  }
  subscale::io::write_hdf5_dataset(data, (folder_ / "main.h5").string());
  // Rows 0..4 dropped: the cluster is input rows 5..9, the table lists rows 5..39.
  const fs::path config = write("late.yaml",
                                "input:\n  path: main.h5\nepsilon: 0.01\nmin_points: 3\nnormalize: none\n"
                                "significance:\n  enabled: false\nfilter:\n  where: {column: id, ge: " +
                                    std::to_string(id_of(5)) + "}\n");
  const auto outcome = run("run " + config.string() + " --out " + (folder_ / "late").string() + " -q");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  std::vector<std::uint64_t> rows;
  {
    const subscale::io::Hdf5File results((folder_ / "late" / "results.h5").string(),
                                         subscale::io::Hdf5File::Mode::read);
    rows = results.read<std::uint64_t>("/points/input_row").data;
  }
  ASSERT_EQ(rows.front(), 5u);
  expect_table_is_the_clusters(folder_ / "late", rows);
  EXPECT_EQ(read_table(folder_ / "late" / "memberships.csv").at(5).strongest, "0");
}

TEST_F(MembershipsFile, OutputTextOffLeavesItOutWithTheOtherTextFiles) {
  const fs::path out = folder_ / "quiet";
  const auto outcome = run("run " + (subscale::testing::source_root() / "configs" / "quickstart.yaml").string() +
                           " output.text=false --out " + out.string() + " -q");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_FALSE(fs::exists(out / "memberships.csv"));
  EXPECT_FALSE(fs::exists(out / "clusters.txt"));
}

}  // namespace
