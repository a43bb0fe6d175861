#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "io/data_validation.hpp"
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

// Values with every bit of the mantissa in use, so a lossy round trip cannot pass.
Dataset sample_dataset(Eigen::Index n, Eigen::Index d) {
  Dataset dataset;
  dataset.values.resize(n, d);
  std::uint64_t state = 12345;
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = 0; i < n; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      dataset.values(i, j) = static_cast<double>(state >> 11) * 0x1.0p-53 * 200.0 - 100.0;
    }
  for (Eigen::Index i = 0; i < n; ++i) {
    dataset.ids.push_back(static_cast<std::uint64_t>(1000 + 7 * i));
    dataset.labels.push_back(i % 5 == 0 ? -1 : i % 3);
  }
  return dataset;
}

bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

TEST(Hdf5Dataset, RoundTripFloat64) {
  TempDir dir;
  const Dataset original = sample_dataset(37, 5);
  const std::string path = dir.file("round.h5");
  write_hdf5_dataset(original, path);
  const Dataset read = read_hdf5_dataset(path);
  EXPECT_TRUE(same_bits(read.values, original.values));
  EXPECT_EQ(read.ids, original.ids);
  EXPECT_EQ(read.labels, original.labels);
  EXPECT_EQ(read.source, path);
  // The file holds (points, dimensions) row-major, as h5py users expect.
  const Hdf5File file(path, Hdf5File::Mode::read);
  const auto raw = file.read<double>("/data");
  ASSERT_EQ(raw.shape, (std::vector<std::uint64_t>{37, 5}));
  EXPECT_EQ(raw.data[1], original.values(0, 1));
  EXPECT_EQ(raw.data[5], original.values(1, 0));
  // No temporary file is left next to it.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 1u);
}

TEST(Hdf5Dataset, RoundTripFloat32) {
  TempDir dir;
  const Dataset original = sample_dataset(20, 3);
  const std::string path = dir.file("round32.h5");
  Hdf5WriteOptions options;
  options.float32 = true;
  write_hdf5_dataset(original, path, options);
  EXPECT_EQ(Hdf5File(path, Hdf5File::Mode::read).info("/data").element_bytes, 4u);
  const Dataset read = read_hdf5_dataset(path);
  ASSERT_EQ(read.values.rows(), 20);
  ASSERT_EQ(read.values.cols(), 3);
  for (Eigen::Index j = 0; j < 3; ++j)
    for (Eigen::Index i = 0; i < 20; ++i)
      EXPECT_EQ(read.values(i, j), static_cast<double>(static_cast<float>(original.values(i, j))));
  EXPECT_EQ(read.labels, original.labels);
}

TEST(Hdf5Dataset, ChunkedGzipAndContiguousAcrossReadBlocks) {
  // 2000 columns: the reader takes about 2^20 values a block, so 1100 rows span three blocks
  // (and the chunked file's 32-row chunks are read whole). Low-entropy values keep gzip fast.
  TempDir dir;
  Dataset original;
  original.values.resize(1100, 2000);
  for (Eigen::Index j = 0; j < 2000; ++j)
    for (Eigen::Index i = 0; i < 1100; ++i)
      original.values(i, j) = static_cast<double>(i) + 0.25 * static_cast<double>(j % 8);
  for (int gzip : {0, 3}) {
    SCOPED_TRACE(gzip);
    const std::string path = dir.file("big" + std::to_string(gzip) + ".h5");
    Hdf5WriteOptions options;
    options.gzip_level = gzip;
    write_hdf5_dataset(original, path, options);
    const Dataset read = read_hdf5_dataset(path);
    EXPECT_TRUE(same_bits(read.values, original.values));
    EXPECT_TRUE(read.ids.empty());
    EXPECT_TRUE(read.labels.empty());
  }
}

TEST(Hdf5Dataset, DatasetInAGroupWithSiblings) {
  TempDir dir;
  const Dataset original = sample_dataset(9, 2);
  const std::string path = dir.file("grouped.h5");
  Hdf5WriteOptions options;
  options.dataset_path = "/experiment/points";
  options.gzip_level = 6;
  options.attributes = {{"seed", "7"}};
  write_hdf5_dataset(original, path, options);
  EXPECT_EQ(sibling_path("/experiment/points", "ids"), "/experiment/ids");
  EXPECT_EQ(sibling_path("/data", "labels"), "/labels");
  Hdf5ReadOptions read_options;
  read_options.dataset_path = "/experiment/points";
  const Dataset read = read_hdf5_dataset(path, read_options);
  EXPECT_TRUE(same_bits(read.values, original.values));
  EXPECT_EQ(read.ids, original.ids);
  EXPECT_EQ(read.labels, original.labels);
  EXPECT_EQ(Hdf5File(path, Hdf5File::Mode::read).read_string_attribute("/experiment/points", "seed"), "7");
}

TEST(Hdf5Dataset, IntegerMatrixIsConvertedToFloat64) {
  TempDir dir;
  const std::string path = dir.file("ints.h5");
  {
    Hdf5File file(path, Hdf5File::Mode::create_truncate);
    const std::vector<std::int32_t> values = {1, -2, 3, 40000, 5, 6};
    file.write("/data", {3, 2}, values.data());
    const std::vector<std::int32_t> ids = {4, 5, 6};  // signed ids, non-negative: accepted
    file.write("/ids", ids);
  }
  const Dataset read = read_hdf5_dataset(path);
  EXPECT_EQ(read.values(0, 1), -2.0);
  EXPECT_EQ(read.values(1, 1), 40000.0);
  EXPECT_EQ(read.ids, (std::vector<std::uint64_t>{4, 5, 6}));
}

// ---- bad input ----

std::string write_raw(const TempDir& dir, const std::string& name, const std::vector<std::uint64_t>& shape,
                      const std::vector<double>& values) {
  const std::string path = dir.file(name);
  Hdf5File file(path, Hdf5File::Mode::create_truncate);
  file.write("/data", shape, values.data());
  return path;
}

TEST(Hdf5DatasetErrors, NaNAndInfNameRowAndColumn) {
  TempDir dir;
  std::vector<double> values(4 * 3, 1.0);
  values[2 * 3 + 1] = std::numeric_limits<double>::quiet_NaN();  // row 3, column 2
  const std::string nan_path = write_raw(dir, "nan.h5", {4, 3}, values);
  EXPECT_THAT(
      input_error_message([&] { read_hdf5_dataset(nan_path); }),
      AllOf(HasSubstr(nan_path), HasSubstr("dataset /data"), HasSubstr("row 3 (index 2), column 2"), HasSubstr("NaN")));
  values[2 * 3 + 1] = 1.0;
  values[3 * 3 + 0] = -std::numeric_limits<double>::infinity();  // row 4, column 1
  const std::string inf_path = write_raw(dir, "inf.h5", {4, 3}, values);
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(inf_path); }),
              AllOf(HasSubstr("row 4 (index 3), column 1"), HasSubstr("-Inf")));
}

TEST(Hdf5DatasetErrors, WrongRank) {
  TempDir dir;
  const std::string one_d = write_raw(dir, "1d.h5", {6}, std::vector<double>(6, 0.5));
  EXPECT_THAT(
      input_error_message([&] { read_hdf5_dataset(one_d); }),
      AllOf(HasSubstr(one_d), HasSubstr("/data"), HasSubstr("1-D"), HasSubstr("(6,)"), HasSubstr("must be 2-D")));
  const std::string three_d = write_raw(dir, "3d.h5", {2, 3, 4}, std::vector<double>(24, 0.5));
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(three_d); }),
              AllOf(HasSubstr("3-D"), HasSubstr("(2, 3, 4)"), HasSubstr("must be 2-D")));
}

TEST(Hdf5DatasetErrors, MissingDatasetPathListsWhatIsThere) {
  TempDir dir;
  const std::string path = write_raw(dir, "other.h5", {2, 2}, {1, 2, 3, 4});
  Hdf5ReadOptions options;
  options.dataset_path = "/points";
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(path, options); }),
              AllOf(HasSubstr(path), HasSubstr("no dataset at '/points'"), HasSubstr("/data (2, 2)")));
  options.dataset_path = "/no/such/group/data";
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(path, options); }), HasSubstr("no dataset"));
}

TEST(Hdf5DatasetErrors, MissingOrForeignFile) {
  TempDir dir;
  const std::string missing = dir.file("missing.h5");
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(missing); }),
              AllOf(HasSubstr(missing), HasSubstr("not found")));
  const std::string text = dir.write("text.h5", "1,2,3\n");
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(text); }), HasSubstr("not an HDF5 file"));
}

TEST(Hdf5DatasetErrors, EmptyMatrix) {
  TempDir dir;
  const std::string rows0 = write_raw(dir, "rows0.h5", {0, 4}, {});
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(rows0); }),
              AllOf(HasSubstr(rows0), HasSubstr("empty"), HasSubstr("0 points x 4 dimensions")));
  const std::string cols0 = write_raw(dir, "cols0.h5", {3, 0}, {});
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(cols0); }), HasSubstr("3 points x 0 dimensions"));
}

TEST(Hdf5DatasetErrors, MoreThan2To32Points) {
  // A chunked dataset whose chunks were never written takes no space on disk, so the limit can be
  // tested on a real file: the reader must refuse it from the shape alone.
  TempDir dir;
  const std::string path = dir.file("huge.h5");
  {
    Hdf5Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    const hsize_t dims[2] = {max_points + 1, 2};
    const hsize_t chunk[2] = {4096, 2};
    Hdf5Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
    Hdf5Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    H5Pset_chunk(properties.get(), 2, chunk);
    Hdf5Handle data(
        H5Dcreate2(file.get(), "/data", H5T_NATIVE_FLOAT, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
        H5Dclose);
    ASSERT_TRUE(data.valid());
  }
  EXPECT_LT(std::filesystem::file_size(path), 1u << 20);
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(path); }),
              AllOf(HasSubstr(path), HasSubstr("4294967296 points"), HasSubstr("2^32 - 1")));
}

TEST(Hdf5DatasetErrors, BadIdsAndLabels) {
  TempDir dir;
  const std::string path = write_raw(dir, "ids.h5", {3, 1}, {1, 2, 3});
  {
    Hdf5File file(path, Hdf5File::Mode::read_write);
    file.write("/ids", std::vector<std::uint64_t>{1, 2});
  }
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(path); }),
              AllOf(HasSubstr("dataset /ids"), HasSubstr("one entry per point (3)")));

  const std::string negative = write_raw(dir, "negative.h5", {3, 1}, {1, 2, 3});
  {
    Hdf5File file(negative, Hdf5File::Mode::read_write);
    file.write("/ids", std::vector<std::int64_t>{0, -5, 2});
  }
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(negative); }),
              AllOf(HasSubstr("row 2 (index 1)"), HasSubstr("negative id -5")));

  const std::string float_labels = write_raw(dir, "labels.h5", {2, 1}, {1, 2});
  {
    Hdf5File file(float_labels, Hdf5File::Mode::read_write);
    file.write("/labels", std::vector<double>{0.5, 1.5});
  }
  EXPECT_THAT(input_error_message([&] { read_hdf5_dataset(float_labels); }),
              AllOf(HasSubstr("dataset /labels"), HasSubstr("must hold integers")));
}

TEST(Hdf5DatasetErrors, WriterRefusesMismatchedLabels) {
  TempDir dir;
  Dataset dataset = sample_dataset(4, 2);
  dataset.labels.pop_back();
  EXPECT_THROW(write_hdf5_dataset(dataset, dir.file("x.h5")), Error);
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.h5")));
}

}  // namespace
}  // namespace subscale::io
