// input.precision through the command line: float16 is refused before anything is written; a
// float32 run holds the values as float32 (plan says so) and its subspaces.txt is the same in every
// mode and thread count, as is a float64 run's, while the two precisions differ on data whose
// spans lie within rounding of epsilon.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tests/core/core_test_data.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"

namespace subscale {
namespace {

class PrecisionTest : public testing::CliTest {
 protected:
  // The generated data as CSV (17 significant digits: read back to the same doubles), and a
  // config over it; normalize: none keeps the values as placed.
  std::filesystem::path config(const std::string& precision, const std::string& mode, int threads) {
    if (!std::filesystem::exists(folder_ / "data.csv")) {
      const Matrix values = testing::near_epsilon_data(60, 6, 3, 0.1);
      std::string csv;
      char cell[32];
      for (Eigen::Index i = 0; i < values.rows(); ++i)
        for (Eigen::Index j = 0; j < values.cols(); ++j) {
          std::snprintf(cell, sizeof cell, "%.17g", values(i, j));
          csv += cell;
          csv += j + 1 < values.cols() ? "," : "\n";
        }
      write("data.csv", csv);
    }
    return write(precision + "-" + mode + "-" + std::to_string(threads) + ".yaml",
                 "input:\n  path: data.csv\n  precision: " + precision +
                     "\nnormalize: none\nepsilon: 0.1\nmin_points: 3\nmode: " + mode +
                     "\nthreads: " + std::to_string(threads) + "\nsignature:\n  seed: 5\n");
  }

  std::string subspaces(const std::string& precision, const std::string& mode, int threads) {
    const std::string out = precision + "-" + mode + "-" + std::to_string(threads);
    const testing::CliOutcome outcome =
        run("run --quiet " + config(precision, mode, threads).string() + " --out " + (folder_ / out).string(),
            out + ".txt");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    return testing::read_text(folder_ / out / "subspaces.txt");
  }
};

TEST_F(PrecisionTest, Float16IsRefusedBeforeAnythingIsWritten) {
  write("data.csv", "0.1,0.2\n0.3,0.4\n0.5,0.6\n");
  const auto file = write("bad.yaml", "input:\n  path: data.csv\n  precision: float16\nepsilon: 0.1\nmin_points: 2\n");
  const testing::CliOutcome outcome = run("run " + file.string() + " --out " + (folder_ / "never").string());
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("input.precision"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("float16"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("float32"), std::string::npos) << outcome.output;
  EXPECT_FALSE(std::filesystem::exists(folder_ / "never"));
}

TEST_F(PrecisionTest, PlanShowsTheHeldBytes) {
  const testing::CliOutcome wide = run("plan " + config("float64", "direct", 2).string(), "plan64.txt");
  const testing::CliOutcome narrow = run("plan " + config("float32", "direct", 2).string(), "plan32.txt");
  ASSERT_EQ(wide.exit_code, 0) << wide.output;
  ASSERT_EQ(narrow.exit_code, 0) << narrow.output;
  EXPECT_NE(wide.output.find("held as float64: 2880 bytes"), std::string::npos) << wide.output;
  EXPECT_NE(narrow.output.find("held as float32: 1440 bytes"), std::string::npos) << narrow.output;
}

TEST_F(PrecisionTest, EachPrecisionIsSelfConsistentAndTheyDiffer) {
  const std::string wide = subspaces("float64", "direct", 2);
  const std::string narrow = subspaces("float32", "direct", 2);
  ASSERT_FALSE(wide.empty());
  ASSERT_FALSE(narrow.empty());
  EXPECT_NE(wide, narrow);
  for (const char* mode : {"signature", "exact"}) {
    EXPECT_EQ(subspaces("float64", mode, 2), wide) << mode;
    EXPECT_EQ(subspaces("float32", mode, 2), narrow) << mode;
  }
  EXPECT_EQ(subspaces("float64", "direct", 1), wide);
  EXPECT_EQ(subspaces("float32", "direct", 1), narrow);
}

}  // namespace
}  // namespace subscale
