// Lists of subspace clusters stored as compressed sparse rows in HDF5 read back equal: lists that
// span several of the writer's 4 MiB blocks, empty lists, no lists; uncompressed and with gzip
// (chunks compressed by the writer, decompressed by HDF5's own filter on read); and a damaged
// offsets dataset is refused with a message naming the file and the dataset.
#include "io/cluster_list_hdf5.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "common/error.hpp"

namespace subscale::io {
namespace {

std::filesystem::path temporary_file(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("subscale-cluster-list-" + name + "-" + std::to_string(::getpid()) + ".h5");
}

std::vector<SubspaceCluster> random_lists(std::size_t count, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<SubspaceCluster> lists(count);
  for (auto& list : lists) {
    for (std::uint32_t d = 0, dims = random() % 6; d < dims; ++d) list.dimensions.push_back(d * 7 + random() % 7);
    for (std::uint32_t p = 0, points = random() % 120; p < points; ++p) list.points.push_back(random());
  }
  return lists;
}

class ClusterListHdf5 : public ::testing::TestWithParam<int> {};

TEST_P(ClusterListHdf5, ReadsBackWhatWasWritten) {
  const int gzip_level = GetParam();
  const auto path = temporary_file("roundtrip" + std::to_string(gzip_level));
  // About 1.8 M point ids: two of the writer's blocks (1 Mi ids each) and a part of a third.
  std::vector<SubspaceCluster> many = random_lists(30'000, 3);
  many[0] = {};
  many[29'999].points = {0, 4294967295u};
  {
    Hdf5File file(path.string(), Hdf5File::Mode::create_truncate);
    write_cluster_list(file, "/many", many, gzip_level);
    write_cluster_list(file, "/none", {}, gzip_level);
    write_cluster_list(file, "/group/few", {{{1, 2}, {}}, {{}, {5}}}, gzip_level);
  }
  const Hdf5File file(path.string(), Hdf5File::Mode::read);
  EXPECT_EQ(read_cluster_list(file, "/many"), many);
  EXPECT_TRUE(read_cluster_list(file, "/none").empty());
  EXPECT_EQ(read_cluster_list(file, "/group/few"), (std::vector<SubspaceCluster>{{{1, 2}, {}}, {{}, {5}}}));
  // The documented layout, read through the plain dataset reader.
  const auto offsets = file.read<std::uint64_t>("/many/point_offsets");
  ASSERT_EQ(offsets.shape, (std::vector<std::uint64_t>{30'001}));
  EXPECT_EQ(offsets.data.back(), file.info("/many/points").shape[0]);
  EXPECT_EQ(file.info("/many/points").element_bytes, 4u);
  EXPECT_EQ(file.info("/many/point_offsets").element_bytes, 8u);
  const auto slice = file.read_range<std::uint32_t>("/many/points", offsets.data[29'999], 2);
  EXPECT_EQ(slice, (std::vector<std::uint32_t>{0, 4294967295u}));
  std::filesystem::remove(path);
}

INSTANTIATE_TEST_SUITE_P(Gzip, ClusterListHdf5, ::testing::Values(0, 1, 6));

TEST(ClusterListHdf5Errors, DamagedOffsetsAreRefused) {
  const auto path = temporary_file("damaged");
  {
    Hdf5File file(path.string(), Hdf5File::Mode::create_truncate);
    write_cluster_list(file, "/lists", {{{1, 2}, {3, 4}}}, 0);
    // Offsets that claim more ids than the dataset has.
    file.write<std::uint64_t>("/bad/point_offsets", std::vector<std::uint64_t>{0, 9});
    file.write<std::uint32_t>("/bad/points", std::vector<std::uint32_t>{3, 4});
    file.write<std::uint64_t>("/bad/dimension_offsets", std::vector<std::uint64_t>{0, 2});
    file.write<std::uint32_t>("/bad/dimensions", std::vector<std::uint32_t>{1, 2});
  }
  const Hdf5File file(path.string(), Hdf5File::Mode::read);
  try {
    read_cluster_list(file, "/bad");
    ADD_FAILURE() << "damaged offsets were accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("/bad/point_offsets"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find(path.string()), std::string::npos) << error.what();
  }
  EXPECT_THROW(read_cluster_list(file, "/missing"), InputError);
  EXPECT_THROW(file.read_range<std::uint32_t>("/lists/points", 1, 5), InputError);
  std::filesystem::remove(path);
}

TEST(ClusterListHdf5Errors, AListCountBeyondMemoryIsRefusedBeforeTheListsAreMade) {
  // Regression: the number of lists is read from the file (compressed, a billion empty
  // lists take a few kilobytes); the lists' memory is checked before they are made.
  const auto path = temporary_file("many");
  {
    Hdf5File file(path.string(), Hdf5File::Mode::create_truncate);
    write_cluster_list(file, "/lists", std::vector<SubspaceCluster>(200000), 6);
  }
  setenv("SUBSCALE_AVAILABLE_MEMORY", "6M", 1);  // the offsets fit (1.6 MB each), the lists do not
  const Hdf5File file(path.string(), Hdf5File::Mode::read);
  try {
    read_cluster_list(file, "/lists");
    ADD_FAILURE() << "200000 lists were made in 6 MiB";
  } catch (const ResourceError& error) {
    EXPECT_NE(std::string(error.what()).find("200000 lists"), std::string::npos) << error.what();
  }
  unsetenv("SUBSCALE_AVAILABLE_MEMORY");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace subscale::io
