#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "io/hdf5_dataset_writer.hpp"
#include "stages/load/load.hpp"
#include "stages/load/normalize.hpp"
#include "tests/io/test_files.hpp"

namespace subscale::load {
namespace {

using subscale::testing::input_error_message;
using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(LoadDataset, CsvAndHdf5) {
  TempDir dir;
  LoadOptions options;
  options.path = dir.write("in.csv", "a\tb\n1\t10\n2\t20\n");
  const Dataset csv = load_dataset(options);
  EXPECT_EQ(csv.points(), 2u);
  EXPECT_EQ(csv.values(1, 1), 20.0);

  Dataset original;
  original.values = Matrix::Random(6, 4);
  original.labels = {0, 1, 2, -1, 0, 1};
  options.path = dir.file("in.h5");
  io::write_hdf5_dataset(original, options.path);
  const Dataset hdf5 = load_dataset(options);
  EXPECT_EQ(hdf5.values, original.values);
  EXPECT_EQ(hdf5.labels, original.labels);
}

TEST(LoadDataset, RefusesBadInputWithTheFileName) {
  TempDir dir;
  LoadOptions options;
  options.path = dir.write("bad.csv", "1,2\n3,NaN\n");
  EXPECT_THAT(input_error_message([&] { load_dataset(options); }),
              AllOf(HasSubstr("bad.csv, line 2, column 2"), HasSubstr("NaN")));
  options.path = dir.file("missing.arff");
  EXPECT_THAT(input_error_message([&] { load_dataset(options); }), HasSubstr("not found"));
}

TEST(Normalization, ParseNames) {
  EXPECT_EQ(parse_normalization("minmax"), Normalization::minmax);
  EXPECT_EQ(parse_normalization("None"), Normalization::none);
  try {
    parse_normalization("minmaz");
    FAIL() << "no error";
  } catch (const UsageError& error) {
    EXPECT_THAT(error.what(), AllOf(HasSubstr("normalize"), HasSubstr("did you mean 'minmax'")));
  }
  EXPECT_STREQ(to_string(Normalization::minmax), "minmax");
}

TEST(Normalization, MinMaxMapsEachDimensionToUnitInterval) {
  Dataset dataset;
  dataset.values.resize(4, 3);
  dataset.values << 2, 5, -1,  //
      4, 5, 0,                 //
      3, 5, 1e-3,              //
      10, 5, -7;
  normalize(dataset, Normalization::minmax);
  // Column 0: min 2, max 10.
  EXPECT_EQ(dataset.values(0, 0), 0.0);
  EXPECT_EQ(dataset.values(1, 0), (4.0 - 2.0) / 8.0);
  EXPECT_EQ(dataset.values(2, 0), (3.0 - 2.0) / 8.0);
  EXPECT_EQ(dataset.values(3, 0), 1.0);
  // Column 1 is constant: all 0.
  for (Eigen::Index i = 0; i < 4; ++i) EXPECT_EQ(dataset.values(i, 1), 0.0);
  // Column 2: min -7, max 1e-3, computed as (x - min) / (max - min) in float64.
  const double range = 1e-3 - -7.0;
  EXPECT_EQ(dataset.values(0, 2), (-1.0 + 7.0) / range);
  EXPECT_EQ(dataset.values(1, 2), (0.0 + 7.0) / range);
  EXPECT_EQ(dataset.values(2, 2), 1.0);
  EXPECT_EQ(dataset.values(3, 2), 0.0);
}

TEST(Normalization, StaysInUnitIntervalForAwkwardValues) {
  Dataset dataset;
  dataset.values.resize(5, 2);
  const double big = std::numeric_limits<double>::max();
  dataset.values << -big, 0.1,       //
      big, 0.2,                      //
      0, 0.3,                        //
      big / 3, 0.30000000000000004,  //
      -big / 7, 0.7;
  normalize(dataset, Normalization::minmax);
  for (Eigen::Index j = 0; j < 2; ++j)
    for (Eigen::Index i = 0; i < 5; ++i) {
      EXPECT_TRUE(std::isfinite(dataset.values(i, j)));
      EXPECT_GE(dataset.values(i, j), 0.0);
      EXPECT_LE(dataset.values(i, j), 1.0);
    }
  EXPECT_EQ(dataset.values(0, 0), 0.0);
  EXPECT_EQ(dataset.values(1, 0), 1.0);
  EXPECT_NEAR(dataset.values(2, 0), 0.5, 1e-15);
  EXPECT_EQ(dataset.values(4, 1), 1.0);
}

TEST(Normalization, NoneLeavesValues) {
  Dataset dataset;
  dataset.values = Matrix::Random(7, 3) * 100.0;
  const Matrix before = dataset.values;
  normalize(dataset, Normalization::none);
  EXPECT_EQ(dataset.values, before);
}

}  // namespace
}  // namespace subscale::load
