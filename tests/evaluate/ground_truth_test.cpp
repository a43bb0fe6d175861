// The OpenSubspace .true reader and writer: a small file written here, bad input with messages
// that name the file and line, and the shipped benchmark files when they are present.
#include "io/ground_truth.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "io/arff_reader.hpp"
#include "tests/source_root.hpp"

namespace subscale::io {
namespace {

namespace fs = std::filesystem;

fs::path scratch_file(const std::string& name, const std::string& text) {
  const fs::path folder = fs::temp_directory_path() / ("subscale_ground_truth_test_" + std::to_string(::getpid()));
  fs::create_directories(folder);
  const fs::path path = folder / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The message of the InputError that reading `text` raises ("" when none).
std::string error_of(const std::string& text, const GroundTruthOptions& options = {}) {
  const fs::path path = scratch_file("bad.true", text);
  try {
    read_ground_truth(path, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(GroundTruth, ReadsASmallFile) {
  const fs::path path = scratch_file("small.true",
                                     "DIM=4;FILE=d://db//small.bin\r\n"
                                     "1 1 0 0 3 7 2 5\r\n"
                                     "\r\n"
                                     "0 0 1 1 2 0 1\n"
                                     "0 0 0 1 0\n");
  const GroundTruth truth = read_ground_truth(path, {4, 8});
  EXPECT_EQ(truth.dimensions, 4u);
  EXPECT_EQ(truth.file, "d://db//small.bin");
  const std::vector<SubspaceCluster> expected{{{0, 1}, {2, 5, 7}}, {{2, 3}, {0, 1}}, {{3}, {}}};
  EXPECT_EQ(truth.clusters, expected);

  // Written back and read again: the same.
  const fs::path copy = path.parent_path() / "copy.true";
  write_ground_truth(copy, truth);
  const GroundTruth again = read_ground_truth(copy);
  EXPECT_EQ(again.clusters, truth.clusters);
  EXPECT_EQ(again.file, truth.file);
  std::ifstream in(copy);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "DIM=4;FILE=d://db//small.bin");
  std::getline(in, first);
  EXPECT_EQ(first, "1 1 0 0 3 2 5 7");
}

TEST(GroundTruth, TitleLineNeedsTheDimensionsFromTheData) {
  const std::string text = "GLASS TRUE CLUSTER\n1 1 1 2 0 4\n";
  EXPECT_NE(error_of(text).find("line 1"), std::string::npos);
  std::istringstream in(text);
  const GroundTruth truth = parse_ground_truth(in, "glass.true", {3, {}});
  EXPECT_EQ(truth.clusters, (std::vector<SubspaceCluster>{{{0, 1, 2}, {0, 4}}}));
}

TEST(GroundTruth, BadInputNamesFileAndLine) {
  const auto expect_error = [](const std::string& text, const std::string& line, const std::string& words,
                               const GroundTruthOptions& options = {}) {
    const std::string message = error_of(text, options);
    SCOPED_TRACE(message);
    EXPECT_NE(message.find("bad.true"), std::string::npos);
    EXPECT_NE(message.find(line), std::string::npos);
    EXPECT_NE(message.find(words), std::string::npos);
  };
  expect_error("DIM=abc;FILE=x\n1 0 1 3\n", "line 1", "bad DIM line");
  expect_error("DIM=0\n", "line 1", "bad DIM line");
  expect_error("DIM=3\n1 0 1 3\n", "line 1", "DIM=3", {2, {}});            // the data has another d
  expect_error("DIM=3\n1 0 1 2 4 5\n1 0\n", "line 3", "dimension flags");  // too few numbers
  expect_error("DIM=3\n1 2 1 2 4 5\n", "line 2", "flags are 0 or 1");
  expect_error("DIM=3\n1 0 1 3 4 5\n", "line 2", "says 3 points, but 2");  // size mismatch
  expect_error("DIM=3\n1 0 1 2 4 5 6\n", "line 2", "says 2 points, but 3");
  expect_error("DIM=3\n1 0 1 2 4 x7\n", "line 2", "point id 'x7'");  // non-numeric id
  expect_error("DIM=3\n1 0 1 2 4 -5\n", "line 2", "'-5'");
  expect_error("DIM=3\n1 0 1 2 4 4\n", "line 2", "listed twice");
  expect_error("DIM=3\n1 0 1 2 4 9\n", "line 2", "point id 9", {{}, 5});
  expect_error("", "", "is empty");
  EXPECT_THROW(read_ground_truth("/nonexistent/subscale/x.true"), InputError);
}

TEST(GroundTruth, ReadsTheOpenSubspaceBenchmarkFiles) {
  const char* shared = std::getenv("SUBSCALE_SHARED_DIR");
  const fs::path folder = fs::path(shared ? shared : "") / "datasets" / "opensubspace";
  if (!shared || !fs::is_directory(folder)) GTEST_SKIP() << "no benchmark data at " << folder;
  std::size_t files = 0;
  for (const auto& suite : fs::directory_iterator(folder)) {
    // The real-world sets' files (a title line, the classes as clusters) have a test of their own.
    if (!suite.is_directory() || suite.path().filename() == "real_world") continue;
    for (const auto& entry : fs::directory_iterator(suite.path())) {
      if (entry.path().extension() != ".true") continue;
      SCOPED_TRACE(entry.path().string());
      const GroundTruth truth = read_ground_truth(entry.path());
      ++files;
      EXPECT_EQ(truth.clusters.size(), 10u);  // every generated suite has 10 hidden clusters
      for (const auto& cluster : truth.clusters) {
        EXPECT_FALSE(cluster.points.empty());
        EXPECT_FALSE(cluster.dimensions.empty());
        EXPECT_LT(cluster.dimensions.back(), truth.dimensions);
      }
      // The format round-trips.
      std::istringstream again(format_ground_truth(truth));
      EXPECT_EQ(parse_ground_truth(again, "copy").clusters, truth.clusters);
    }
  }
  EXPECT_GT(files, 0u);
}

// The real-world sets of the OpenSubspace study: a title line, then one full-space cluster per class,
// which together hold every point once.
TEST(GroundTruth, ReadsTheOpenSubspaceRealWorldFiles) {
  const char* shared = std::getenv("SUBSCALE_SHARED_DIR");
  const fs::path folder = fs::path(shared ? shared : "") / "datasets" / "opensubspace" / "real_world";
  if (!shared || !fs::is_directory(folder)) GTEST_SKIP() << "no real-world data at " << folder;
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".true") continue;
    SCOPED_TRACE(entry.path().string());
    const Dataset data = io::read_arff(fs::path(entry.path()).replace_extension(".arff").string());
    const GroundTruth truth =
        read_ground_truth(entry.path(), {.dimensions = data.dimensions(), .points = data.points()});
    ++files;
    EXPECT_GE(truth.clusters.size(), 2u);
    std::size_t members = 0;
    for (const auto& cluster : truth.clusters) {
      EXPECT_EQ(cluster.dimensions.size(), data.dimensions());
      members += cluster.points.size();
    }
    EXPECT_EQ(members, data.points());
  }
  EXPECT_GT(files, 0u);
}

TEST(GroundTruth, ReadsTheShippedQuickstartTruth) {
  const fs::path path = subscale::testing::source_root() / "datasets" / "quickstart.true";
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  const GroundTruth truth = read_ground_truth(path);
  EXPECT_EQ(truth.file, "quickstart.h5");
  EXPECT_FALSE(truth.clusters.empty());
  std::istringstream again(format_ground_truth(truth));
  EXPECT_EQ(parse_ground_truth(again, "copy").clusters, truth.clusters);
}

}  // namespace
}  // namespace subscale::io
