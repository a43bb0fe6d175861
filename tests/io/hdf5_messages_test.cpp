// Valid but unusual HDF5 files, and files that cannot be read, are told apart from damaged ones
//: a file without read permission is "permission denied", not "not an HDF5
// file"; a dataset of variable-length strings is "strings", and data behind an external link is
// read, not called damaged.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "io/csv_reader.hpp"
#include "io/hdf5_dataset_reader.hpp"
#include "io/hdf5_dataset_writer.hpp"
#include "io/hdf5_file.hpp"
#include "tests/io/test_files.hpp"

namespace subscale::io {
namespace {

using subscale::testing::input_error_message;
using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::string write_matrix(const TempDir& dir, const std::string& name) {
  Dataset dataset;
  dataset.values = Matrix::Constant(20, 3, 0.5);
  write_hdf5_dataset(dataset, dir.file(name));
  return dir.file(name);
}

TEST(Hdf5Messages, AnUnreadableFileIsPermissionDenied) {
  TempDir dir;
  const std::string path = write_matrix(dir, "locked.h5");
  std::filesystem::permissions(path, std::filesystem::perms::none);
  // root reads any file; the check runs as "nobody" for as long as the read takes.
  const bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::seteuid(65534), 0);
  }
  const std::string message = input_error_message([&] { read_hdf5_dataset(path); });
  if (root) {
    ASSERT_EQ(::seteuid(0), 0);
  }
  EXPECT_THAT(message, AllOf(HasSubstr(path), HasSubstr("permission denied"), Not(HasSubstr("not an HDF5"))))
      << message;
}

TEST(Hdf5Messages, VariableLengthStringsAreStringsNotDamage) {
  TempDir dir;
  const std::string path = dir.file("strings.h5");
  {
    Hdf5Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    Hdf5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    const hsize_t dims[2] = {2, 2};
    Hdf5Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
    Hdf5Handle data(H5Dcreate2(file.get(), "/data", type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                    H5Dclose);
    const char* cells[4] = {"a", "bb", "ccc", "dddd"};
    ASSERT_GE(H5Dwrite(data.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, cells), 0);
  }
  const std::string message = input_error_message([&] { read_hdf5_dataset(path); });
  EXPECT_THAT(message, AllOf(HasSubstr(path), HasSubstr("strings"), Not(HasSubstr("damaged"))));
}

TEST(Hdf5Messages, DataBehindAnExternalLinkIsRead) {
  TempDir dir;
  const std::string target = write_matrix(dir, "target.h5");
  const std::string path = dir.file("link.h5");
  {
    Hdf5Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    ASSERT_GE(H5Lcreate_external(target.c_str(), "/data", file.get(), "/data", H5P_DEFAULT, H5P_DEFAULT), 0);
  }
  const Dataset dataset = read_hdf5_dataset(path);
  EXPECT_EQ(dataset.values.rows(), 20);
  EXPECT_EQ(dataset.values.cols(), 3);
  // The link's target gone: said so, not "damaged".
  std::filesystem::remove(target);
  const std::string message = input_error_message([&] { read_hdf5_dataset(path); });
  EXPECT_THAT(message, AllOf(HasSubstr("external link"), Not(HasSubstr("damaged"))));
}

TEST(CsvMessages, ANulByteInACellDoesNotCutTheMessage) {
  TempDir dir;
  const std::string path = dir.write("nul.csv", std::string("1,2\n3,a\0b\n", 10));
  const std::string message = input_error_message([&] { read_csv(path); });
  EXPECT_THAT(message, AllOf(HasSubstr("a\\x00b"), HasSubstr("is not a number"), HasSubstr("fix the cell")));
}

}  // namespace
}  // namespace subscale::io
