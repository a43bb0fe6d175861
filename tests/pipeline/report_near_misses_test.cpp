// A run whose significance test passed no cluster gets a report that explains itself: the clusters
// section lists summary.json's near misses (dimensions by name, points, score, the bar and how far
// each fell short, the alpha it would pass at) and the settings that would report them, the level
// read from the run's config.yaml. With clusters, or with significance off, nothing of it shows.
#include "pipeline/report/report_near_misses.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using subscale::pipeline::AppliedTest;
using subscale::pipeline::near_miss_html;
using subscale::testing::read_text;

std::string clusters_section(const std::string& html) {
  const auto begin = html.find("<section id=\"clusters\">");
  if (begin == std::string::npos) return "";
  return html.substr(begin, html.find("</section>", begin) - begin);
}

struct MissRow {
  std::size_t rank, dimensions, points;
  std::string names, score, needed, short_by, alpha;
};

std::vector<MissRow> miss_rows(const std::string& html) {
  std::vector<MissRow> rows;
  const std::regex row(
      "<tr class=\"near-miss-row\" data-rank=\"(\\d+)\"[^>]*><td>\\d+</td><td>([^<]*)</td><td>(\\d+)</td>"
      "<td>(\\d+)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), row); it != std::sregex_iterator(); ++it)
    rows.push_back({std::stoul((*it)[1]), std::stoul((*it)[3]), std::stoul((*it)[4]), (*it)[2], (*it)[5], (*it)[6],
                    (*it)[7], (*it)[8]});
  return rows;
}

// The values of every `significance.alpha: X` the page suggests (in its list of settings).
std::vector<double> suggested_alphas(const std::string& page) {
  std::vector<double> alphas;
  const auto list = page.find("near-miss-settings");
  if (list == std::string::npos) return alphas;
  const std::string html = page.substr(list);
  const std::regex setting("significance\\.alpha: ([0-9.e-]+)</code>");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), setting); it != std::sregex_iterator(); ++it)
    alphas.push_back(std::stod((*it)[1]));
  return alphas;
}

// A list, also of one (a braced json of one element would be that element).
json summary_with(const std::vector<json>& misses) { return {{"significance", {{"near_misses", json(misses)}}}}; }

json miss(std::vector<int> dimensions, int points, double score, bool best_case = false) {
  return {{"dimensions", dimensions},
          {"points", points},
          {"score", score},
          {"alpha_needed", std::pow(10.0, -score)},
          {"best_case", best_case}};
}

TEST(ReportNearMisses, EachCandidateShowsHowFarItFellShortAndTheAlphaItWouldPassAt) {
  const json summary = summary_with({miss({0, 2}, 12, 1.5), miss({1, 3, 4}, 30, 1.1)});
  const std::string html = near_miss_html(summary, AppliedTest{0.01, false}, {"height", "weight", "age", "x", "y"});
  const auto rows = miss_rows(html);
  ASSERT_EQ(rows.size(), 2u) << html;
  EXPECT_EQ(rows[0].names, "height, age");
  EXPECT_EQ(rows[0].dimensions, 2u);
  EXPECT_EQ(rows[0].points, 12u);
  EXPECT_EQ(rows[0].score, "1.50");
  EXPECT_EQ(rows[0].needed, "2.00");
  EXPECT_EQ(rows[0].short_by, "0.50");
  EXPECT_EQ(rows[0].alpha, "0.0316");
  EXPECT_EQ(rows[1].names, "weight, x, y");
  EXPECT_EQ(rows[1].short_by, "0.90");
  EXPECT_NE(html.find("Bonferroni at <code>significance.alpha: 0.01</code>"), std::string::npos) << html;
}

TEST(ReportNearMisses, SuggestedAlphasReachTheCandidatesAndFdrIsOffered) {
  const json summary = summary_with({miss({0, 1}, 12, 1.5), miss({2, 3}, 11, 1.2), miss({4, 5}, 10, 1.1)});
  const std::string html = near_miss_html(summary, AppliedTest{0.01, false}, {});
  const auto alphas = suggested_alphas(html);
  ASSERT_EQ(alphas.size(), 3u) << html;
  // The strongest passes at the first, all three at the second (Bonferroni), rounded up to reach them.
  EXPECT_GE(-std::log10(alphas[0]), 1.5 - 0.05);
  EXPECT_LE(-std::log10(alphas[0]), 1.5);
  EXPECT_LE(-std::log10(alphas[1]), 1.1);
  // Benjamini-Hochberg: the third of three passes at 3 x alpha.
  EXPECT_LE(-std::log10(3 * alphas[2]), 1.1);
  EXPECT_LT(alphas[2], alphas[1]);
  EXPECT_NE(html.find("<code>significance.fdr: true</code>"), std::string::npos) << html;
  EXPECT_NE(html.find("would report all 3"), std::string::npos) << html;
  // Dimensions beyond the names are numbered.
  EXPECT_EQ(miss_rows(html)[2].names, "d4, d5");
}

TEST(ReportNearMisses, UnderFdrTheBarFallsWithTheRankAndFdrIsNotOfferedAgain) {
  const json summary = summary_with({miss({0, 1}, 12, 1.5), miss({2, 3}, 11, 1.2)});
  const std::string html = near_miss_html(summary, AppliedTest{0.01, true}, {});
  const auto rows = miss_rows(html);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].needed, "2.00");
  EXPECT_EQ(rows[1].needed, "1.70");  // 2 - log10 2
  EXPECT_EQ(html.find("<code>significance.fdr: true</code> (Benjamini"), std::string::npos) << html;
  EXPECT_NE(html.find("Benjamini-Hochberg (<code>significance.fdr: true</code>)"), std::string::npos) << html;
}

TEST(ReportNearMisses, SkippedSubspacesAreBoundsAndHopelessCandidatesSaySo) {
  const std::string bound = near_miss_html(summary_with({miss({0, 1}, 40, 1.2, true)}), AppliedTest{0.01, false}, {});
  ASSERT_EQ(miss_rows(bound).size(), 1u);
  EXPECT_EQ(miss_rows(bound)[0].score, "at most 1.20");
  EXPECT_NE(bound.find("a bound, not a cluster's own score"), std::string::npos) << bound;
  const auto alphas = suggested_alphas(bound);
  ASSERT_EQ(alphas.size(), 1u);
  EXPECT_GE(-std::log10(alphas[0]), 1.2);  // rounded down: below it nothing can pass
  EXPECT_NE(bound.find("Below <code>significance.alpha:"), std::string::npos) << bound;

  const std::string hopeless = near_miss_html(summary_with({miss({0, 1}, 5, 0.0)}), AppliedTest{0.01, false}, {});
  EXPECT_EQ(miss_rows(hopeless)[0].alpha, "none below 1");
  EXPECT_TRUE(suggested_alphas(hopeless).empty()) << hopeless;
  EXPECT_NE(hopeless.find("No alpha below 1 would report any of them"), std::string::npos) << hopeless;
}

TEST(ReportNearMisses, WithoutTheLevelTheBarIsNotShown) {
  const std::string html = near_miss_html(summary_with({miss({0, 1}, 12, 1.5)}), std::nullopt, {});
  ASSERT_EQ(miss_rows(html).size(), 1u);
  EXPECT_EQ(miss_rows(html)[0].needed, "-");
  EXPECT_EQ(miss_rows(html)[0].alpha, "0.0316");
  EXPECT_NE(html.find("could not be read"), std::string::npos) << html;
}

TEST(ReportNearMisses, NothingWithoutNearMisses) {
  EXPECT_EQ(near_miss_html(json::object(), AppliedTest{}, {}), "");
  EXPECT_EQ(near_miss_html(summary_with({}), AppliedTest{}, {}), "");
}

class ReportNearMissesRun : public subscale::testing::CliTest {};

TEST_F(ReportNearMissesRun, TheLevelIsReadFromTheRunsConfig) {
  EXPECT_FALSE(subscale::pipeline::applied_test(folder_).has_value());
  write("config.yaml", "input:\n  path: data.csv\nsignificance:\n  alpha: 0.05\n  fdr: true\n");
  const auto test = subscale::pipeline::applied_test(folder_);
  ASSERT_TRUE(test.has_value());
  EXPECT_DOUBLE_EQ(test->alpha, 0.05);
  EXPECT_TRUE(test->fdr);
}

// A planted cluster of 10 points in 2 of 10 dimensions among 150 is too weak for the test: the page
// lists what summary.json lists, dimensions {0, 1} first, instead of an empty clusters section.
TEST_F(ReportNearMissesRun, AnEmptyRunsReportListsItsStrongestCandidates) {
  ASSERT_TRUE(generate("-n 150 -d 10 -c 0,1:10:0.08 -s 5", "weak"));
  const fs::path out = folder_ / "run";
  const auto outcome = run("run " + write("weak.yaml", "input:\n  path: weak.h5\nreport: true\n").string() + " --out " +
                               out.string() + " -q",
                           "run.log");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const std::string section = clusters_section(read_text(out / "report.html"));
  const json misses = json::parse(read_text(out / "summary.json"))["significance"]["near_misses"];
  ASSERT_FALSE(misses.empty());
  const auto rows = miss_rows(section);
  ASSERT_EQ(rows.size(), misses.size()) << section;
  EXPECT_EQ(rows[0].names, "d0, d1");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    EXPECT_EQ(rows[r].points, misses[r]["points"].get<std::size_t>()) << r;
    EXPECT_EQ(rows[r].dimensions, misses[r]["dimensions"].size()) << r;
    EXPECT_EQ(rows[r].needed, "2.00") << r;  // the default alpha 0.01, Bonferroni
  }
  EXPECT_EQ(section.find("cluster-row"), std::string::npos);
  EXPECT_NE(section.find("significance.alpha: "), std::string::npos) << section;
}

// Significance off: nothing to explain, the page says only that there are no clusters.
TEST_F(ReportNearMissesRun, AnEmptyRunWithoutTheTestListsNoCandidates) {
  const fs::path out = folder_ / "run";
  const auto outcome =
      run("run " + (subscale::testing::source_root() / "configs" / "quickstart.yaml").string() +
              " report=true significance.enabled=false merge.min_points=1000 --out " + out.string() + " -q",
          "run.log");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const std::string section = clusters_section(read_text(out / "report.html"));
  EXPECT_NE(section.find("The run reported no clusters."), std::string::npos) << section;
  EXPECT_EQ(section.find("near-miss"), std::string::npos) << section;
}

}  // namespace
