#pragma once
// What the report tests share: the quickstart run with `report: true` and extra overrides, and a
// run on integer-valued data, whose points lie on few distinct places.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace subscale::testing {

class ReportTest : public CliTest {
 protected:
  // Significance off: these tests check the page against merge's and consolidation's own lists
  // (one of them writes its own /clusters/score).
  std::filesystem::path run_quickstart(const std::string& extra) {
    const std::filesystem::path out = folder_ / "run";
    const auto outcome = run("run " + (source_root() / "configs" / "quickstart.yaml").string() +
                                 " report=true significance.enabled=false " + extra + " --out " + out.string() + " -q",
                             "run.log");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    return out;
  }

  // 200 rows of integers 0..9 in three columns with long names; rows 0..39 all hold 3 and 7 in
  // the first two, the one cluster the run finds (with any other row that drew the same values).
  std::filesystem::path run_integers() {
    std::mt19937 random(3);
    std::uniform_int_distribution<int> digit(0, 9);
    std::ofstream csv(folder_ / "integers.csv");
    csv << kLongName << ",second_long_column_name_two,c\n";
    for (int row = 0; row < 200; ++row) {
      const int a = row < 40 ? 3 : digit(random), b = row < 40 ? 7 : digit(random);
      csv << a << "," << b << "," << digit(random) << "\n";
    }
    csv.close();
    const std::filesystem::path config =
        write("integers.yaml",
              "input:\n  path: integers.csv\nepsilon: 0.05\nmin_points: 4\nmerge:\n  epsilon: 0.05\n"
              "  min_points: 30\nsignificance:\n  enabled: false\nreport: true\n");
    const std::filesystem::path out = folder_ / "integers";
    const auto outcome = run("run " + config.string() + " --out " + out.string() + " -q", "integers.log");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    return out;
  }

  static constexpr const char* kLongName = "a_rather_long_column_name_one";
};

}  // namespace subscale::testing
