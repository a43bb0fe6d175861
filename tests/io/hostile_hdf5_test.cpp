// Corrupt and hostile HDF5 inputs: every one is refused with a message that names the file, and
// with the documented exit code (3 for bad input, 4 for input that cannot fit in memory), before
// the matrix is allocated. Claimed shapes far beyond the disk are made with chunked datasets whose
// chunks were never written: they take no space, so the readers must decide from the shape alone.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/data_validation.hpp"
#include "io/hdf5_dataset_reader.hpp"
#include "io/hdf5_dataset_writer.hpp"
#include "io/hdf5_file.hpp"
#include "io/host_memory.hpp"
#include "tests/io/test_files.hpp"
#include "tests/source_root.hpp"

namespace subscale::io {
namespace {

using subscale::testing::input_error_message;
using subscale::testing::resource_error_message;
using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;

// A chunked float64 dataset of the given shape at /data, never written.
std::string write_unwritten(const TempDir& dir, const std::string& name, std::vector<hsize_t> dims,
                            hid_t type = H5T_NATIVE_DOUBLE) {
  const std::string path = dir.file(name);
  Hdf5Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  std::vector<hsize_t> chunk(dims.size(), 1);
  chunk.back() = std::min<hsize_t>(dims.back(), 1024);
  Hdf5Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Hdf5Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data());
  Hdf5Handle data(H5Dcreate2(file.get(), "/data", type, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
                  H5Dclose);
  EXPECT_TRUE(data.valid());
  return path;
}

std::string write_small(const TempDir& dir, const std::string& name, std::uint64_t points, std::uint64_t dims) {
  Dataset dataset;
  dataset.values = Matrix::Constant(static_cast<Eigen::Index>(points), static_cast<Eigen::Index>(dims), 0.25);
  write_hdf5_dataset(dataset, dir.file(name));
  return dir.file(name);
}

TEST(HostileHdf5, TruncatedFileAtEveryCut) {
  TempDir dir;
  const std::string whole = write_small(dir, "whole.h5", 200, 8);
  std::ifstream in(whole, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 12800u);
  // Cuts in the superblock, the metadata and the raw data: each an InputError naming the file.
  for (const std::size_t keep :
       {std::size_t{0}, std::size_t{7}, std::size_t{100}, std::size_t{1000}, bytes.size() / 2, bytes.size() - 8}) {
    const std::string cut = dir.write("cut" + std::to_string(keep) + ".h5", bytes.substr(0, keep));
    EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(cut); }), HasSubstr(cut)) << keep << " bytes kept";
  }
}

TEST(HostileHdf5, StringAndCompoundElementsAreRefused) {
  TempDir dir;
  const std::string path = dir.file("strings.h5");
  {
    Hdf5Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    Hdf5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), 8);
    const hsize_t dims[2] = {2, 2};
    Hdf5Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
    Hdf5Handle data(H5Dcreate2(file.get(), "/data", type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                    H5Dclose);
    ASSERT_TRUE(data.valid());
  }
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(path); }),
              AllOf(HasSubstr(path), HasSubstr("does not hold numbers")));
}

TEST(HostileHdf5, NumbersOfOddSizesAreRefused) {
  // A fuzzer found a 4 GiB integer type in a damaged file; HDF5 would convert through buffers of
  // that size. Integers of 16 bytes are refused the same way, before any read.
  TempDir dir;
  Hdf5Handle wide(H5Tcopy(H5T_STD_I64LE), H5Tclose);
  H5Tset_size(wide.get(), 16);
  const std::string path = write_unwritten(dir, "wide_integers.h5", {4, 2}, wide.get());
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(path); }),
              AllOf(HasSubstr(path), HasSubstr("16-byte elements"), HasSubstr("not float32, float64")));
}

TEST(HostileHdf5, FuzzFindingExtentBeyondItsMaximum) {
  // Found by fuzz_hdf5_dataset (a timeout): 131078 rows where at most 6 may be; libhdf5 looked up
  // 21846 chunks that cannot exist, one by one, for seconds.
  const std::string path =
      (subscale::testing::source_root() / "tests/fuzz_regressions/fuzz_hdf5_dataset/extent_beyond_maximum.h5").string();
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(path); }),
              AllOf(HasSubstr(path), HasSubstr("larger than its declared maximum")));
}

TEST(HostileHdf5, FuzzFindingCompactDataOfZeroBytes) {
  // Found by fuzz_hdf5_dataset and fuzz_join_table: compact data of 0 bytes for a 4 x 3 shape;
  // libhdf5 1.10 copied from a null pointer (a segmentation fault, exit 139).
  const std::string path =
      (subscale::testing::source_root() / "tests/fuzz_regressions/fuzz_hdf5_dataset/compact_data_of_zero_bytes.h5")
          .string();
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(path); }),
              AllOf(HasSubstr(path), HasSubstr("stored size (0 bytes) does not match the shape")));
}

TEST(HostileHdf5, ContiguousDataBeyondTheEndOfTheFile) {
  TempDir dir;
  Dataset dataset;
  dataset.values = Matrix::Constant(100, 4, 0.5);
  write_hdf5_dataset(dataset, dir.file("whole.h5"));
  // The data is the last thing in the file: cut its last bytes and keep the superblock's end of
  // file address consistent by reading through a file that is merely shorter.
  std::ifstream in(dir.file("whole.h5"), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = dir.write("cut.h5", bytes.substr(0, bytes.size() - 100));
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(cut); }), HasSubstr(cut));
}

TEST(HostileHdf5, ScalarDatasetIsTheWrongRank) {
  TempDir dir;
  const std::string path = dir.file("scalar.h5");
  {
    Hdf5Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    Hdf5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Hdf5Handle data(
        H5Dcreate2(file.get(), "/data", H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose);
    ASSERT_TRUE(data.valid());
  }
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(path); }), AllOf(HasSubstr("0-D"), HasSubstr("2-D")));
}

TEST(HostileHdf5, MatrixLargerThanMemoryIsRefusedWithItsSize) {
  TempDir dir;
  // 2^32 - 1 points are allowed; 2^32 - 1 x 4096 doubles (128 TiB) are not, on any machine.
  const std::string path = write_unwritten(dir, "huge.h5", {max_points, 4096});
  EXPECT_LT(std::filesystem::file_size(path), 1u << 20);
  EXPECT_THAT(resource_error_message([&] { read_hdf5_dataset(path); }),
              AllOf(HasSubstr(path), HasSubstr("/data"), HasSubstr("128.0 TiB"), HasSubstr("available")));
}

TEST(HostileHdf5, MemoryLimitFromTheEnvironmentIsHonoured) {
  TempDir dir;
  const std::string path = write_small(dir, "small.h5", 1000, 10);  // 80000 bytes as float64
  setenv("SUBSCALE_AVAILABLE_MEMORY", "50000", 1);
  const std::string message = resource_error_message([&] { read_hdf5_dataset(path); });
  unsetenv("SUBSCALE_AVAILABLE_MEMORY");
  EXPECT_THAT(message, AllOf(HasSubstr("80000 bytes"), HasSubstr("50000 bytes")));
  EXPECT_EQ(read_hdf5_dataset(path).points(), 1000u);
}

TEST(HostileHdf5, AbsurdDimensionCounts) {
  TempDir dir;
  // More dimensions than 32-bit ids can name: an input error from the shape alone.
  const std::string wide = write_unwritten(dir, "wide.h5", {1, hsize_t{1} << 33});
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(wide); }),
              AllOf(HasSubstr(wide), HasSubstr("8589934592 dimensions"), HasSubstr("2^32 - 1")));
  // Within the id range, but no machine holds it.
  const std::string tall = write_unwritten(dir, "tall.h5", {1u << 20, 1u << 24});
  EXPECT_THAT(resource_error_message([&] { read_hdf5_dataset(tall); }), HasSubstr("128.0 TiB"));
}

TEST(HostileHdf5, SideDatasetsLargerThanMemoryAreRefusedBeforeReading) {
  TempDir dir;
  const std::string path = write_unwritten(dir, "side.h5", {hsize_t{1} << 46}, H5T_NATIVE_INT64);
  const Hdf5File file(path, Hdf5File::Mode::read);
  EXPECT_THAT(resource_error_message([&] { file.read<std::int64_t>("/data"); }),
              AllOf(HasSubstr(path), HasSubstr("70368744177664 values"), HasSubstr("available")));
}

TEST(HostMemory, CheckedBytesDetectsOverflow) {
  EXPECT_EQ(checked_bytes({3, 4}, 8), 96u);
  EXPECT_EQ(checked_bytes({}, 8), 8u);
  EXPECT_FALSE(checked_bytes({std::uint64_t{1} << 40, std::uint64_t{1} << 30}, 8).has_value());
  EXPECT_THROW(check_host_allocation(std::nullopt, "x"), ResourceError);
  EXPECT_GT(available_host_memory(), 0u);
}

}  // namespace
}  // namespace subscale::io
