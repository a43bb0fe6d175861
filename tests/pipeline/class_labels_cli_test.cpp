// Scoring a run against class labels: input.label_column feeds the run's own evaluate step
// (summary.json's evaluation_classes), and `subscale evaluate RUN --labels FILE | --label-column
// NAME` scores a finished run. Each class is a hidden cluster in every dimension. The data: 40
// rows of a CSV with columns x, class, y, where rows 0..9 form the one cluster the run finds (in
// both dimensions, so in the classes' full space); rows 0..24 are class a, rows 25..39 class b.
// So, over all 40 rows: F1 = (2*10/(10+25) + 0) / 2 = 2/7 and E4SC = 8/21 (R = 2/7 from the
// micro-object F1 2*20/(20+50) over two classes, P = 4/7 over one cluster). With filter.where x >=
// 0.5 only rows 0..9 and 25..39 are clustered: class a is rows 0..9, and F1 = 1/2, E4SC = 2/3; a
// label misaligned by position would make class a 25 points again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;

class ClassLabelRun : public subscale::testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    std::ofstream csv(folder_ / "points.csv");
    std::ofstream labels(folder_ / "classes.txt");
    csv << "x,class,y\n";
    for (int row = 0; row < 40; ++row) {
      const int k = row - 10;
      const double x = row < 10 ? 0.5 + 1.0 / 60 + 0.0003 * row : k / 30.0;
      const double y = row < 10 ? 0.5 + 1.0 / 60 + 0.0004 * row : ((k * 7) % 30) / 30.0;
      const char* label = row < 25 ? "a" : "b";
      csv << x << "," << label << "," << y << "\n";
      labels << label << "\n";
    }
  }

  fs::path run_points(const std::string& name, const std::string& extra) {
    const fs::path config = write(name + ".yaml",
                                  "input:\n  path: points.csv\n  label_column: class\nepsilon: 0.01\nmin_points: 3\n"
                                  "normalize: none\nsignificance:\n  enabled: false\n" +
                                      extra);
    const auto outcome = run("run " + config.string() + " --out " + (folder_ / name).string() + " -q", name + ".log");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    EXPECT_EQ(read_text(folder_ / name / "clusters.txt"), "{0, 1}-[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n");
    return folder_ / name;
  }

  nlohmann::json json_of(const fs::path& file) { return nlohmann::json::parse(std::ifstream(file)); }
};

TEST_F(ClassLabelRun, TheLabelColumnScoresTheRunsClustersAgainstItsClasses) {
  const fs::path out = run_points("all", "");
  const auto classes = json_of(out / "summary.json")["evaluation_classes"];
  EXPECT_DOUBLE_EQ(classes["f1"].get<double>(), 2.0 / 7.0);
  EXPECT_NEAR(classes["e4sc"].get<double>(), 8.0 / 21.0, 1e-12);
  EXPECT_EQ(classes["classes"], 2);
  EXPECT_EQ(classes["found_clusters"], 1);
  EXPECT_EQ(classes["label_column"], "class");
  EXPECT_NE(read_text(out / "log.txt").find("against the 2 classes of input.label_column 'class'"), std::string::npos);
  // The class column is no dimension.
  EXPECT_EQ(json_of(out / "summary.json")["dimensions"], 2);
  // The report shows the measures too.
  ASSERT_EQ(run("report " + out.string(), "report.log").exit_code, 0);
  const std::string html = read_text(out / "report.html");
  EXPECT_NE(html.find("Against the 2 classes of the label column class"), std::string::npos);
  EXPECT_NE(html.find("<table class=\"classes\">"), std::string::npos);
}

TEST_F(ClassLabelRun, AfterAFilterTheClassesAreTheKeptRowsLabels) {
  const fs::path out = run_points("kept", "filter:\n  where: {column: x, ge: 0.5}\n");
  const auto summary = json_of(out / "summary.json");
  ASSERT_EQ(summary["points"], 25);
  EXPECT_DOUBLE_EQ(summary["evaluation_classes"]["f1"].get<double>(), 0.5);
  EXPECT_NEAR(summary["evaluation_classes"]["e4sc"].get<double>(), 2.0 / 3.0, 1e-12);
  EXPECT_EQ(summary["evaluation_classes"]["labelled_points"], 25);
  // evaluate gives the same from a file of one label per input row and from the input's column.
  for (const std::string& source :
       {"--labels " + (folder_ / "classes.txt").string(), std::string("--label-column class")}) {
    const fs::path json = folder_ / "measures.json";
    fs::remove(json);
    const auto outcome = run("evaluate " + out.string() + " " + source + " --json " + json.string(), "evaluate.log");
    ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
    EXPECT_NE(outcome.output.find("2 classes"), std::string::npos) << outcome.output;
    const auto measures = json_of(json);
    EXPECT_DOUBLE_EQ(measures["f1"].get<double>(), 0.5) << source;
    EXPECT_NEAR(measures["e4sc"].get<double>(), 2.0 / 3.0, 1e-12) << source;
    EXPECT_EQ(measures["classes"], 2);
    EXPECT_EQ(measures["raw"]["found_clusters"], 1);  // merge's cluster, beside the consolidated one
  }
}

TEST_F(ClassLabelRun, ALabelFileOfTheWrongLengthIsRefusedWithBothCounts) {
  const fs::path out = run_points("all", "");
  std::string lines = read_text(folder_ / "classes.txt");
  write("short.txt", lines.substr(0, lines.size() - 2));  // the last label gone
  const auto outcome = run("evaluate " + out.string() + " --labels " + (folder_ / "short.txt").string());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.output;
  EXPECT_NE(outcome.output.find("holds 39 labels, but the run's input has 40 rows"), std::string::npos)
      << outcome.output;
  write("headed.txt", "class\n" + lines);
  const auto headed = run("evaluate " + out.string() + " --labels " + (folder_ / "headed.txt").string());
  EXPECT_EQ(headed.exit_code, 3) << headed.output;
  EXPECT_NE(headed.output.find("41 labels"), std::string::npos) << headed.output;
  EXPECT_NE(headed.output.find("header"), std::string::npos) << headed.output;
}

TEST_F(ClassLabelRun, EvaluateRefusesOptionsThatDoNotFit) {
  const fs::path out = run_points("all", "");
  const auto nothing = run("evaluate " + out.string());
  EXPECT_EQ(nothing.exit_code, 2) << nothing.output;
  EXPECT_NE(nothing.output.find("--labels"), std::string::npos) << nothing.output;
  const auto column_of_a_file = run("evaluate " + (out / "clusters.txt").string() + " --label-column class");
  EXPECT_EQ(column_of_a_file.exit_code, 2) << column_of_a_file.output;
  const auto no_dims =
      run("evaluate " + (out / "clusters.txt").string() + " --labels " + (folder_ / "classes.txt").string());
  EXPECT_EQ(no_dims.exit_code, 2) << no_dims.output;
  EXPECT_NE(no_dims.output.find("--dims"), std::string::npos) << no_dims.output;
  const auto with_dims = run("evaluate " + (out / "clusters.txt").string() + " --labels " +
                             (folder_ / "classes.txt").string() + " --dims 2");
  EXPECT_EQ(with_dims.exit_code, 0) << with_dims.output;
  EXPECT_NE(with_dims.output.find("0.2857"), std::string::npos) << with_dims.output;
  const auto wrong_column = run("evaluate " + out.string() + " --label-column kind");
  EXPECT_EQ(wrong_column.exit_code, 3) << wrong_column.output;
  EXPECT_NE(wrong_column.output.find("no column named 'kind'"), std::string::npos) << wrong_column.output;
}

TEST_F(ClassLabelRun, AnHdf5InputsLabelsDatasetNamesTheClasses) {
  // The shipped dataset keeps its five hidden clusters' labels (-1: noise) beside /data.
  const fs::path out = folder_ / "quickstart";
  const auto outcome = run("run " + (subscale::testing::source_root() / "configs" / "quickstart.yaml").string() +
                               " input.label_column=labels --out " + out.string() + " -q",
                           "quickstart.log");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const auto classes = json_of(out / "summary.json")["evaluation_classes"];
  EXPECT_EQ(classes["classes"], 5);
  EXPECT_EQ(classes["labelled_points"], 800);
  EXPECT_DOUBLE_EQ(classes["f1"].get<double>(), 1.0);  // each cluster holds exactly its class's points
}

}  // namespace
