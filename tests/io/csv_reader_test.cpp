#include "io/csv_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/io/test_files.hpp"

namespace subscale::io {
namespace {

using subscale::testing::input_error_message;
using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

Dataset parse_csv(const std::string& text, const CsvOptions& options = {}) {
  std::istringstream input(text);
  return read_csv(input, "mem.csv", options);
}

std::string csv_error_of(const std::string& text, const CsvOptions& options = {}) {
  return input_error_message([&] { parse_csv(text, options); });
}

void expect_matrix(const Dataset& dataset, const std::vector<std::vector<double>>& rows) {
  ASSERT_EQ(dataset.points(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(dataset.dimensions(), rows[i].size());
    for (std::size_t j = 0; j < rows[i].size(); ++j)
      EXPECT_EQ(dataset.values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)), rows[i][j])
          << "row " << i << " column " << j;
  }
}

TEST(CsvSeparator, DetectedFromTheLine) {
  EXPECT_EQ(detect_csv_separator("1,2\t3"), CsvSeparator::comma);
  EXPECT_EQ(detect_csv_separator("1\t2 3"), CsvSeparator::tab);
  EXPECT_EQ(detect_csv_separator("1  2 3"), CsvSeparator::whitespace);
}

TEST(CsvReader, CommaWithHeader) {
  const Dataset dataset = parse_csv("x,y,z\n1,2,3\n4.5,-5e-1,+6\n");
  expect_matrix(dataset, {{1, 2, 3}, {4.5, -0.5, 6}});
  EXPECT_THAT(dataset.column_names, ElementsAre("x", "y", "z"));
  EXPECT_TRUE(dataset.labels.empty());
  EXPECT_EQ(dataset.source, "mem.csv");
}

TEST(CsvReader, CommaWithoutHeader) {
  const Dataset dataset = parse_csv("1, 2 ,3\n4,5,6\n");
  expect_matrix(dataset, {{1, 2, 3}, {4, 5, 6}});
  EXPECT_TRUE(dataset.column_names.empty());
}

TEST(CsvReader, TabWithHeaderAndQuotes) {
  const Dataset dataset = parse_csv("\"a b\"\tc\n0.25\t\"1\"\n0.5\t2\n");
  expect_matrix(dataset, {{0.25, 1}, {0.5, 2}});
  EXPECT_THAT(dataset.column_names, ElementsAre("a b", "c"));
}

TEST(CsvReader, WhitespaceRunsWithoutHeader) {
  const Dataset dataset = parse_csv("  1   2  3\n4 5    6   \n");
  expect_matrix(dataset, {{1, 2, 3}, {4, 5, 6}});
  // Once the first line has set blank separation, tabs count as blanks too.
  expect_matrix(parse_csv("1 2 3\n4\t5 \t 6\n"), {{1, 2, 3}, {4, 5, 6}});
}

TEST(CsvReader, WhitespaceWithHeader) {
  const Dataset dataset = parse_csv("alpha beta\n1 2\n");
  expect_matrix(dataset, {{1, 2}});
  EXPECT_THAT(dataset.column_names, ElementsAre("alpha", "beta"));
}

TEST(CsvReader, CrLfBlankLinesAndComments) {
  const Dataset dataset = parse_csv("# made by hand\r\n\r\na,b\r\n1,2\r\n\r\n# between\r\n3,4\r\n\r\n");
  expect_matrix(dataset, {{1, 2}, {3, 4}});
  EXPECT_THAT(dataset.column_names, ElementsAre("a", "b"));
}

TEST(CsvReader, ExactDecimalConversion) {
  const Dataset dataset = parse_csv("45.451620194724754,1e-400,0.1\n");
  EXPECT_EQ(dataset.values(0, 0), 45.451620194724754);
  EXPECT_EQ(dataset.values(0, 1), 0.0);  // underflow is a zero, not an error
  EXPECT_EQ(dataset.values(0, 2), 0.1);
}

TEST(CsvReader, LabelColumnByNameWithTextLabels) {
  const Dataset dataset = parse_csv("x,kind,y\n1,cat,2\n3,dog,4\n5,cat,6\n7,?,8\n", {"kind"});
  expect_matrix(dataset, {{1, 2}, {3, 4}, {5, 6}, {7, 8}});
  EXPECT_THAT(dataset.column_names, ElementsAre("x", "y"));
  EXPECT_THAT(dataset.labels, ElementsAre(0, 1, 0, -1));
}

TEST(CsvReader, LabelColumnByNameIsCaseInsensitive) {
  const Dataset dataset = parse_csv("x,Class\n1,7\n2,-1\n", {"class"});
  EXPECT_THAT(dataset.labels, ElementsAre(7, -1));
}

TEST(CsvReader, LabelColumnByNumberWithoutHeader) {
  // The text label in the first line must not make it a header: the label column is left out of
  // the header test.
  const Dataset dataset = parse_csv("1 2 100\n3 4 -1\n5 6 100\n", {"3"});
  expect_matrix(dataset, {{1, 2}, {3, 4}, {5, 6}});
  EXPECT_THAT(dataset.labels, ElementsAre(100, -1, 100));
  const Dataset text_labels = parse_csv("a,1,2\nb,3,4\n", {"1"});
  expect_matrix(text_labels, {{1, 2}, {3, 4}});
  EXPECT_THAT(text_labels.labels, ElementsAre(0, 1));
}

TEST(CsvReader, ReadsAFile) {
  TempDir dir;
  const std::string path = dir.write("points.tsv", "u\tv\n1\t2\n3\t4\n");
  const Dataset dataset = read_csv(path);
  expect_matrix(dataset, {{1, 2}, {3, 4}});
  EXPECT_EQ(dataset.source, path);
}

// ---- bad input: every message names the file, the line and the column, and says what to do ----

TEST(CsvReaderErrors, NaN) {
  const std::string message = csv_error_of("a,b\n1,2\n3,nan\n");
  EXPECT_THAT(message, AllOf(HasSubstr("mem.csv"), HasSubstr("line 3"), HasSubstr("column 2 (b)"), HasSubstr("NaN"),
                             HasSubstr("remove the row")));
}

TEST(CsvReaderErrors, InfAndOverflow) {
  EXPECT_THAT(csv_error_of("1,2\n3,-inf\n"), AllOf(HasSubstr("line 2"), HasSubstr("column 2"), HasSubstr("-Inf")));
  EXPECT_THAT(csv_error_of("1,2\nInfinity,3\n"), AllOf(HasSubstr("line 2"), HasSubstr("column 1"), HasSubstr("+Inf")));
  EXPECT_THAT(csv_error_of("1 2\n3 1e999\n"), AllOf(HasSubstr("line 2"), HasSubstr("column 2"), HasSubstr("Inf")));
}

TEST(CsvReaderErrors, NonNumericCell) {
  const std::string message = csv_error_of("x,y\n1,2\n3,4\n5,abc\n");
  EXPECT_THAT(message, AllOf(HasSubstr("mem.csv, line 4, column 2 (y)"), HasSubstr("'abc' is not a number"),
                             HasSubstr("fix the cell")));
  // Without a header the column is named by its number only.
  EXPECT_THAT(csv_error_of("1\t2\n3\t1.2.3\n"), AllOf(HasSubstr("line 2, column 2:"), HasSubstr("'1.2.3'")));
}

TEST(CsvReaderErrors, EmptyCell) {
  EXPECT_THAT(csv_error_of("1,2,3\n4,,6\n"), AllOf(HasSubstr("line 2, column 2"), HasSubstr("empty")));
}

TEST(CsvReaderErrors, LineNumbersCountCommentsAndBlankLines) {
  EXPECT_THAT(csv_error_of("# comment\n\na,b\n1,2\n\n3,x\n"), HasSubstr("line 6, column 2 (b)"));
}

TEST(CsvReaderErrors, RaggedRows) {
  const std::string message = csv_error_of("1,2,3\n4,5,6\n7,8\n");
  EXPECT_THAT(message, AllOf(HasSubstr("mem.csv, line 3"), HasSubstr("2 comma-separated cells"),
                             HasSubstr("line 1 has 3"), HasSubstr("same number of columns")));
  EXPECT_THAT(csv_error_of("a b\n1 2\n3 4 5\n"), AllOf(HasSubstr("line 3"), HasSubstr("3 blank-separated cells")));
}

TEST(CsvReaderErrors, EmptyMatrix) {
  EXPECT_THAT(csv_error_of(""), AllOf(HasSubstr("mem.csv"), HasSubstr("empty")));
  EXPECT_THAT(csv_error_of("# nothing\n\n"), HasSubstr("empty"));
  EXPECT_THAT(csv_error_of("a,b,c\n"), AllOf(HasSubstr("empty"), HasSubstr("0 points x 3 dimensions")));
  // Only a label column: no numeric dimensions.
  EXPECT_THAT(csv_error_of("1\n2\n", {"1"}), AllOf(HasSubstr("empty"), HasSubstr("2 points x 0 dimensions")));
}

TEST(CsvReaderErrors, LabelColumnProblems) {
  EXPECT_THAT(csv_error_of("x,klass\n1,2\n", {"class"}),
              AllOf(HasSubstr("line 1"), HasSubstr("no column named 'class'"), HasSubstr("did you mean 'klass'")));
  EXPECT_THAT(csv_error_of("1,2\n", {"class"}), AllOf(HasSubstr("no header line"), HasSubstr("column number")));
  EXPECT_THAT(csv_error_of("1,2\n", {"5"}), AllOf(HasSubstr("label column 5 does not exist"), HasSubstr("1 to 2")));
}

TEST(CsvReaderErrors, MissingFile) {
  TempDir dir;
  const std::string path = dir.file("absent.csv");
  EXPECT_THAT(input_error_message([&] { read_csv(path); }), AllOf(HasSubstr(path), HasSubstr("file not found")));
  EXPECT_THAT(input_error_message([&] { read_csv(dir.path().string()); }), HasSubstr("is a folder"));
}

TEST(CsvReaderErrors, FileMessagesNameThePath) {
  TempDir dir;
  const std::string path = dir.write("bad.csv", "a,b\n1,2\n3,oops\n");
  EXPECT_THAT(input_error_message([&] { read_csv(path); }), HasSubstr(path + ", line 3, column 2 (b)"));
}

}  // namespace
}  // namespace subscale::io
