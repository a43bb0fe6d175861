// Damaged column tables found by fuzzing (tests/fuzz_regressions/fuzz_filter_table/) and their
// neighbours: each is an InputError naming the column, refused before HDF5 converts anything.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>

#include "common/error.hpp"
#include "io/hdf5_file.hpp"
#include "stages/filter/table_hdf5.hpp"
#include "tests/source_root.hpp"

namespace subscale::filter {
namespace {

using io::Hdf5Handle;
using ::testing::AllOf;
using ::testing::HasSubstr;

std::string input_error(const TableSource& source) {
  try {
    read_column_table(source);
  } catch (const InputError& error) {
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "not an InputError: " << error.what();
    return {};
  }
  ADD_FAILURE() << "nothing thrown";
  return {};
}

class HostileTable : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() / ("subscale-hostile-table-" + std::to_string(::getpid()) + ".h5");
    ColumnTable table;
    table.columns.push_back({"n", ColumnType::int64, 0, std::vector<std::int64_t>{1, 2, 3}});
    write_column_table(path_, "/table", table, true);
  }
  void TearDown() override { std::filesystem::remove(path_); }

  // Adds a 1-D dataset of three elements of `type` named `name` to the table.
  void add_column(const std::string& name, hid_t type) {
    Hdf5Handle file(H5Fopen(path_.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    const hsize_t rows = 3;
    Hdf5Handle space(H5Screate_simple(1, &rows, nullptr), H5Sclose);
    Hdf5Handle data(
        H5Dcreate2(file.get(), ("/table/" + name).c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose);
    ASSERT_TRUE(data.valid());
    // The columns attribute names the order; without it every member is read.
    Hdf5Handle group(H5Gopen2(file.get(), "/table", H5P_DEFAULT), H5Gclose);
    H5Adelete(group.get(), "columns");
  }

  std::filesystem::path path_;
};

TEST_F(HostileTable, FuzzFindingIntegerOfFourGibElements) {
  const std::filesystem::path found =
      subscale::testing::source_root() / "tests/fuzz_regressions/fuzz_filter_table/integer_of_4_gib_elements.h5";
  EXPECT_THAT(input_error({.path = found, .group = "/table"}),
              AllOf(HasSubstr("discount"), HasSubstr("-byte numbers are not a column type")));
}

TEST_F(HostileTable, IntegersAndFloatsOfOddSizesAreRefused) {
  Hdf5Handle wide(H5Tcopy(H5T_STD_I64LE), H5Tclose);
  H5Tset_size(wide.get(), 16);
  add_column("wide", wide.get());
  EXPECT_THAT(input_error({.path = path_, .group = "/table"}),
              AllOf(HasSubstr("wide"), HasSubstr("16-byte numbers are not a column type")));
}

TEST_F(HostileTable, AttributesWithMoreThanOneValueAreRefused) {
  {
    Hdf5Handle file(H5Fopen(path_.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    Hdf5Handle data(H5Dopen2(file.get(), "/table/n", H5P_DEFAULT), H5Dclose);
    const hsize_t two = 2;
    Hdf5Handle space(H5Screate_simple(1, &two, nullptr), H5Sclose);
    Hdf5Handle kind_type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(kind_type.get(), 7);
    Hdf5Handle scalar(H5Screate(H5S_SCALAR), H5Sclose);
    Hdf5Handle kind(H5Acreate2(data.get(), "kind", kind_type.get(), scalar.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    H5Awrite(kind.get(), kind_type.get(), "decimal");
    // Two scales where one is read: H5Aread would write both into one int64.
    Hdf5Handle scale(H5Acreate2(data.get(), "scale", H5T_NATIVE_INT64, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                     H5Aclose);
    const std::int64_t values[2] = {2, 3};
    H5Awrite(scale.get(), H5T_NATIVE_INT64, values);
  }
  EXPECT_THAT(input_error({.path = path_, .group = "/table"}), HasSubstr("'scale' is not an integer"));
}

TEST_F(HostileTable, ColumnsAttributeWithMoreThanOneValueIsRefused) {
  {
    Hdf5Handle file(H5Fopen(path_.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    Hdf5Handle group(H5Gopen2(file.get(), "/table", H5P_DEFAULT), H5Gclose);
    H5Adelete(group.get(), "columns");
    const hsize_t two = 2;
    Hdf5Handle space(H5Screate_simple(1, &two, nullptr), H5Sclose);
    Hdf5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), 1);
    Hdf5Handle columns(H5Acreate2(group.get(), "columns", type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    H5Awrite(columns.get(), type.get(), "nn");
  }
  EXPECT_THAT(input_error({.path = path_, .group = "/table"}), HasSubstr("holds more than one value"));
}

}  // namespace
}  // namespace subscale::filter
