// HDF5 datasets whose values lie in other files: a virtual dataset reads its source files, and
// a dataset with external raw storage (H5Pset_external) reads files beside the HDF5 file. What is
// missing is refused by name; libhdf5 itself would read it as zeros, or look in the working folder.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "io/hdf5_dataset_reader.hpp"
#include "io/hdf5_file.hpp"
#include "tests/io/test_files.hpp"

namespace subscale::io {
namespace {

using subscale::testing::input_error_message;
using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr hsize_t kRows = 4, kColumns = 2;
const std::vector<double> kValues = {1, 2, 3, 4, 5, 6, 7, 8};

void write_plain(const std::string& path, const std::string& dataset) {
  Hdf5File file(path, Hdf5File::Mode::create_truncate);
  file.write(dataset, {kRows, kColumns}, kValues.data());
  file.close();
}

// A virtual /data mapping all of `source_dataset` in `source_file` (a name as the writer gave it).
void write_virtual(const std::string& path, const std::string& source_file, const std::string& source_dataset) {
  const hsize_t dims[2] = {kRows, kColumns};
  Hdf5Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  Hdf5Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
  Hdf5Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  ASSERT_GE(H5Pset_virtual(properties.get(), space.get(), source_file.c_str(), source_dataset.c_str(), space.get()), 0);
  Hdf5Handle data(
      H5Dcreate2(file.get(), "/data", H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
      H5Dclose);
  ASSERT_TRUE(data.valid());
}

// /data stored in the external file `raw_name` (relative: beside the HDF5 file), `raw_bytes` of it.
void write_external(const std::string& path, const std::string& raw_name, std::size_t raw_bytes) {
  const std::filesystem::path raw = std::filesystem::path(path).parent_path() / raw_name;
  std::ofstream(raw, std::ios::binary)
      .write(reinterpret_cast<const char*>(kValues.data()), static_cast<std::streamsize>(raw_bytes));
  const hsize_t dims[2] = {kRows, kColumns};
  Hdf5Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  Hdf5Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
  Hdf5Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  ASSERT_GE(H5Pset_external(properties.get(), raw_name.c_str(), 0, kValues.size() * sizeof(double)), 0);
  Hdf5Handle data(
      H5Dcreate2(file.get(), "/data", H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
      H5Dclose);
  ASSERT_TRUE(data.valid());
}

void expect_values(const Dataset& data) {
  ASSERT_EQ(data.points(), kRows);
  ASSERT_EQ(data.dimensions(), kColumns);
  for (hsize_t i = 0; i < kRows; ++i)
    for (hsize_t j = 0; j < kColumns; ++j)
      EXPECT_EQ(data.values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)), kValues[i * kColumns + j]);
}

TEST(Hdf5DataFiles, VirtualDatasetReadsItsSourceBesideIt) {
  TempDir dir;
  write_plain(dir.file("source.h5"), "/values");
  write_virtual(dir.file("virtual.h5"), "source.h5", "/values");
  expect_values(read_hdf5_dataset(dir.file("virtual.h5")));
}

TEST(Hdf5DataFiles, VirtualDatasetWithAMissingSourceFileIsRefusedByName) {
  TempDir dir;
  write_plain(dir.file("source.h5"), "/values");
  write_virtual(dir.file("virtual.h5"), "source.h5", "/values");
  std::filesystem::remove(dir.file("source.h5"));
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(dir.file("virtual.h5")); }),
              AllOf(HasSubstr(dir.file("virtual.h5")), HasSubstr("virtual dataset"), HasSubstr("'source.h5'"),
                    HasSubstr("is missing"), HasSubstr("zeros")));
}

TEST(Hdf5DataFiles, VirtualDatasetWithAMissingSourceDatasetIsRefusedByName) {
  TempDir dir;
  write_plain(dir.file("source.h5"), "/other");
  write_virtual(dir.file("virtual.h5"), "source.h5", "/values");
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(dir.file("virtual.h5")); }),
              AllOf(HasSubstr("has no dataset '/values'"), HasSubstr("source.h5")));
  // The same file as its own source ('.'), pointing at a dataset it lacks.
  write_virtual(dir.file("self.h5"), ".", "/nowhere");
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(dir.file("self.h5")); }),
              AllOf(HasSubstr("'/nowhere'"), HasSubstr("same file")));
}

TEST(Hdf5DataFiles, ExternalStorageIsReadFromBesideTheFileWhateverTheWorkingFolder) {
  TempDir dir;
  write_external(dir.file("external.h5"), "raw.bin", kValues.size() * sizeof(double));
  ASSERT_NE(std::filesystem::current_path(), dir.path());
  expect_values(read_hdf5_dataset(dir.file("external.h5")));
}

TEST(Hdf5DataFiles, MissingExternalFileIsRefusedByName) {
  TempDir dir;
  write_external(dir.file("external.h5"), "raw.bin", kValues.size() * sizeof(double));
  std::filesystem::remove(dir.file("raw.bin"));
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(dir.file("external.h5")); }),
              AllOf(HasSubstr("external file 'raw.bin'"), HasSubstr(dir.file("raw.bin")), HasSubstr("is missing")));
}

TEST(Hdf5DataFiles, ShortExternalFileIsRefusedNotReadAsZeros) {
  TempDir dir;
  write_external(dir.file("external.h5"), "raw.bin", 3 * sizeof(double));
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(dir.file("external.h5")); }),
              AllOf(HasSubstr(dir.file("raw.bin")), HasSubstr("holds 24 bytes"), HasSubstr("0 to 64")));
}

}  // namespace
}  // namespace subscale::io
