// Whether a CSV file's first line is a header: a UTF-8 byte-order mark is skipped first, a line
// of numbers with empty cells or '?' is data (whose missing values are then refused, never a
// silently dropped first point), and CsvHeader::present / ::absent (input.header) override the
// rule. The reader says in Dataset::reader_note which it took.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "io/csv_reader.hpp"
#include "io/dataset_loader.hpp"
#include "tests/io/test_files.hpp"

namespace subscale::io {
namespace {

using subscale::testing::input_error_message;
using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kByteOrderMark = "\xEF\xBB\xBF";

Dataset parse_csv(const std::string& text, const CsvOptions& options = {}) {
  std::istringstream input(text);
  return read_csv(input, "mem.csv", options);
}

std::string csv_error_of(const std::string& text, const CsvOptions& options = {}) {
  return input_error_message([&] { parse_csv(text, options); });
}

// `rows` lines of two numbers, the first being the row's number: a shifted row shows at once.
std::string numbered_rows(int rows) {
  std::string text;
  for (int i = 0; i < rows; ++i) text += std::to_string(i) + "," + std::to_string(0.5 + i) + "\n";
  return text;
}

TEST(CsvHeader, ByteOrderMarkBeforeNumbersKeepsTheFirstRowAsData) {
  const Dataset data = parse_csv(kByteOrderMark + numbered_rows(1000));
  ASSERT_EQ(data.points(), 1000u);
  EXPECT_THAT(data.column_names, IsEmpty());
  EXPECT_EQ(data.values(0, 0), 0.0);
  EXPECT_EQ(data.values(999, 0), 999.0);
  EXPECT_THAT(data.reader_note, AllOf(HasSubstr("header: none, line 1 is data"), HasSubstr("byte-order mark")));
}

TEST(CsvHeader, ByteOrderMarkIsNotPartOfTheFirstName) {
  const Dataset data = parse_csv(std::string(kByteOrderMark) + "x,y\n1,2\n3,4\n");
  EXPECT_THAT(data.column_names, ElementsAre("x", "y"));
  EXPECT_EQ(data.points(), 2u);
}

TEST(CsvHeader, ByteOrderMarkOfAFileOnDiskIsSkipped) {
  TempDir dir;
  const std::string path = dir.write("bom.csv", kByteOrderMark + numbered_rows(10));
  EXPECT_EQ(read_csv(path).points(), 10u);
}

TEST(CsvHeader, EmptyCellInTheFirstLineIsAMissingValueNotAName) {
  EXPECT_THAT(csv_error_of("1,,3\n4,5,6\n7,8,9\n"), AllOf(HasSubstr("line 1, column 2"), HasSubstr("empty")));
  EXPECT_THAT(csv_error_of("1,2,\n4,5,6\n"), AllOf(HasSubstr("line 1, column 3"), HasSubstr("empty")));
}

TEST(CsvHeader, QuestionMarkInTheFirstLineIsAMissingValueNotAName) {
  EXPECT_THAT(csv_error_of("1,?,3\n4,5,6\n"), AllOf(HasSubstr("line 1, column 2"), HasSubstr("'?'")));
  EXPECT_THAT(csv_error_of("? 2 3\n4 5 6\n"), AllOf(HasSubstr("line 1, column 1"), HasSubstr("'?'")));
}

TEST(CsvHeader, TextCellMakesTheFirstLineAHeaderAndTheNoteSaysWhy) {
  const Dataset data = parse_csv("a,,c\n1,2,3\n");  // one name may be empty when another is text
  EXPECT_THAT(data.column_names, ElementsAre("a", "", "c"));
  EXPECT_EQ(data.points(), 1u);
  EXPECT_THAT(data.reader_note,
              AllOf(HasSubstr("header: line 1 names the columns"), HasSubstr("'a'"), HasSubstr("input.header: false")));
}

TEST(CsvHeader, HeaderAfterCommentsIsFoundOnItsLine) {
  const Dataset data = parse_csv("# made by hand\n\nx,y\n1,2\n");
  EXPECT_THAT(data.column_names, ElementsAre("x", "y"));
  EXPECT_THAT(data.reader_note, HasSubstr("line 3 names the columns"));
}

TEST(CsvHeader, NumbersLineIsDataAndTheNoteSaysHowToChangeIt) {
  const Dataset data = parse_csv("1,2\n3,4\n");
  EXPECT_EQ(data.points(), 2u);
  EXPECT_THAT(data.reader_note, AllOf(HasSubstr("header: none, line 1 is data"), HasSubstr("input.header: true")));
}

TEST(CsvHeader, PresentTakesANumericFirstLineAsNames) {
  const Dataset data = parse_csv("1990,2000\n3,4\n5,6\n", {.header = CsvHeader::present});
  EXPECT_THAT(data.column_names, ElementsAre("1990", "2000"));
  EXPECT_EQ(data.points(), 2u);
  EXPECT_THAT(data.reader_note, HasSubstr("(input.header: true)"));
}

TEST(CsvHeader, AbsentReadsATextFirstLineAsDataAndRefusesIt) {
  EXPECT_THAT(csv_error_of("a,b\n1,2\n", {.header = CsvHeader::absent}),
              AllOf(HasSubstr("line 1, column 1"), HasSubstr("'a' is not a number")));
  const Dataset data = parse_csv("1,2\n3,4\n", {.header = CsvHeader::absent});
  EXPECT_EQ(data.points(), 2u);
  EXPECT_THAT(data.reader_note, HasSubstr("(input.header: false)"));
}

TEST(CsvHeader, AbsentRefusesALabelColumnGivenByName) {
  EXPECT_THAT(csv_error_of("x,class\n1,2\n", {.label_column = "class", .header = CsvHeader::absent}),
              AllOf(HasSubstr("given by name"), HasSubstr("input.header: false")));
}

TEST(CsvHeader, LoaderPassesTheChoiceOn) {
  TempDir dir;
  const std::string path = dir.write("years.csv", "1990,2000\n3,4\n");
  EXPECT_EQ(read_dataset({.path = path}).points(), 2u);
  EXPECT_EQ(read_dataset({.path = path, .header = CsvHeader::present}).points(), 1u);
}

}  // namespace
}  // namespace subscale::io
