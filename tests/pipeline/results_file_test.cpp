// results.h5 of a run, read as docs/output.md §2 documents it, by a small reader on the plain HDF5 C API
// (nothing of the project's own HDF5 code): /subspaces, /clusters and /raw_clusters each hold
// points (uint32), point_offsets (uint64), dimensions (uint32) and dimension_offsets (uint64), and
// list i is points[point_offsets[i]:point_offsets[i+1]] in dimensions[dimension_offsets[i]:...].
// The lists rebuilt that way equal the run's text files line for line; compressed (output.gzip)
// they are the same; with output.text: false no text file is written and `subscale evaluate`
// scores the run folder from results.h5 alone, with the same measures as from the text files.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;

// One 1-D dataset of a documented type, read whole; fails the test when the name, rank or type
// is not the documented one.
template <class T>
std::vector<T> read_documented(hid_t file, const std::string& path, hid_t type) {
  std::vector<T> values;
  if (H5Lexists(file, path.c_str(), H5P_DEFAULT) <= 0) {
    ADD_FAILURE() << "results.h5 has no dataset " << path;
    return values;
  }
  const hid_t dataset = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(dataset);
  const hid_t stored = H5Dget_type(dataset);
  EXPECT_EQ(H5Sget_simple_extent_ndims(space), 1) << path;
  EXPECT_TRUE(H5Tequal(stored, type) > 0) << path << " is not of the documented element type";
  hsize_t count = 0;
  H5Sget_simple_extent_dims(space, &count, nullptr);
  values.resize(count);
  if (count > 0) {
    EXPECT_GE(H5Dread(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0) << path;
  }
  H5Tclose(stored);
  H5Sclose(space);
  H5Dclose(dataset);
  return values;
}

// A group's lists in the text form {d1, d2}-[p1, p2], one a line, built from the documented layout.
std::string lists_as_text(hid_t file, const std::string& group) {
  const auto points = read_documented<std::uint32_t>(file, group + "/points", H5T_STD_U32LE);
  const auto point_offsets = read_documented<std::uint64_t>(file, group + "/point_offsets", H5T_STD_U64LE);
  const auto dimensions = read_documented<std::uint32_t>(file, group + "/dimensions", H5T_STD_U32LE);
  const auto dimension_offsets = read_documented<std::uint64_t>(file, group + "/dimension_offsets", H5T_STD_U64LE);
  EXPECT_EQ(point_offsets.size(), dimension_offsets.size()) << group;
  std::ostringstream text;
  for (std::size_t i = 0; i + 1 < point_offsets.size() && i + 1 < dimension_offsets.size(); ++i) {
    text << '{';
    for (auto d = dimension_offsets[i]; d < dimension_offsets[i + 1]; ++d)
      text << (d > dimension_offsets[i] ? ", " : "") << dimensions.at(d);
    text << "}-[";
    for (auto p = point_offsets[i]; p < point_offsets[i + 1]; ++p)
      text << (p > point_offsets[i] ? ", " : "") << points.at(p);
    text << "]\n";
  }
  return text.str();
}

class ResultsFile : public subscale::testing::CliTest {
 protected:
  fs::path run_quickstart(const std::string& name, const std::string& extra) {
    const fs::path out = folder_ / name;
    const auto outcome = run("run " + (subscale::testing::source_root() / "configs" / "quickstart.yaml").string() +
                                 " " + extra + " --out " + out.string() + " -q",
                             name + ".log");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    return out;
  }
};

TEST_F(ResultsFile, DocumentedListsEqualTheTextFiles) {
  for (const std::string gzip : {"0", "6"}) {
    const fs::path run = run_quickstart("run" + gzip, "output.gzip=" + gzip);
    const hid_t file = H5Fopen((run / "results.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(file, 0) << run / "results.h5";
    const std::string subspaces = lists_as_text(file, "/subspaces");
    EXPECT_FALSE(subspaces.empty());
    EXPECT_EQ(subspaces, read_text(run / "subspaces.txt")) << "gzip " << gzip;
    EXPECT_EQ(lists_as_text(file, "/clusters"), read_text(run / "clusters.txt")) << "gzip " << gzip;
    EXPECT_EQ(lists_as_text(file, "/raw_clusters"), read_text(run / "clusters_raw.txt")) << "gzip " << gzip;
    H5Fclose(file);
  }
}

TEST_F(ResultsFile, WithoutTextFilesEvaluateReadsResultsH5) {
  const fs::path with_text = run_quickstart("text", "");
  const fs::path without_text = run_quickstart("h5", "output.text=false");
  for (const char* name : {"subspaces.txt", "clusters.txt", "clusters_raw.txt"})
    EXPECT_FALSE(fs::exists(without_text / name)) << name;
  ASSERT_TRUE(fs::exists(without_text / "results.h5"));
  const std::string truth = (subscale::testing::source_root() / "datasets" / "quickstart.true").string();
  const auto from_text = run("evaluate --found " + with_text.string() + " --truth " + truth + " --points 1000 --json " +
                                 (folder_ / "text.json").string(),
                             "text.out");
  const auto from_h5 = run("evaluate --found " + without_text.string() + " --truth " + truth +
                               " --points 1000 --json " + (folder_ / "h5.json").string(),
                           "h5.out");
  ASSERT_EQ(from_text.exit_code, 0) << from_text.output;
  ASSERT_EQ(from_h5.exit_code, 0) << from_h5.output;
  EXPECT_NE(from_h5.output.find("results.h5"), std::string::npos) << from_h5.output;
  // The same measures, for the clusters and for merge's raw clusters (the files named differ).
  const auto measures = [](const std::string& output) { return output.substr(output.find("quality against")); };
  EXPECT_EQ(measures(from_h5.output), measures(from_text.output));
}

}  // namespace
