// The report's cluster sections, read back from the HTML against the run's results.h5: the table
// lists the first 50 clusters by rank (score when results.h5 has /clusters/score, else points x
// dimensions) with their dimensions by name, the map has one filled cell per (cluster, dimension),
// and each scatter marks exactly the cluster's members. A run without clusters, and one whose
// input has gone, still get a report.
#include "pipeline/report/report_clusters.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <regex>
#include <set>
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

// The circles of a scatter's group (the first <g class="NAME"> of `svg`): each one's count
// (data-count, 1 without) and radius.
struct Mark {
  std::size_t count;
  std::string radius;
};

std::vector<Mark> marks_of(const std::string& svg, const std::string& name) {
  const auto begin = svg.find("<g class=\"" + name + "\"");
  const std::string group = svg.substr(begin, svg.find("</g>", begin) - begin);
  std::vector<Mark> marks;
  for (const auto& m : matches(group, "<circle ([^>]*)>")) {
    const std::string attributes = m[1];
    const auto count = matches(attributes, "data-count=\"(\\d+)\"");
    const auto radius = matches(attributes, " r=\"([0-9.]+)\"");
    marks.push_back({count.empty() ? 1 : std::stoul(count[0][1]), radius.empty() ? "" : radius[0][1].str()});
  }
  return marks;
}

std::size_t total(const std::vector<Mark>& marks) {
  std::size_t sum = 0;
  for (const auto& m : marks) sum += m.count;
  return sum;
}

// Integer-valued data put many points on one place: each place is one mark, sized by and titled
// with how many points it stands for, and a second view zooms to the cluster's range.
TEST_F(ReportClusters, TiedPointsAreOneMarkThatCarriesItsCount) {
  const fs::path run_folder = run_integers();
  const Expected expected = ranked_clusters(run_folder / "results.h5");
  ASSERT_EQ(expected.clusters.size(), 1u);
  const std::size_t members = expected.clusters[0].points.size();
  ASSERT_GE(members, 40u);
  const std::string scatter = section_of(read_text(run_folder / "report.html"), "cluster-scatter");
  const std::string figure = scatter.substr(scatter.find("<figure"));
  EXPECT_NE(figure.find("data-members=\"" + std::to_string(members) + "\""), std::string::npos);
  const auto views = matches(figure, "<svg[^>]*><title>([^<]*)</title>");
  ASSERT_EQ(views.size(), 2u);
  EXPECT_NE(views[1][1].str().find("zoomed to the cluster&#39;s range"), std::string::npos);
  const std::string whole = figure.substr(0, figure.find("<span class=\"zoom\">"));
  const std::string zoomed = figure.substr(figure.find("<span class=\"zoom\">"));

  // Every member holds 3 and 7 in the cluster's two dimensions: one mark for all of them.
  const auto member_marks = marks_of(whole, "members");
  ASSERT_EQ(member_marks.size(), 1u);
  EXPECT_EQ(member_marks[0].count, members);
  const std::string count = std::to_string(members);
  EXPECT_NE(whole.find("data-count=\"" + count + "\"><title>" + count + " points</title>"), std::string::npos);
  // The others: fewer marks than points, their counts adding up to every other point, the
  // marks of more points larger.
  const auto other_marks = marks_of(whole, "others");
  EXPECT_LT(other_marks.size(), 200 - members);
  EXPECT_EQ(total(other_marks), 200 - members);
  std::set<std::string> radii;
  for (const auto& m : other_marks) radii.insert(m.radius);
  EXPECT_GT(radii.size(), 1u);
  // Zoomed to the members' one place: the others elsewhere are left out.
  EXPECT_EQ(total(marks_of(zoomed, "members")), members);
  EXPECT_LT(total(marks_of(zoomed, "others")), total(other_marks));
  EXPECT_NE(figure.find("the largest stands for " + count), std::string::npos);
}

TEST_F(ReportClusters, TheDimensionGridShowsLongColumnNamesWhole) {
  const std::string map = section_of(read_text(run_integers() / "report.html"), "cluster-map");
  for (const std::string name : {kLongName, "second_long_column_name_two"})
    EXPECT_NE(map.find(">" + name + "</text>"), std::string::npos) << name;
}

// A run on a CSV whose header names its six columns, with a cluster planted in weight and score.
class NamedColumns : public subscale::testing::ReportTest {
 protected:
  const std::vector<std::string> names_ = {"height", "weight", "age", "income", "score", "depth"};

  fs::path run_people() {
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> uniform(0, 1), narrow(0.40, 0.42);
    std::ofstream csv(folder_ / "people.csv");
    for (std::size_t j = 0; j < names_.size(); ++j) csv << (j ? "," : "") << names_[j];
    csv << "\n";
    for (int i = 0; i < 300; ++i) {
      for (std::size_t j = 0; j < names_.size(); ++j)
        csv << (j ? "," : "") << ((i < 60 && (j == 1 || j == 4)) ? narrow(random) : uniform(random));
      csv << "\n";
    }
    csv.close();
    const fs::path config = write("people.yaml",
                                  "input:\n  path: people.csv\nepsilon: 0.01\nmin_points: 4\nmerge:\n  epsilon: 0.03\n"
                                  "  min_points: 10\nreport: true\n");
    const fs::path run_folder = folder_ / "run";
    const auto outcome = run("run " + config.string() + " --out " + run_folder.string() + " -q", "run.log");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    return run_folder;
  }

  void expect_names_in_report(const fs::path& run_folder) {
    const std::string html = read_text(run_folder / "report.html");
    const Expected expected = ranked_clusters(run_folder / "results.h5");
    ASSERT_FALSE(expected.clusters.empty());
    check_sections(html, expected, [&](std::uint32_t d) { return names_[d]; });
    // The planted cluster, in weight and score, is the strongest.
    EXPECT_EQ(expected.clusters[0].dimensions, (std::vector<std::uint32_t>{1, 4}));
    EXPECT_NE(section_of(html, "cluster-scatter").find("weight against score"), std::string::npos);
  }
};

// results.h5 keeps the header's names, one string a column, and the report shows them.
TEST_F(NamedColumns, ColumnNamesFromACsvHeaderNameTheDimensions) {
  const fs::path run_folder = run_people();
  {
    const subscale::io::Hdf5File file((run_folder / "results.h5").string(), subscale::io::Hdf5File::Mode::read);
    EXPECT_EQ(file.read_strings("/input/column_names"), names_);
  }
  expect_names_in_report(run_folder);
}

// Runs written before the names became a dataset kept them in one attribute, a name a line.
TEST_F(NamedColumns, NamesKeptAsOneAttributeStillNameTheDimensions) {
  const fs::path run_folder = run_people();
  const std::string results = (run_folder / "results.h5").string();
  const hid_t raw = H5Fopen(results.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(raw, 0);
  ASSERT_GE(H5Ldelete(raw, "/input/column_names", H5P_DEFAULT), 0);
  H5Fclose(raw);
  {
    subscale::io::Hdf5File file(results, subscale::io::Hdf5File::Mode::read_write);
    file.write_string_attribute("/input", "column_names", "height\nweight\nage\nincome\nscore\ndepth\n");
    file.close();
  }
  ASSERT_EQ(run("report " + run_folder.string(), "report.log").exit_code, 0);
  expect_names_in_report(run_folder);
}

}  // namespace
