#include "io/arff_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/io/test_files.hpp"

namespace subscale::io {
namespace {

using subscale::testing::input_error_message;
using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

Dataset parse_arff(const std::string& text, const ArffOptions& options = {}) {
  std::istringstream input(text);
  return read_arff(input, "mem.arff", options);
}

std::string arff_error_of(const std::string& text, const ArffOptions& options = {}) {
  return input_error_message([&] { parse_arff(text, options); });
}

TEST(ArffReader, NumericAttributesAndIntegerClass) {
  const Dataset dataset = parse_arff(
      "% a comment\n"
      "@relation D2\n"
      "\n"
      "@attribute dim0 real\n"
      "@ATTRIBUTE dim1 NUMERIC\n"
      "@Attribute dim2 integer\n"
      "@attribute class {100,701,-1}\n"
      "@DATA\n"
      "% comment inside the data\n"
      "1.5,2,3,100\n"
      "-4, 5e-1 ,6,-1\n"
      "7,8,9,701\n");
  ASSERT_EQ(dataset.points(), 3u);
  ASSERT_EQ(dataset.dimensions(), 3u);
  EXPECT_EQ(dataset.values(0, 0), 1.5);
  EXPECT_EQ(dataset.values(1, 0), -4.0);
  EXPECT_EQ(dataset.values(1, 1), 0.5);
  EXPECT_EQ(dataset.values(2, 2), 9.0);
  EXPECT_THAT(dataset.column_names, ElementsAre("dim0", "dim1", "dim2"));
  EXPECT_THAT(dataset.labels, ElementsAre(100, -1, 701));
  EXPECT_EQ(dataset.source, "mem.arff");
}

TEST(ArffReader, QuotedNamesTextClassInTheMiddleAndMissingLabel) {
  const Dataset dataset = parse_arff(
      "@relation 'my data'\n"
      "@attribute 'first value' numeric\n"
      "@attribute Class {'setosa', versicolor, \"virginica\"}\n"
      "@attribute second numeric\n"
      "@data\n"
      "1,virginica,2\n"
      "3,'setosa',4\n"
      "5,?,6\n"
      "7,versicolor,8\n");
  ASSERT_EQ(dataset.points(), 4u);
  ASSERT_EQ(dataset.dimensions(), 2u);
  EXPECT_EQ(dataset.values(3, 1), 8.0);
  EXPECT_THAT(dataset.column_names, ElementsAre("first value", "second"));
  // Non-integer nominal values are coded in declared order; '?' is -1.
  EXPECT_THAT(dataset.labels, ElementsAre(2, 0, -1, 1));
}

TEST(ArffReader, WithoutClassNoLabels) {
  const Dataset dataset = parse_arff("@relation r\n@attribute a real\n@attribute b real\n@data\n1,2\n");
  EXPECT_TRUE(dataset.labels.empty());
  EXPECT_EQ(dataset.dimensions(), 2u);
}

TEST(ArffReader, ChosenLabelAttribute) {
  const Dataset dataset =
      parse_arff("@relation r\n@attribute a real\n@attribute group integer\n@data\n1,5\n2,6\n", {"group"});
  EXPECT_EQ(dataset.dimensions(), 1u);
  EXPECT_THAT(dataset.labels, ElementsAre(5, 6));
}

// ---- bad input ----

TEST(ArffReaderErrors, MissingNumericValue) {
  const std::string message = arff_error_of("@relation r\n@attribute a real\n@attribute b real\n@data\n1,2\n3,?\n");
  EXPECT_THAT(message, AllOf(HasSubstr("mem.arff, line 6, column 2 (b)"), HasSubstr("missing")));
}

TEST(ArffReaderErrors, NaNInfAndText) {
  const std::string header = "@relation r\n@attribute a real\n@attribute b real\n@data\n";
  EXPECT_THAT(arff_error_of(header + "1,2\nnan,2\n"), AllOf(HasSubstr("line 6, column 1 (a)"), HasSubstr("NaN")));
  EXPECT_THAT(arff_error_of(header + "1,inf\n"), AllOf(HasSubstr("line 5, column 2 (b)"), HasSubstr("+Inf")));
  EXPECT_THAT(arff_error_of(header + "1,two\n"),
              AllOf(HasSubstr("line 5, column 2 (b)"), HasSubstr("'two' is not a number")));
}

TEST(ArffReaderErrors, RaggedRow) {
  EXPECT_THAT(arff_error_of("@relation r\n@attribute a real\n@attribute b real\n@data\n1,2\n1,2,3\n"),
              AllOf(HasSubstr("line 6"), HasSubstr("3 values but 2 attributes")));
}

TEST(ArffReaderErrors, UndeclaredClassValue) {
  EXPECT_THAT(arff_error_of("@relation r\n@attribute a real\n@attribute class {1,2}\n@data\n0.5,3\n"),
              AllOf(HasSubstr("line 5, column 2 (class)"), HasSubstr("'3' is not one of the values declared")));
}

TEST(ArffReaderErrors, UnsupportedAttributeTypes) {
  EXPECT_THAT(arff_error_of("@relation r\n@attribute a real\n@attribute name string\n@data\n1,x\n"),
              AllOf(HasSubstr("line 3"), HasSubstr("'name' has type 'string'"), HasSubstr("only numeric")));
  EXPECT_THAT(arff_error_of("@relation r\n@attribute color {red,blue}\n@attribute class {1,2}\n@data\nred,1\n"),
              AllOf(HasSubstr("line 2"), HasSubstr("'color'")));
}

TEST(ArffReaderErrors, StructuralProblems) {
  EXPECT_THAT(arff_error_of("@relation r\n@attribute a real\n"), HasSubstr("no @data line"));
  EXPECT_THAT(arff_error_of("1,2,3\n"), AllOf(HasSubstr("line 1"), HasSubstr("expected an @relation")));
  EXPECT_THAT(arff_error_of("@relation r\n@attribute a real\n@data\n{0 1.5}\n"),
              AllOf(HasSubstr("line 4"), HasSubstr("sparse")));
  EXPECT_THAT(arff_error_of("@relation r\n@attribute a real\n@data\n"), HasSubstr("empty"));
  EXPECT_THAT(arff_error_of("@relation r\n@attribute class {1,2}\n@data\n1\n"),
              AllOf(HasSubstr("empty"), HasSubstr("0 dimensions")));
  EXPECT_THAT(arff_error_of("@relation r\n@attrib a real\n@data\n"), HasSubstr("unknown keyword '@attrib'"));
  EXPECT_THAT(arff_error_of("@relation r\n@attribute a real\n@attribute b real\n@data\n1,2\n", {"lable"}),
              HasSubstr("no attribute named 'lable'"));
}

TEST(ArffReaderErrors, MissingFile) {
  TempDir dir;
  const std::string path = dir.file("none.arff");
  EXPECT_THAT(input_error_message([&] { read_arff(path); }), AllOf(HasSubstr(path), HasSubstr("file not found")));
}

// ---- the OpenSubspace benchmark files, when the shared folder has them ----

struct TrueFile {
  std::size_t dimensions = 0;
  std::vector<std::vector<std::uint64_t>> clusters;
};

TrueFile read_true(const std::filesystem::path& path) {
  std::ifstream input(path);
  std::string line;
  std::getline(input, line);
  TrueFile result;
  result.dimensions = std::stoul(line.substr(4, line.find(';') - 4));
  while (std::getline(input, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    int flag = 0;
    for (std::size_t j = 0; j < result.dimensions; ++j) fields >> flag;
    std::size_t size = 0;
    fields >> size;
    std::vector<std::uint64_t> ids(size);
    for (auto& id : ids) fields >> id;
    result.clusters.push_back(std::move(ids));
  }
  return result;
}

TEST(ArffReaderShared, OpenSubspaceFilesLoad) {
  const char* shared = std::getenv("SUBSCALE_SHARED_DIR");
  if (!shared) GTEST_SKIP() << "SUBSCALE_SHARED_DIR is not set";
  const std::filesystem::path root = std::filesystem::path(shared) / "datasets" / "opensubspace";
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << root << " is absent";
  std::set<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
    if (entry.path().extension() == ".arff") files.insert(entry.path());
  if (files.empty()) GTEST_SKIP() << "no .arff files under " << root;

  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    // Reference counts straight from the text: attribute lines and data lines.
    std::ifstream text(file);
    std::string line, first_data;
    std::size_t attributes = 0, rows = 0;
    bool in_data = false;
    while (std::getline(text, line)) {
      if (line.empty() || line[0] == '%') continue;
      if (!in_data) {
        if (line.rfind("@attribute", 0) == 0) ++attributes;
        if (line.rfind("@data", 0) == 0) in_data = true;
        continue;
      }
      if (first_data.empty()) first_data = line;
      ++rows;
    }
    const Dataset dataset = read_arff(file.string());
    EXPECT_EQ(dataset.points(), rows);
    EXPECT_EQ(dataset.dimensions(), attributes - 1);
    ASSERT_EQ(dataset.labels.size(), rows);
    // The first value, converted exactly as strtod does.
    EXPECT_EQ(dataset.values(0, 0), std::strtod(first_data.c_str(), nullptr));
    // The generated suites mark noise with the class -1; the real-world sets' classes are all
    // classes, and their .true files open with a title line instead of DIM=.
    const bool real_world = file.parent_path().filename() == "real_world";
    if (!real_world) {
      EXPECT_NE(std::find(dataset.labels.begin(), dataset.labels.end(), -1), dataset.labels.end());
    }

    std::filesystem::path truth = file;
    truth.replace_extension(".true");
    if (!std::filesystem::exists(truth) || real_world) continue;
    const TrueFile ground_truth = read_true(truth);
    EXPECT_EQ(ground_truth.dimensions, dataset.dimensions());
    for (const auto& cluster : ground_truth.clusters)
      for (auto id : cluster) ASSERT_LT(id, dataset.points());
  }
}

}  // namespace
}  // namespace subscale::io
