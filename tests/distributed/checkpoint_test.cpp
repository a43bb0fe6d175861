// Checkpoint files: a unit's subspaces come back as they were written, a damaged or foreign file is
// refused with a message naming it, and differences of identity are said field by field.
#include "distributed/checkpoint.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "distributed/subspace_pairs.hpp"

namespace {

using namespace subscale;
namespace fs = std::filesystem;

class Checkpoint : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("subscale-checkpoint-test-" + std::to_string(::getpid()));
    fs::remove_all(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  fs::path folder_;
};

// Three subspaces over 70 dimensions and 200 points: one dense bitmap, two sparse.
dense_units::direct::DirectSubspaceMap sample_map() {
  dense_units::direct::DirectSubspaceMap map(2, 4);
  std::vector<SubspaceCluster> subspaces = {{{0, 65}, {1, 2, 199}}, {{3, 4, 5}, {}}, {{1, 69}, {}}};
  for (std::uint32_t p = 0; p < 200; p += 2) subspaces[1].points.push_back(p);
  subspaces[2].points = {0};
  distributed::add_subspaces(subspaces, map);
  return map;
}

TEST_F(Checkpoint, UnitRoundTripsAndIsCheckedOnTheWayBack) {
  const distributed::CheckpointFolder folder(folder_);
  distributed::CheckpointManifest manifest{{{"epsilon", "0.01"}}, distributed::direct_split(1000, 4)};
  folder.create(manifest);
  const std::uint64_t fingerprint = distributed::CheckpointFolder::fingerprint(manifest);
  const dense_units::direct::DirectSubspaceMap map = sample_map();
  folder.record_unit(2, fingerprint, map, {17, 5});
  EXPECT_EQ(folder.finished_units(4), std::vector<std::uint32_t>{2});
  dense_units::direct::DirectSubspaceMap back(2, 4);
  const distributed::UnitCounts counts = folder.load_unit(2, fingerprint, back);
  EXPECT_EQ(counts.walk_nodes, 17u);
  EXPECT_EQ(counts.multi_units, 5u);
  EXPECT_EQ(back.to_subspaces(), map.to_subspaces());
  const distributed::CheckpointManifest read = folder.read_manifest();
  EXPECT_EQ(distributed::CheckpointFolder::fingerprint(read), fingerprint);

  // Another manifest's fingerprint, and one flipped byte: refused, naming the file.
  EXPECT_THROW(folder.load_unit(2, fingerprint + 1, back), InputError);
  {
    std::fstream file(folder.unit_file(2), std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(70);
    file.put('\x5a');
  }
  try {
    folder.load_unit(2, fingerprint, back);
    FAIL() << "a damaged unit file was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("unit-2.bin"), std::string::npos) << error.what();
  }
}

TEST_F(Checkpoint, DamagedManifestIsRefused) {
  const distributed::CheckpointFolder folder(folder_);
  EXPECT_THROW(folder.read_manifest(), UsageError);  // no checkpoint at all
  fs::create_directories(folder_);
  std::ofstream(folder.manifest_file()) << "{\"format\": 1, \"identity\": [";
  EXPECT_THROW(folder.read_manifest(), InputError);
}

TEST_F(Checkpoint, AMissingManifestBesideUnitFilesIsADamagedCheckpoint) {
  // Regression: a deleted manifest.json gave exit 2 (usage), where the README says a
  // damaged checkpoint is exit 3.
  const distributed::CheckpointFolder folder(folder_);
  fs::create_directories(folder_);
  std::ofstream(folder.unit_file(0)) << "unit bytes";
  try {
    folder.read_manifest();
    FAIL() << "a checkpoint without its manifest was read";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("manifest.json"), std::string::npos) << error.what();
  }
}

TEST(CheckpointIdentity, DifferencesAreNamed) {
  const distributed::CheckpointIdentity made = {{"epsilon", "0.01"}, {"mode", "direct"}, {"old", "x"}};
  const distributed::CheckpointIdentity here = {{"epsilon", "0.02"}, {"mode", "direct"}, {"new", "y"}};
  const auto differences = distributed::identity_differences(made, here);
  ASSERT_EQ(differences.size(), 3u);
  EXPECT_EQ(differences[0], "epsilon is 0.01 in the checkpoint and 0.02 here");
  EXPECT_TRUE(distributed::identity_differences(made, made).empty());
}

TEST(SubspacePairs, EncodeDecodeKeepsEverySubspace) {
  const dense_units::direct::DirectSubspaceMap map = sample_map();
  const distributed::Bytes bytes = distributed::encode_pairs(map);
  dense_units::direct::DirectSubspaceMap back(2, 4);
  distributed::decode_pairs_into(bytes.data(), bytes.size(), back, "test");
  EXPECT_EQ(back.to_subspaces(), map.to_subspaces());
  EXPECT_THROW(distributed::decode_pairs_into(bytes.data(), bytes.size() - 1, back, "test"), Error);
  const std::vector<SubspaceCluster> clusters = map.to_subspaces();
  EXPECT_EQ(distributed::decode_clusters(distributed::encode_clusters(clusters)), clusters);
}

// The groups of an all-to-all: every entry in exactly its group's bytes, which decode to the same
// subspaces as the whole map's.
TEST(SubspacePairs, GroupsSplitTheEntries) {
  const dense_units::direct::DirectSubspaceMap map = sample_map();
  std::vector<std::uint32_t> group(map.size());
  for (std::uint32_t e = 0; e < map.size(); ++e) group[e] = e % 3;
  const std::vector<distributed::Bytes> parts = distributed::encode_pairs_in_groups(map, 3, group);
  ASSERT_EQ(parts.size(), 3u);
  dense_units::direct::DirectSubspaceMap back(2, 4);
  for (const distributed::Bytes& part : parts) {
    dense_units::direct::DirectSubspaceMap alone(2, 4);
    distributed::decode_pairs_into(part.data(), part.size(), alone, "test");
    EXPECT_EQ(alone.size(), (map.size() + 2 - (&part - parts.data())) / 3);
    distributed::decode_pairs_into(part.data(), part.size(), back, "test");
  }
  EXPECT_EQ(back.to_subspaces(), map.to_subspaces());
}

// Cluster bytes cut short, or with sizes past their end, are refused, not read beyond.
TEST(SubspacePairs, DamagedClusterBytesAreRefused) {
  const std::vector<SubspaceCluster> clusters = sample_map().to_subspaces();
  distributed::Bytes bytes = distributed::encode_clusters(clusters);
  EXPECT_THROW(distributed::decode_clusters(distributed::Bytes(bytes.begin(), bytes.end() - 1)), Error);
  distributed::Bytes longer = bytes;
  longer.push_back(0);
  EXPECT_THROW(distributed::decode_clusters(longer), Error);
  distributed::Bytes huge = bytes;
  const std::uint64_t lots = ~std::uint64_t{0} / 2;
  std::memcpy(huge.data() + 8, &lots, sizeof lots);  // the first cluster's dimension count
  EXPECT_THROW(distributed::decode_clusters(huge), Error);
  std::memcpy(huge.data(), &lots, sizeof lots);  // the cluster count
  EXPECT_THROW(distributed::decode_clusters(huge), Error);
}

}  // namespace
