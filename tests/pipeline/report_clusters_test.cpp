// The report's cluster sections, read back from the HTML against the run's results.h5: the table
// lists the first 50 clusters by rank (score when results.h5 has /clusters/score, else points x
// dimensions) with their dimensions by name, the map has one filled cell per (cluster, dimension),
// and each scatter marks exactly the cluster's members. A run without clusters, and one whose
// input has gone, still get a report.
#include "pipeline/report/report_clusters.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "io/cluster_list_hdf5.hpp"
#include "io/hdf5_file.hpp"
#include "pipeline/report/report_html.hpp"
#include "tests/pipeline/report_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::SubspaceCluster;
using subscale::testing::read_text;

// The section with this id, from its opening tag to its closing one.
std::string section_of(const std::string& html, const std::string& id) {
  const std::string open = "<section id=\"" + id + "\">";
  const auto begin = html.find(open);
  if (begin == std::string::npos) return "";
  return html.substr(begin, html.find("</section>", begin) - begin);
}

std::vector<std::smatch> matches(const std::string& text, const std::string& pattern) {
  std::vector<std::smatch> all;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    all.push_back(*it);
  return all;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++count;
  return count;
}

struct Expected {
  std::vector<SubspaceCluster> clusters;  // by rank
  std::vector<double> scores;
};

// The clusters of results.h5 in the report's order: score (or interest) descending, ties by the
// file's order.
Expected ranked_clusters(const fs::path& results) {
  const subscale::io::Hdf5File file(results.string(), subscale::io::Hdf5File::Mode::read);
  const auto clusters = subscale::io::read_cluster_list(file, "/clusters");
  std::vector<double> score;
  if (file.exists("/clusters/score"))
    score = file.read<double>("/clusters/score").data;
  else
    for (const auto& c : clusters) score.push_back(static_cast<double>(c.points.size() * c.dimensions.size()));
  std::vector<std::size_t> order(clusters.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
  Expected expected;
  for (std::size_t c : order) expected.clusters.push_back(clusters[c]), expected.scores.push_back(score[c]);
  return expected;
}

// Table rows as (rank, dimensions text, |S|, points).
struct Row {
  std::size_t rank, dimensions, points;
  std::string names;
};

std::vector<Row> table_rows(const std::string& html) {
  std::vector<Row> rows;
  const std::string table = section_of(html, "clusters");  // the matches point into it
  for (const auto& m : matches(table,
                               "<tr class=\"cluster-row\" data-rank=\"(\\d+)\"><td>\\d+</td><td>([^<]*)</td><td>(\\d+)"
                               "</td><td>(\\d+)</td>"))
    rows.push_back({std::stoul(m[1]), std::stoul(m[3]), std::stoul(m[4]), m[2]});
  return rows;
}

// Checks the three sections against the ranked clusters; `name` gives a dimension's name.
template <class Name>
void check_sections(const std::string& html, const Expected& expected, Name name) {
  const std::size_t shown = std::min<std::size_t>(subscale::pipeline::kTableClusters, expected.clusters.size());
  const auto rows = table_rows(html);
  ASSERT_EQ(rows.size(), shown);
  for (std::size_t r = 0; r < shown; ++r) {
    const auto& c = expected.clusters[r];
    EXPECT_EQ(rows[r].rank, r + 1);
    EXPECT_EQ(rows[r].dimensions, c.dimensions.size()) << "rank " << r + 1;
    EXPECT_EQ(rows[r].points, c.points.size()) << "rank " << r + 1;
    if (c.dimensions.size() <= 12) {
      std::string names;
      for (std::size_t i = 0; i < c.dimensions.size(); ++i) names += (i ? ", " : "") + name(c.dimensions[i]);
      EXPECT_EQ(rows[r].names, names) << "rank " << r + 1;
    }
  }
  if (expected.clusters.size() > shown) {
    EXPECT_NE(section_of(html, "clusters").find(std::to_string(expected.clusters.size() - shown) + " more"),
              std::string::npos);
  }

  // The map: one filled cell per (cluster, dimension) of the shown clusters, in their rows.
  const std::string map = section_of(html, "cluster-map");
  const auto cells = matches(map, "class=\"present\" data-row=\"(\\d+)\" data-column=\"(\\d+)\"");
  std::size_t expected_cells = 0;
  for (std::size_t r = 0; r < shown; ++r) expected_cells += expected.clusters[r].dimensions.size();
  EXPECT_EQ(cells.size(), expected_cells);
  std::vector<std::size_t> per_row(shown, 0);
  for (const auto& cell : cells) {
    const std::size_t row = std::stoul(cell[1]);
    ASSERT_LT(row, shown);
    ++per_row[row];
  }
  for (std::size_t r = 0; r < shown; ++r) EXPECT_EQ(per_row[r], expected.clusters[r].dimensions.size()) << r;

  // The scatters: the strongest clusters, each with exactly its members marked (all of them, as
  // these runs are smaller than the sample cap), and every other point in grey.
  const std::string scatter = section_of(html, "cluster-scatter");
  const auto figures = matches(scatter, "<figure class=\"scatter\" data-rank=\"(\\d+)\" data-members=\"(\\d+)\"");
  ASSERT_EQ(figures.size(), std::min(subscale::pipeline::kScatterClusters, expected.clusters.size()));
  std::size_t at = 0;
  for (std::size_t f = 0; f < figures.size(); ++f) {
    EXPECT_EQ(std::stoul(figures[f][1]), f + 1);
    EXPECT_EQ(std::stoul(figures[f][2]), expected.clusters[f].points.size());
    at = scatter.find("<figure", at + 1);
    const std::string figure = scatter.substr(at, scatter.find("</figure>", at) - at);
    const auto members = figure.substr(figure.find("<g class=\"members\""));
    EXPECT_EQ(occurrences(members.substr(0, members.find("</g>")), "<circle"), expected.clusters[f].points.size());
  }
}

using ReportClusters = subscale::testing::ReportTest;

std::string d_name(std::uint32_t d) { return std::string(1, 'd').append(std::to_string(d)); }

TEST_F(ReportClusters, ConsolidatedClustersAreTabledMappedAndScattered) {
  const fs::path run_folder = run_quickstart("");
  const std::string html = read_text(run_folder / "report.html");
  const Expected expected = ranked_clusters(run_folder / "results.h5");
  ASSERT_EQ(expected.clusters.size(), 5u);  // the quickstart's five hidden clusters
  check_sections(html, expected, d_name);
  // No /clusters/score: the page says significance was off and ranks by interest.
  EXPECT_NE(section_of(html, "clusters").find("Significance was off"), std::string::npos);
  EXPECT_NE(section_of(html, "clusters").find("interest (points x dimensions)"), std::string::npos);
}

TEST_F(ReportClusters, MoreThanFiftyClustersShowTheFirstFiftyAndSayHowManyMore) {
  const fs::path run_folder = run_quickstart("merge.epsilon=auto merge.min_points=auto consolidate=off");
  const std::string html = read_text(run_folder / "report.html");
  const Expected expected = ranked_clusters(run_folder / "results.h5");
  ASSERT_GT(expected.clusters.size(), 50u) << "the setting is meant to leave many chance clusters";
  check_sections(html, expected, d_name);
}

TEST_F(ReportClusters, AScoreInResultsOrdersTheClustersAndIsShown) {
  const fs::path run_folder = run_quickstart("consolidate=off");
  const fs::path results = run_folder / "results.h5";
  std::size_t count = 0;
  {
    subscale::io::Hdf5File file(results.string(), subscale::io::Hdf5File::Mode::read_write);
    count = subscale::io::read_cluster_list(file, "/clusters").size();
    // A score that reverses the file's order: the last cluster is the strongest.
    std::vector<double> score(count);
    for (std::size_t c = 0; c < count; ++c) score[c] = 0.5 + static_cast<double>(c);
    file.write("/clusters/score", score);
    file.close();
  }
  ASSERT_GT(count, 4u);
  ASSERT_EQ(run("report " + run_folder.string(), "report.log").exit_code, 0);
  const std::string html = read_text(run_folder / "report.html");
  const Expected expected = ranked_clusters(results);
  check_sections(html, expected, d_name);
  const std::string table = section_of(html, "clusters");
  EXPECT_EQ(table.find("Significance was off"), std::string::npos);
  EXPECT_NE(table.find("-log10 of the corrected p-value"), std::string::npos);
  EXPECT_NE(table.find("<td>" + std::to_string(count - 1) + ".50</td>"), std::string::npos);
}

TEST_F(ReportClusters, ARunWithoutClustersStillGetsItsReport) {
  // merge.min_points = 1000, all the points: no subspace's points are dense enough for a cluster.
  for (const std::string extra : {"merge.min_points=1000", "merge.enabled=false"}) {
    const fs::path run_folder = run_quickstart(extra);
    const std::string html = read_text(run_folder / "report.html");
    for (const char* id : subscale::pipeline::kReportSections)
      EXPECT_NE(html.find("<section id=\"" + std::string(id) + "\">"), std::string::npos) << extra << " " << id;
    EXPECT_TRUE(table_rows(html).empty()) << extra;
    EXPECT_EQ(html.find("<figure"), std::string::npos) << extra;
    fs::remove_all(run_folder);
  }
}

TEST_F(ReportClusters, AnInputThatIsGoneLeavesTheTableAndMapAndSaysWhyThereIsNoScatter) {
  const fs::path copy = folder_ / "copy.h5";
  fs::copy_file(subscale::testing::source_root() / "datasets" / "quickstart.h5", copy);
  const fs::path run_folder = run_quickstart("input.path=" + copy.string());
  fs::remove(copy);
  ASSERT_EQ(run("report " + run_folder.string(), "report.log").exit_code, 0);
  const std::string html = read_text(run_folder / "report.html");
  EXPECT_EQ(table_rows(html).size(), 5u);
  EXPECT_NE(section_of(html, "cluster-map").find("class=\"present\""), std::string::npos);
  const std::string scatter = section_of(html, "cluster-scatter");
  EXPECT_EQ(scatter.find("<figure"), std::string::npos);
  EXPECT_NE(scatter.find("could not be read again"), std::string::npos) << scatter;
  EXPECT_NE(scatter.find("copy.h5"), std::string::npos) << scatter;
}

// A CSV input with a header: results.h5 keeps the names and the report shows them.
TEST_F(ReportClusters, ColumnNamesFromACsvHeaderNameTheDimensions) {
  const std::vector<std::string> names = {"height", "weight", "age", "income", "score", "depth"};
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> uniform(0, 1), narrow(0.40, 0.42);
  std::ofstream csv(folder_ / "people.csv");
  for (std::size_t j = 0; j < names.size(); ++j) csv << (j ? "," : "") << names[j];
  csv << "\n";
  for (int i = 0; i < 300; ++i) {
    for (std::size_t j = 0; j < names.size(); ++j)
      csv << (j ? "," : "") << ((i < 60 && (j == 1 || j == 4)) ? narrow(random) : uniform(random));
    csv << "\n";
  }
  csv.close();
  const fs::path config = write("people.yaml",
                                "input:\n  path: people.csv\nepsilon: 0.01\nmin_points: 4\nmerge:\n  epsilon: 0.03\n"
                                "  min_points: 10\nreport: true\n");
  const fs::path run_folder = folder_ / "run";
  const auto outcome = run("run " + config.string() + " --out " + run_folder.string() + " -q", "run.log");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  {
    const subscale::io::Hdf5File file((run_folder / "results.h5").string(), subscale::io::Hdf5File::Mode::read);
    EXPECT_EQ(file.read_string_attribute("/input", "column_names"), "height\nweight\nage\nincome\nscore\ndepth\n");
  }
  const std::string html = read_text(run_folder / "report.html");
  const Expected expected = ranked_clusters(run_folder / "results.h5");
  ASSERT_FALSE(expected.clusters.empty());
  check_sections(html, expected, [&](std::uint32_t d) { return names[d]; });
  // The planted cluster, in weight and score, is the strongest.
  EXPECT_EQ(expected.clusters[0].dimensions, (std::vector<std::uint32_t>{1, 4}));
  EXPECT_NE(section_of(html, "cluster-scatter").find("weight against score"), std::string::npos);
}

}  // namespace
