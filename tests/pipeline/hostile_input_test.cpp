// Hostile inputs through the command line: each ends with the documented exit code (3: the input
// is bad, 4: it cannot fit in memory), a message that names the file, and no run folder at all.
// Shapes far beyond the disk are chunked datasets whose chunks were never written.
#include <hdf5.h>

#include <vector>

#include "io/hdf5_file.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"

namespace subscale::testing {
namespace {

using io::Hdf5Handle;

class HostileInputTest : public CliTest {
 protected:
  // A dataset at /data of the given shape and type; chunked and never written unless `values`.
  std::string write_hdf5(const std::string& name, std::vector<hsize_t> dims, hid_t type = H5T_NATIVE_DOUBLE,
                         const std::vector<double>* values = nullptr) {
    const std::string path = (folder_ / name).string();
    Hdf5Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    Hdf5Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
    Hdf5Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    if (!values) {
      std::vector<hsize_t> chunk(dims.size(), 1);
      H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data());
    }
    Hdf5Handle data(H5Dcreate2(file.get(), "/data", type, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
                    H5Dclose);
    EXPECT_TRUE(data.valid()) << name;
    if (values) H5Dwrite(data.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values->data());
    return path;
  }

  // Runs `subscale run` on `input`; expects `code`, the file named in the message, no run folder.
  void expect_refused(const std::string& input, int code, const std::string& says) {
    const auto config = write("config.yaml", "input:\n  path: " + input + "\nepsilon: 0.01\nmin_points: 3\n");
    const auto run_folder = folder_ / "run";
    const CliOutcome outcome = run("run " + config.string() + " -q --out " + run_folder.string());
    EXPECT_EQ(outcome.exit_code, code) << input << ": " << outcome.output;
    EXPECT_NE(outcome.output.find(input), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find(says), std::string::npos) << outcome.output;
    EXPECT_FALSE(std::filesystem::exists(run_folder)) << input;
  }
};

TEST_F(HostileInputTest, TruncatedHdf5IsAnInputError) {
  std::vector<double> values(400 * 4, 0.5);
  const std::string whole = write_hdf5("whole.h5", {400, 4}, H5T_NATIVE_DOUBLE, &values);
  const std::string bytes = read_text(whole);
  const auto cut = write("cut.h5", bytes.substr(0, bytes.size() / 2));
  expect_refused(cut.string(), 3, "cannot open HDF5 file");
}

TEST_F(HostileInputTest, WrongTypeAndRankAreInputErrors) {
  Hdf5Handle text_type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(text_type.get(), 16);
  expect_refused(write_hdf5("strings.h5", {4, 2}, text_type.get()), 3, "does not hold numbers");
  expect_refused(write_hdf5("cube.h5", {4, 2, 2}), 3, "must be 2-D");
}

TEST_F(HostileInputTest, ZeroRowsIsAnInputError) {
  const std::vector<double> none;
  expect_refused(write_hdf5("zero.h5", {0, 3}, H5T_NATIVE_DOUBLE, &none), 3, "0 points x 3 dimensions");
  expect_refused(write("header_only.csv", "a,b,c\n").string(), 3, "0 points x 3 dimensions");
}

TEST_F(HostileInputTest, MorePointsThan32BitIdsIsAnInputError) {
  expect_refused(write_hdf5("tall.h5", {hsize_t{1} << 32, 2}), 3, "2^32 - 1");
}

TEST_F(HostileInputTest, AbsurdDimensionCountIsAnInputError) {
  expect_refused(write_hdf5("wide.h5", {1, hsize_t{1} << 33}), 3, "8589934592 dimensions");
}

TEST_F(HostileInputTest, MatrixLargerThanMemoryIsAResourceErrorBeforeReading) {
  expect_refused(write_hdf5("huge.h5", {hsize_t{1} << 31, 1 << 16}), 4, "1024.0 TiB");
}

TEST_F(HostileInputTest, CsvLargerThanMemoryIsAResourceErrorBeforeReading) {
  std::string rows;
  for (int i = 0; i < 2000; ++i) rows += std::to_string(i) + ",0.5,0.25\n";
  const std::string csv = write("points.csv", rows).string();
  setenv("SUBSCALE_AVAILABLE_MEMORY", "50000", 1);  // the 6000 numbers need 96 000 bytes
  expect_refused(csv, 4, "a CSV file of");
  unsetenv("SUBSCALE_AVAILABLE_MEMORY");
}

// A file on which libhdf5 1.10 itself crashes (found by fuzzing): the library runs in a child
// process, so the run ends with exit 3 and a message instead of a segmentation fault.
TEST_F(HostileInputTest, FileThatCrashesTheHdf5LibraryIsAnInputError) {
  const std::filesystem::path crash =
      source_root() / "fuzz" / "libhdf5_crashes" / "hdf5_dataset-null_memcpy_in_H5F__accum_read.h5";
  const std::string input = (folder_ / "damaged.h5").string();
  std::filesystem::copy_file(crash, input);
  const auto config = write("config.yaml", "input:\n  path: " + input + "\nepsilon: 0.01\nmin_points: 3\n");
  const auto run_folder = folder_ / "run";
  const CliOutcome outcome = run("run " + config.string() + " -q --out " + run_folder.string());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.output;
  EXPECT_NE(outcome.output.find(input), std::string::npos) << outcome.output;
  EXPECT_FALSE(std::filesystem::exists(run_folder));
}

}  // namespace
}  // namespace subscale::testing
