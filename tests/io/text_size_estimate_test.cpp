// CSV and ARFF files larger than memory are refused before they are read (exit 4), with the file's
// size and the numbers it holds; the estimate comes from the first lines and the file size.
// SUBSCALE_AVAILABLE_MEMORY stands in for a small machine, so no test needs a huge file.
#include "io/text_size_estimate.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "io/arff_reader.hpp"
#include "io/csv_reader.hpp"
#include "tests/io/test_files.hpp"

namespace subscale::io {
namespace {

using subscale::testing::resource_error_message;
using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;

class AvailableMemory {
 public:
  explicit AvailableMemory(std::uint64_t bytes) {
    setenv("SUBSCALE_AVAILABLE_MEMORY", std::to_string(bytes).c_str(), 1);
  }
  ~AvailableMemory() { unsetenv("SUBSCALE_AVAILABLE_MEMORY"); }
};

std::string csv_of(std::size_t rows) {
  std::string text = "# points\nx,y,z,w\n";
  for (std::size_t i = 0; i < rows; ++i)
    text += std::to_string(i) + ".25," + std::to_string(i % 7) + ",-1.5," + std::to_string(i * 3) + "\n";
  return text;
}

std::string arff_of(std::size_t rows) {
  std::string text = "% points\n@relation r\n@attribute x numeric\n@attribute y numeric\n@attribute c {a,b}\n@data\n";
  for (std::size_t i = 0; i < rows; ++i) text += std::to_string(i) + ".5," + std::to_string(i % 9) + ",a\n";
  return text;
}

std::uint64_t csv_cells(std::string_view line) {
  if (line.empty() || line.front() == '#') return 0;
  return static_cast<std::uint64_t>(std::count(line.begin(), line.end(), ',')) + 1;
}

TEST(TextSizeEstimate, SmallFileIsCountedExactly) {
  const TempDir dir;
  const std::string path = dir.write("small.csv", csv_of(1000));
  const TextSizeEstimate estimate = estimate_text_numbers(path, csv_cells);
  EXPECT_TRUE(estimate.exact);
  EXPECT_EQ(estimate.numbers, 4004u);  // 1000 rows of 4, and the header's 4 cells
  EXPECT_EQ(estimate.file_bytes, csv_of(1000).size());
}

TEST(TextSizeEstimate, LargeFileIsEstimatedFromItsFirstMegabyte) {
  const TempDir dir;
  constexpr std::size_t kRows = 150'000;  // about 3.5 MiB
  const std::string path = dir.write("large.csv", csv_of(kRows));
  const TextSizeEstimate estimate = estimate_text_numbers(path, csv_cells);
  EXPECT_FALSE(estimate.exact);
  EXPECT_NEAR(static_cast<double>(estimate.numbers), 4.0 * kRows, 0.1 * 4.0 * kRows);
}

TEST(TextSizeEstimate, CsvLargerThanMemoryIsRefusedBeforeReading) {
  const TempDir dir;
  const std::string path = dir.write("points.csv", csv_of(1000));
  {
    const AvailableMemory small(20'000);  // the numbers need 4004 x 8 x 2 = 64 064 bytes
    EXPECT_THAT(resource_error_message([&] { read_csv(path); }),
                AllOf(HasSubstr(path), HasSubstr("a CSV file of"), HasSubstr("4004 numbers"), HasSubstr("64064 bytes"),
                      HasSubstr("20000 bytes is available")));
  }
  const AvailableMemory enough(70'000);
  EXPECT_EQ(read_csv(path).values.rows(), 1000);
}

TEST(TextSizeEstimate, ArffLargerThanMemoryIsRefusedBeforeReading) {
  const TempDir dir;
  const std::string path = dir.write("points.arff", arff_of(500));
  {
    const AvailableMemory small(10'000);  // 500 rows of 3 values: 1500 x 16 = 24 000 bytes
    EXPECT_THAT(
        resource_error_message([&] { read_arff(path, ArffOptions{"c"}); }),
        AllOf(HasSubstr(path), HasSubstr("an ARFF file of"), HasSubstr("1500 numbers"), HasSubstr("24000 bytes")));
  }
  const AvailableMemory enough(30'000);
  EXPECT_EQ(read_arff(path, ArffOptions{"c"}).values.rows(), 500);
}

}  // namespace
}  // namespace subscale::io
