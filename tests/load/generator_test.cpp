#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

#include "datasets/seeded_random.hpp"
#include "datasets/synthetic_generator.hpp"
#include "io/ground_truth.hpp"
#include "io/hdf5_dataset_reader.hpp"
#include "io/hdf5_dataset_writer.hpp"
#include "io/hdf5_file.hpp"
#include "tests/io/test_files.hpp"
#include "tests/source_root.hpp"

namespace subscale::datasets {
namespace {

using subscale::testing::TempDir;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

GeneratorConfig small_config(std::uint64_t seed) {
  GeneratorConfig config;
  config.points = 500;
  config.dimensions = 8;
  config.seed = seed;
  config.clusters = {{{0, 3}, 120, 0.02}, {{1, 2, 6}, 90, 0.04}, {{3, 7}, 60, 0.03}};
  return config;
}

bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

std::string read_text(const std::string& path) {
  std::ifstream input(path, std::ios::binary);
  std::stringstream text;
  text << input.rdbuf();
  return text.str();
}

TEST(SeededRandom, EngineAndConversionsAreFixed) {
  // The C++ standard fixes mt19937_64's 10000th output for the default seed.
  SeededRandom standard(5489u);
  std::uint64_t x = 0;
  for (int i = 0; i < 10000; ++i) x = standard.bits();
  EXPECT_EQ(x, 9981545732273789042ull);
  SeededRandom a(42), b(42);
  const std::uint64_t raw = a.bits();
  EXPECT_EQ(b.uniform01(), static_cast<double>(raw >> 11) / 9007199254740992.0);
  SeededRandom c(7);
  for (int i = 0; i < 1000; ++i) {
    const double u = c.uniform01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    ASSERT_LT(c.below(3), 3u);
    const auto v = c.between(5, 9);
    ASSERT_GE(v, 5u);
    ASSERT_LE(v, 9u);
  }
  EXPECT_NE(derive_seed(1, 0), derive_seed(1, 1));
  EXPECT_NE(derive_seed(1, 0), derive_seed(2, 0));
}

TEST(Generator, SameSeedSameBitsOtherSeedOtherData) {
  const GeneratedData first = generate(small_config(11));
  const GeneratedData second = generate(small_config(11));
  EXPECT_TRUE(same_bits(first.dataset.values, second.dataset.values));
  EXPECT_EQ(first.dataset.labels, second.dataset.labels);
  EXPECT_EQ(first.truth, second.truth);
  const GeneratedData other = generate(small_config(12));
  EXPECT_FALSE(same_bits(first.dataset.values, other.dataset.values));
  EXPECT_NE(first.truth, other.truth);
}

TEST(Generator, PinnedValuesForASeed) {
  // The values follow from mt19937_64 and integer arithmetic only; their checksum was recorded
  // once and must not change across platforms or compilers (a change means datasets made with
  // an older build cannot be remade).
  const GeneratedData data = generate(small_config(11));
  const GeneratedData again = generate(small_config(11));
  std::uint64_t checksum = 0;
  for (Eigen::Index i = 0; i < data.dataset.values.size(); ++i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, data.dataset.values.data() + i, sizeof bits);
    checksum = checksum * 1099511628211ull ^ bits;
  }
  EXPECT_EQ(checksum, 14900998619480527871ull) << "generator output changed";
  EXPECT_EQ(data.truth, again.truth);
}

TEST(Generator, ClustersAreDenseInTheirDimensionsOnly) {
  const GeneratorConfig config = small_config(5);
  const GeneratedData data = generate(config);
  const Dataset& dataset = data.dataset;
  ASSERT_EQ(dataset.points(), 500u);
  ASSERT_EQ(dataset.dimensions(), 8u);
  EXPECT_GE(dataset.values.minCoeff(), 0.0);
  EXPECT_LE(dataset.values.maxCoeff(), 1.0);
  ASSERT_EQ(data.truth.size(), 3u);
  std::set<std::uint32_t> seen;
  for (std::size_t c = 0; c < 3; ++c) {
    const SubspaceCluster& truth = data.truth[c];
    EXPECT_EQ(truth.dimensions, config.clusters[c].dimensions);
    ASSERT_EQ(truth.points.size(), config.clusters[c].size);
    EXPECT_TRUE(std::is_sorted(truth.points.begin(), truth.points.end()));
    for (std::uint32_t p : truth.points) {
      EXPECT_TRUE(seen.insert(p).second) << "point " << p << " in two clusters";
      EXPECT_EQ(dataset.labels[p], static_cast<std::int64_t>(c));
    }
    for (std::uint32_t dim = 0; dim < 8; ++dim) {
      double low = 1, high = 0;
      for (std::uint32_t p : truth.points) {
        low = std::min(low, dataset.values(p, dim));
        high = std::max(high, dataset.values(p, dim));
      }
      const bool in_cluster =
          std::find(truth.dimensions.begin(), truth.dimensions.end(), dim) != truth.dimensions.end();
      if (in_cluster)
        EXPECT_LE(high - low, config.clusters[c].width) << "cluster " << c << " dim " << dim;
      else
        EXPECT_GT(high - low, 0.5) << "cluster " << c << " dim " << dim << " should be spread out";
    }
  }
  // Cluster members are spread over the ids, not one block of rows.
  EXPECT_GT(data.truth[0].points.back() - data.truth[0].points.front(), 300u);
  EXPECT_EQ(std::count(dataset.labels.begin(), dataset.labels.end(), -1), 500 - 270);
}

TEST(Generator, RefusesInconsistentConfigs) {
  GeneratorConfig config = small_config(1);
  config.clusters[1].dimensions = {1, 8};
  EXPECT_THROW(generate(config), UsageError);
  config = small_config(1);
  config.clusters[0].size = 400;
  EXPECT_THROW(generate(config), UsageError);
  config = small_config(1);
  config.clusters[2].width = 0;
  EXPECT_THROW(generate(config), UsageError);
  config = small_config(1);
  config.clusters[2].dimensions = {3, 3};
  EXPECT_THROW(generate(config), UsageError);
}

TEST(ClusterSpec, ExplicitSizesAndSharing) {
  const auto clusters = parse_cluster_spec("0,3:150:0.03; 5,1,9:120:0.02;", 400, 10, std::nullopt, 1);
  ASSERT_EQ(clusters.size(), 2u);
  EXPECT_THAT(clusters[1].dimensions, ElementsAre(1, 5, 9));
  EXPECT_EQ(clusters[1].size, 120u);
  EXPECT_EQ(clusters[0].width, 0.03);
  EXPECT_EQ(format_cluster_spec(clusters), "0,3:150:0.03;1,5,9:120:0.02");

  // 20% noise of 1000 leaves 800: 300 given, 500 shared by two clusters (250 each).
  const auto shared = parse_cluster_spec("0:300:0.1;1::0.1;2::0.1", 1000, 3, 0.2, 1);
  EXPECT_EQ(shared[1].size, 250u);
  EXPECT_EQ(shared[2].size, 250u);
  // Sizes that agree with the noise fraction are accepted as they are.
  EXPECT_EQ(parse_cluster_spec("0:800:0.1", 1000, 3, 0.2, 1)[0].size, 800u);
}

TEST(ClusterSpec, RandomFormIsSeededAndInRange) {
  const auto a = parse_cluster_spec("random:6:2-4:50-80:0.02-0.04", 1000, 12, std::nullopt, 9);
  const auto b = parse_cluster_spec("random:6:2-4:50-80:0.02-0.04", 1000, 12, std::nullopt, 9);
  const auto c = parse_cluster_spec("random:6:2-4:50-80:0.02-0.04", 1000, 12, std::nullopt, 10);
  ASSERT_EQ(a.size(), 6u);
  EXPECT_EQ(format_cluster_spec(a), format_cluster_spec(b));
  EXPECT_NE(format_cluster_spec(a), format_cluster_spec(c));
  for (const auto& cluster : a) {
    EXPECT_GE(cluster.dimensions.size(), 2u);
    EXPECT_LE(cluster.dimensions.size(), 4u);
    EXPECT_TRUE(std::is_sorted(cluster.dimensions.begin(), cluster.dimensions.end()));
    EXPECT_EQ(std::adjacent_find(cluster.dimensions.begin(), cluster.dimensions.end()), cluster.dimensions.end());
    EXPECT_LT(cluster.dimensions.back(), 12u);
    EXPECT_GE(cluster.size, 50u);
    EXPECT_LE(cluster.size, 80u);
    EXPECT_GE(cluster.width, 0.02);
    EXPECT_LE(cluster.width, 0.04);
  }
  // Without sizes, the noise fraction decides them.
  const auto even = parse_cluster_spec("random:4:1-2::0.01", 1000, 5, 0.2, 3);
  for (const auto& cluster : even) EXPECT_EQ(cluster.size, 200u);
}

TEST(ClusterSpec, ErrorsSayWhatIsWrong) {
  const auto message = [](const std::string& spec, std::optional<double> noise = std::nullopt) {
    try {
      parse_cluster_spec(spec, 1000, 10, noise, 1);
    } catch (const UsageError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(message("0,3:150"), AllOf(HasSubstr("cluster 1"), HasSubstr("DIMS:SIZE:WIDTH")));
  EXPECT_THAT(message("0:10:0.1;0,12:10:0.1"),
              AllOf(HasSubstr("cluster 2"), HasSubstr("dimension 12 is out of range")));
  EXPECT_THAT(message("0:10:1.5"), HasSubstr("width '1.5'"));
  EXPECT_THAT(message("0:ten:0.1"), HasSubstr("size 'ten'"));
  EXPECT_THAT(message("0,0:10:0.1"), HasSubstr("listed twice"));
  EXPECT_THAT(message("0::0.1"), HasSubstr("no size"));
  EXPECT_THAT(message("0:900:0.1;1:200:0.1"), HasSubstr("more than --points"));
  EXPECT_THAT(message("0:500:0.1", 0.2), AllOf(HasSubstr("200 noise points"), HasSubstr("leaves 500")));
  EXPECT_THAT(message("0:10:0.1", 1.0), HasSubstr("--noise"));
  EXPECT_THAT(message("random:3:2-20:10-20:0.1"), HasSubstr("between 1 and --dims 10"));
  EXPECT_THAT(message("random:3:4-2:10-20:0.1"), HasSubstr("wrong way round"));
  EXPECT_THAT(message(""), HasSubstr("empty"));
}

TEST(Generator, Hdf5OutputRoundTripsBitForBit) {
  TempDir dir;
  const GeneratedData data = generate(small_config(21));
  io::Hdf5WriteOptions options;
  options.gzip_level = 6;
  io::write_hdf5_dataset(data.dataset, dir.file("a.h5"), options);
  io::write_hdf5_dataset(generate(small_config(21)).dataset, dir.file("b.h5"), options);
  const Dataset a = io::read_hdf5_dataset(dir.file("a.h5"));
  const Dataset b = io::read_hdf5_dataset(dir.file("b.h5"));
  EXPECT_TRUE(same_bits(a.values, data.dataset.values));
  EXPECT_TRUE(same_bits(a.values, b.values));
  EXPECT_EQ(a.labels, b.labels);
}

// ---- the shipped dataset and the command in datasets/README.md that made it ----

std::string file_attribute(const std::string& path, const std::string& name) {
  return io::Hdf5File(path, io::Hdf5File::Mode::read).read_string_attribute("/data", name);
}

std::string readme_command() {
  const std::string text = read_text((subscale::testing::source_root() / "datasets" / "README.md").string());
  const std::string_view prefix = "build/subscale-generate ";
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (std::string_view(text).substr(start, end - start).starts_with(prefix)) return text.substr(start, end - start);
    start = end + 1;
  }
  return {};
}

TEST(ShippedDataset, QuickstartMatchesItsTruthFile) {
  const std::string prefix = (subscale::testing::source_root() / "datasets" / "quickstart").string();
  const Dataset dataset = io::read_hdf5_dataset(prefix + ".h5");
  EXPECT_EQ(dataset.points(), 1000u);
  EXPECT_EQ(dataset.dimensions(), 20u);
  ASSERT_EQ(dataset.labels.size(), 1000u);
  io::GroundTruthOptions options;
  options.points = 1000;
  const io::GroundTruth truth = io::read_ground_truth(prefix + ".true", options);
  EXPECT_EQ(truth.dimensions, 20u);
  EXPECT_EQ(truth.file, "quickstart.h5");
  ASSERT_EQ(truth.clusters.size(), 5u);
  std::size_t clustered = 0;
  for (std::size_t c = 0; c < truth.clusters.size(); ++c) {
    const SubspaceCluster& cluster = truth.clusters[c];
    EXPECT_GE(cluster.dimensions.size(), 2u);
    EXPECT_LE(cluster.dimensions.size(), 6u);
    EXPECT_GE(cluster.points.size(), 80u);
    EXPECT_LE(cluster.points.size(), 200u);
    for (std::uint32_t id : cluster.points) EXPECT_EQ(dataset.labels[id], static_cast<std::int64_t>(c));
    clustered += cluster.points.size();
  }
  EXPECT_EQ(static_cast<std::size_t>(std::count(dataset.labels.begin(), dataset.labels.end(), -1)), 1000 - clustered);
  EXPECT_EQ(clustered, 800u);  // 20% noise
}

TEST(ShippedDataset, ReadmeCommandRemakesItExactly) {
  const std::string command = readme_command();
  ASSERT_FALSE(command.empty()) << "datasets/README.md has no line starting with 'build/subscale-generate '";
  const std::size_t out = command.find("--out datasets/quickstart");
  ASSERT_NE(out, std::string::npos) << command;
  TempDir dir;
  std::string rerun = command;
  rerun.replace(out, std::string("--out datasets/quickstart").size(), "--out '" + dir.file("quickstart") + "'");
  rerun.replace(0, std::string("build/subscale-generate").size(), std::string("'") + SUBSCALE_GENERATE_BIN + "'");
  ASSERT_EQ(std::system((rerun + " > /dev/null").c_str()), 0) << rerun;

  const std::string shipped = (subscale::testing::source_root() / "datasets" / "quickstart").string();
  const Dataset original = io::read_hdf5_dataset(shipped + ".h5");
  const Dataset remade = io::read_hdf5_dataset(dir.file("quickstart.h5"));
  EXPECT_TRUE(same_bits(original.values, remade.values));
  EXPECT_EQ(original.labels, remade.labels);
  EXPECT_EQ(read_text(shipped + ".true"), read_text(dir.file("quickstart.true")));
  // The program's .true file holds exactly the clusters the generator made.
  GeneratorConfig config;
  config.points = 1000;
  config.dimensions = 20;
  config.seed = 2024;
  const std::string spec = file_attribute(shipped + ".h5", "clusters");
  config.clusters = parse_cluster_spec(spec, 1000, 20, std::nullopt, 0);
  EXPECT_EQ(io::read_ground_truth(dir.file("quickstart.true")).clusters, generate(config).truth);
  EXPECT_EQ(file_attribute(shipped + ".h5", "generator"), "subscale-generate");
  EXPECT_EQ(file_attribute(shipped + ".h5", "seed"), "2024");
}

}  // namespace
}  // namespace subscale::datasets
