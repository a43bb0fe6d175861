// The run report: `report: true` writes report.html at the end of a run, `subscale report RUN_DIR`
// writes the same page; it has every section, fetches nothing (no script, no link, no source from
// elsewhere), and headless Chromium renders it to a PNG, its DOM holding every section (skipped
// where Chromium is not installed). A folder that is not a run is refused with exit code 3 and
// nothing written.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "pipeline/report/report_html.hpp"
#include "tests/pipeline/report_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::pipeline::kReportSections;
using subscale::testing::read_text;

std::string find_chromium() {
  for (const char* candidate : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (fs::exists(candidate)) return candidate;
  return "";
}

using Report = subscale::testing::ReportTest;

TEST_F(Report, RunWritesASelfContainedPageWithEverySection) {
  const fs::path run_folder = run_quickstart("");
  const std::string html = read_text(run_folder / "report.html");
  ASSERT_FALSE(html.empty()) << "report: true wrote no report.html";
  for (const char* id : kReportSections)
    EXPECT_NE(html.find("<section id=\"" + std::string(id) + "\">"), std::string::npos) << id;
  // The quickstart has ground truth: the quality section shows the measures, not the note.
  EXPECT_NE(html.find("E4SC"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  // Nothing fetched from elsewhere: the only URL is the SVG namespace, which is a name, not a fetch.
  const std::string without_namespace =
      std::regex_replace(html, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
  for (const char* fetch : {"http:", "https:", "<script", "<link", "src=", "href=", "@import", "url("})
    EXPECT_EQ(without_namespace.find(fetch), std::string::npos) << fetch;

  // The subcommand writes the same page.
  const auto outcome = run("report " + run_folder.string() + " -o " + (folder_ / "again.html").string(), "report.log");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  EXPECT_EQ(read_text(folder_ / "again.html"), html);
}

TEST_F(Report, RendersInHeadlessChromium) {
  const std::string chromium = find_chromium();
  if (chromium.empty())
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium); the render is not checked";
  const fs::path run_folder = run_quickstart("consolidate=off");
  const fs::path page = run_folder / "report.html";
  ASSERT_TRUE(fs::exists(page));
  const std::string flags =
      " --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update"
      " --disable-sync --no-first-run --user-data-dir=" +
      (folder_ / "chromium-profile").string();
  const fs::path png = folder_ / "report.png";
  const std::string shot = chromium + flags + " --window-size=1000,4000 --screenshot=" + png.string() + " file://" +
                           fs::absolute(page).string() + " > " + (folder_ / "shot.log").string() + " 2>&1";
  ASSERT_EQ(std::system(shot.c_str()), 0) << read_text(folder_ / "shot.log");
  ASSERT_TRUE(fs::exists(png)) << read_text(folder_ / "shot.log");
  const std::string image = read_text(png);
  ASSERT_GT(image.size(), 8u);
  EXPECT_EQ(image.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_GT(image.size(), 20'000u) << "the screenshot is almost empty";
  // The DOM as Chromium built it: every section, each with its heading.
  const std::string dom = chromium + flags + " --dump-dom file://" + fs::absolute(page).string() + " > " +
                          (folder_ / "dom.html").string() + " 2> " + (folder_ / "dom.log").string();
  ASSERT_EQ(std::system(dom.c_str()), 0) << read_text(folder_ / "dom.log");
  const std::string parsed = read_text(folder_ / "dom.html");
  for (const char* id : kReportSections)
    EXPECT_NE(parsed.find("<section id=\"" + std::string(id) + "\"><h2>"), std::string::npos) << id;
}

// On integer-valued data the scatter's marks stand for several points each: Chromium's DOM keeps
// each mark's count, as its data-count and its <title>, and draws them at different sizes.
TEST_F(Report, TiedMarksCarryTheirCountsInHeadlessChromium) {
  const std::string chromium = find_chromium();
  if (chromium.empty())
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium); the render is not checked";
  const fs::path page = run_integers() / "report.html";
  ASSERT_TRUE(fs::exists(page));
  const std::string dom = chromium +
                          " --headless --no-sandbox --disable-gpu --disable-background-networking "
                          "--disable-component-update --disable-sync --no-first-run --user-data-dir=" +
                          (folder_ / "chromium-profile").string() + " --dump-dom file://" +
                          fs::absolute(page).string() + " > " + (folder_ / "dom.html").string() + " 2> " +
                          (folder_ / "dom.log").string();
  ASSERT_EQ(std::system(dom.c_str()), 0) << read_text(folder_ / "dom.log");
  const std::string parsed = read_text(folder_ / "dom.html");
  const std::regex mark("<circle [^>]*r=\"([0-9.]+)\" data-count=\"(\\d+)\"><title>(\\d+) points</title></circle>");
  std::set<std::string> radii;
  std::size_t marks = 0;
  for (auto it = std::sregex_iterator(parsed.begin(), parsed.end(), mark); it != std::sregex_iterator(); ++it) {
    EXPECT_EQ((*it)[2], (*it)[3]);
    EXPECT_GT(std::stoul((*it)[2]), 1u);
    radii.insert((*it)[1]);
    ++marks;
  }
  EXPECT_GT(marks, 10u) << "the rendered scatter has no marks that carry a count";
  EXPECT_GT(radii.size(), 1u) << "marks of different counts are drawn the same size";
}

TEST_F(Report, AFolderThatIsNotARunIsRefused) {
  fs::create_directories(folder_ / "empty");
  const auto outcome = run("report " + (folder_ / "empty").string(), "report.log");
  EXPECT_EQ(outcome.exit_code, 3) << outcome.output;
  EXPECT_NE(outcome.output.find("summary.json"), std::string::npos) << outcome.output;
  EXPECT_FALSE(fs::exists(folder_ / "empty" / "report.html"));
}

}  // namespace
