#include "io/dataset_loader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/hdf5_dataset_writer.hpp"
#include "io/hdf5_file.hpp"
#include "tests/io/test_files.hpp"

namespace subscale::io {
namespace {

using subscale::testing::input_error_message;
using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(InputFormat, ParseNames) {
  EXPECT_EQ(parse_input_format("auto"), InputFormat::auto_detect);
  EXPECT_EQ(parse_input_format("HDF5"), InputFormat::hdf5);
  EXPECT_EQ(parse_input_format("h5"), InputFormat::hdf5);
  EXPECT_EQ(parse_input_format("csv"), InputFormat::csv);
  EXPECT_EQ(parse_input_format(" Arff "), InputFormat::arff);
  try {
    parse_input_format("cvs");
    FAIL() << "no error";
  } catch (const UsageError& error) {
    EXPECT_THAT(error.what(), AllOf(HasSubstr("input.format"), HasSubstr("'cvs'"), HasSubstr("did you mean 'csv'")));
  }
  EXPECT_STREQ(to_string(InputFormat::arff), "arff");
}

TEST(InputFormat, ByExtension) {
  EXPECT_EQ(detect_input_format("x/data.h5"), InputFormat::hdf5);
  EXPECT_EQ(detect_input_format("data.HDF5"), InputFormat::hdf5);
  EXPECT_EQ(detect_input_format("data.csv"), InputFormat::csv);
  EXPECT_EQ(detect_input_format("data.tsv"), InputFormat::csv);
  EXPECT_EQ(detect_input_format("data.txt"), InputFormat::csv);
  EXPECT_EQ(detect_input_format("D05.arff"), InputFormat::arff);
}

TEST(InputFormat, ByContentForOtherExtensions) {
  TempDir dir;
  Dataset dataset;
  dataset.values = Matrix::Ones(2, 2);
  const std::string hdf5 = dir.file("points.bin");
  write_hdf5_dataset(dataset, hdf5);
  EXPECT_EQ(detect_input_format(hdf5), InputFormat::hdf5);
  EXPECT_EQ(detect_input_format(dir.write("weka.data", "% c\n@RELATION x\n")), InputFormat::arff);
  const std::string other = dir.write("numbers.xyz", "1,2\n");
  EXPECT_THAT(input_error_message([&] { detect_input_format(other); }),
              AllOf(HasSubstr(other), HasSubstr("'.xyz'"), HasSubstr("set input.format")));
  EXPECT_THAT(input_error_message([&] { detect_input_format(dir.file("gone.xyz")); }), HasSubstr("not found"));
}

TEST(ReadDataset, DispatchesByFormat) {
  TempDir dir;
  ReadOptions options;
  options.path = dir.write("a.csv", "x,y,label\n1,2,5\n3,4,6\n");
  options.label_column = "label";
  Dataset csv = read_dataset(options);
  EXPECT_EQ(csv.dimensions(), 2u);
  EXPECT_THAT(csv.labels, ElementsAre(5, 6));

  // An explicit format overrides the extension.
  options.path = dir.write("a.h5", "@relation r\n@attribute v real\n@attribute class {1,2}\n@data\n0.5,2\n");
  options.format = InputFormat::arff;
  options.label_column.clear();
  Dataset arff = read_dataset(options);
  EXPECT_EQ(arff.values(0, 0), 0.5);
  EXPECT_THAT(arff.labels, ElementsAre(2));

  Dataset original;
  original.values = Matrix::Constant(3, 2, 0.75);
  options.path = dir.file("b.hdf5");
  write_hdf5_dataset(original, options.path, {"/grid", false, 0, {}});
  options.format = InputFormat::auto_detect;
  options.dataset_path = "/grid";
  EXPECT_EQ(read_dataset(options).values, original.values);
}

// input.label_column on HDF5 input names the labels' dataset: beside the data, or by its path.
TEST(ReadDataset, AnHdf5LabelColumnNamesTheLabelsDataset) {
  TempDir dir;
  ReadOptions options;
  options.path = dir.file("classes.h5");
  {
    Hdf5File file(options.path, Hdf5File::Mode::create_truncate);
    const std::vector<double> values{0, 1, 2, 3, 4, 5};
    file.write("/g/data", {3, 2}, values.data());
    file.write("/g/kind", std::vector<std::int64_t>{4, -1, 4});
    file.write("/g/labels", std::vector<std::int64_t>{0, 0, 0});
    file.close();
  }
  options.dataset_path = "/g/data";
  EXPECT_THAT(read_dataset(options).labels, ElementsAre(0, 0, 0));  // `labels` when none is named
  options.label_column = "kind";
  EXPECT_THAT(read_dataset(options).labels, ElementsAre(4, -1, 4));
  options.label_column = "/g/kind";
  EXPECT_THAT(read_dataset(options).labels, ElementsAre(4, -1, 4));
  options.label_column = "class";
  EXPECT_THAT(input_error_message([&] { read_dataset(options); }),
              AllOf(HasSubstr("no labels dataset at '/g/class'"), HasSubstr("/g/kind")));
}

TEST(ReadDataset, MissingFileForEveryFormat) {
  TempDir dir;
  for (const char* name : {"none.h5", "none.csv", "none.arff"}) {
    ReadOptions options;
    options.path = dir.file(name);
    EXPECT_THAT(input_error_message([&] { read_dataset(options); }), AllOf(HasSubstr(name), HasSubstr("not found")));
  }
}

}  // namespace
}  // namespace subscale::io
