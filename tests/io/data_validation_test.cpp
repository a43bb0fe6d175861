#include "io/data_validation.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "tests/io/test_files.hpp"

namespace subscale::io {
namespace {

using subscale::testing::input_error_message;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ParseNumber, AcceptsDecimalForms) {
  double value = 0;
  EXPECT_TRUE(parse_number("0.25", value));
  EXPECT_EQ(value, 0.25);
  EXPECT_TRUE(parse_number("+3", value));
  EXPECT_EQ(value, 3.0);
  EXPECT_TRUE(parse_number("-1.5E+2", value));
  EXPECT_EQ(value, -150.0);
  EXPECT_TRUE(parse_number(".5", value));
  EXPECT_EQ(value, 0.5);
  EXPECT_TRUE(parse_number("7.", value));
  EXPECT_EQ(value, 7.0);
}

TEST(ParseNumber, RefusesText) {
  double value = 0;
  for (const char* cell : {"", "+", "-", "abc", "1.2.3", "1,5", "0x10", " 1", "1 ", "1e", "--1", "+-1", "++1"})
    EXPECT_FALSE(parse_number(cell, value)) << "'" << cell << "'";
}

TEST(ParseNumber, NanInfAndOutOfRange) {
  double value = 0;
  EXPECT_TRUE(parse_number("nan", value));
  EXPECT_TRUE(std::isnan(value));
  EXPECT_TRUE(parse_number("-Inf", value));
  EXPECT_EQ(value, -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(parse_number("1e400", value));
  EXPECT_EQ(value, std::numeric_limits<double>::infinity());
  EXPECT_TRUE(parse_number("-123456789e999", value));
  EXPECT_EQ(value, -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(parse_number("1e-400", value));
  EXPECT_EQ(value, 0.0);
  EXPECT_TRUE(parse_number("-0.0000001e-400", value));
  EXPECT_EQ(value, 0.0);
  EXPECT_TRUE(std::signbit(value));
  // 400 digits without an exponent: too large.
  EXPECT_TRUE(parse_number("1" + std::string(400, '0'), value));
  EXPECT_EQ(value, std::numeric_limits<double>::infinity());
  // 400 zeros after the point: too small.
  EXPECT_TRUE(parse_number("0." + std::string(400, '0') + "1", value));
  EXPECT_EQ(value, 0.0);
}

TEST(ParseInteger, Labels) {
  std::int64_t value = 0;
  EXPECT_TRUE(parse_integer("-1", value));
  EXPECT_EQ(value, -1);
  EXPECT_TRUE(parse_integer("+701", value));
  EXPECT_EQ(value, 701);
  EXPECT_FALSE(parse_integer("1.0", value));
  EXPECT_FALSE(parse_integer("+-1", value));
  EXPECT_FALSE(parse_integer("a", value));
  EXPECT_FALSE(parse_integer("99999999999999999999", value));
}

TEST(DescribeLocation, Forms) {
  EXPECT_EQ(describe_location("f.csv", CellLocation::line(7, 3, "dim2")), "f.csv, line 7, column 3 (dim2)");
  EXPECT_EQ(describe_location("f.csv", CellLocation::line(7)), "f.csv, line 7");
  EXPECT_EQ(describe_location("f.h5", {CellLocation::RowKind::row, 5, 2, {}, "/data"}),
            "f.h5, dataset /data, row 5 (index 4), column 2");
  EXPECT_EQ(describe_location("f.h5", {}), "f.h5");
}

TEST(ParseCell, Messages) {
  EXPECT_EQ(parse_cell("2.5", "f.csv", CellLocation::line(2, 1)), 2.5);
  EXPECT_THAT(input_error_message([] { parse_cell("x", "f.csv", CellLocation::line(2, 1, "a")); }),
              AllOf(HasSubstr("f.csv, line 2, column 1 (a): 'x' is not a number"), HasSubstr("; ")));
  const std::string long_cell(100, 'z');
  const std::string message = input_error_message([&] { parse_cell(long_cell, "f.csv", CellLocation::line(2, 1)); });
  // 40 z and "...", built in place: `std::string(40, 'z') + "..."` draws a false -Warray-bounds
  // from GCC 12 at -O3.
  std::string shown(43, '.');
  std::fill_n(shown.begin(), 40, 'z');
  EXPECT_THAT(message, HasSubstr(shown));
  EXPECT_THAT(message, ::testing::Not(HasSubstr(std::string(41, 'z'))));
}

TEST(ValidateDataset, ReportsTheFirstBadCellInRowOrder) {
  Dataset dataset;
  dataset.source = "made.h5";
  dataset.values = Matrix::Zero(5, 3);
  dataset.values(3, 0) = std::numeric_limits<double>::quiet_NaN();
  dataset.values(1, 2) = std::numeric_limits<double>::infinity();
  dataset.column_names = {"a", "b", "c"};
  EXPECT_THAT(input_error_message([&] { validate_dataset(dataset); }),
              AllOf(HasSubstr("made.h5, row 2 (index 1), column 3 (c)"), HasSubstr("+Inf")));
}

TEST(ValidateDataset, ShapesAndSideColumns) {
  Dataset dataset;
  dataset.source = "made.csv";
  EXPECT_THAT(input_error_message([&] { validate_dataset(dataset); }),
              AllOf(HasSubstr("made.csv"), HasSubstr("empty")));
  dataset.values = Matrix::Ones(3, 2);
  validate_dataset(dataset);  // fine
  dataset.labels = {1, 2};
  EXPECT_THAT(input_error_message([&] { validate_dataset(dataset); }),
              AllOf(HasSubstr("labels has 2 entries"), HasSubstr("3 points")));
  dataset.labels.clear();
  dataset.column_names = {"only one"};
  EXPECT_THAT(input_error_message([&] { validate_dataset(dataset); }), HasSubstr("column_names has 1 entries"));
}

TEST(CheckShape, PointLimit) {
  check_shape("f", max_points, 1, "x");
  EXPECT_THAT(input_error_message([] { check_shape("f", max_points + 1, 1, "x"); }),
              AllOf(HasSubstr("4294967296 points"), HasSubstr("2^32 - 1")));
}

TEST(EncodeLabels, IntegersKeptTextCoded) {
  EXPECT_THAT(encode_labels({"100", "-1", "?", "", "7"}), ElementsAre(100, -1, -1, -1, 7));
  EXPECT_THAT(encode_labels({"b", "a", "b", "?", "c"}), ElementsAre(0, 1, 0, -1, 2));
  EXPECT_THAT(encode_labels({"b", "a", "c"}, {"a", "b", "c"}), ElementsAre(1, 0, 2));
  // One text among integers: all are coded as text.
  EXPECT_THAT(encode_labels({"1", "x", "1"}), ElementsAre(0, 1, 0));
}

}  // namespace
}  // namespace subscale::io
