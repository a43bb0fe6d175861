// subscale-generate: writes a synthetic subspace dataset (HDF5: /data, /labels) and its ground
// truth in the OpenSubspace .true format. See synthetic_generator.hpp for the model.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <optional>

#include "common/error.hpp"
#include "datasets/synthetic_generator.hpp"
#include "io/ground_truth.hpp"
#include "io/hdf5_dataset_writer.hpp"

namespace {

struct Arguments {
  std::uint64_t points = 0;
  std::uint32_t dimensions = 0;
  std::string clusters;
  std::optional<double> noise;
  std::uint64_t seed = 1;
  std::string out;
  bool float32 = false;
  int gzip = 6;
  std::string dataset_path = "/data";
  subscale::datasets::IntegerGrid grid;
};

int generate(const Arguments& arguments) {
  using namespace subscale;
  const std::filesystem::path prefix(arguments.out);
  const std::filesystem::path folder = prefix.parent_path();
  if (!folder.empty() && !std::filesystem::is_directory(folder))
    throw UsageError("--out: the folder '" + folder.string() + "' does not exist; create it first");

  datasets::GeneratorConfig config;
  config.points = arguments.points;
  config.dimensions = arguments.dimensions;
  config.seed = arguments.seed;
  config.grid = arguments.grid;
  config.clusters = datasets::parse_cluster_spec(arguments.clusters, arguments.points, arguments.dimensions,
                                                 arguments.noise, arguments.seed);
  const datasets::GeneratedData data = datasets::generate(config);

  std::filesystem::path h5_path = prefix, true_path = prefix;
  h5_path += ".h5";
  true_path += ".true";
  io::Hdf5WriteOptions options;
  options.dataset_path = arguments.dataset_path;
  options.float32 = arguments.float32;
  options.gzip_level = arguments.gzip;
  // The resolved parameters (random specs and shared sizes written out), so the file says how
  // it was made.
  options.attributes = {
      {"generator", "subscale-generate"},
      {"points", std::to_string(config.points)},
      {"dimensions", std::to_string(config.dimensions)},
      {"clusters", datasets::format_cluster_spec(config.clusters)},
      {"seed", std::to_string(config.seed)},
  };
  if (config.grid.levels > 0) {
    options.attributes.push_back({"levels", std::to_string(config.grid.levels)});
    options.attributes.push_back({"skew", std::to_string(config.grid.skew)});
    options.attributes.push_back({"tie_correlation", std::to_string(config.grid.correlation)});
    options.attributes.push_back({"tie_groups", std::to_string(config.grid.groups)});
    options.attributes.push_back({"skewed_dims", std::to_string(config.grid.skewed_dimensions)});
    options.attributes.push_back({"skewed_points", std::to_string(config.grid.skewed_points)});
  }
  io::write_hdf5_dataset(data.dataset, h5_path.string(), options);
  io::GroundTruth truth;
  truth.dimensions = config.dimensions;
  truth.file = h5_path.filename().string();
  truth.clusters = data.truth;
  io::write_ground_truth(true_path, truth);

  std::uint64_t clustered = 0;
  for (const auto& cluster : config.clusters) clustered += cluster.size;
  std::cout << "wrote " << h5_path.string() << " (" << config.points << " points x " << config.dimensions
            << " dimensions, " << config.clusters.size() << " hidden clusters, " << config.points - clustered
            << " noise points) and " << true_path.string() << "\n"
            << "clusters: " << datasets::format_cluster_spec(config.clusters) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Arguments arguments;
  CLI::App app{
      "Writes synthetic subspace data with ground truth: a uniform background in [0, 1]^d plus hidden clusters, "
      "each dense (uniform in an interval of its width) in its own dimensions and uniform elsewhere. Outputs "
      "PREFIX.h5 (/data: points x dimensions, /labels: cluster index or -1 for noise) and PREFIX.true "
      "(OpenSubspace ground truth). The same arguments and seed give the same data on every platform.",
      "subscale-generate"};
  app.add_option("--points,-n", arguments.points, "Number of points (rows)")->required()->check(CLI::PositiveNumber);
  app.add_option("--dims,-d", arguments.dimensions, "Number of dimensions (columns)")
      ->required()
      ->check(CLI::PositiveNumber);
  app.add_option("--clusters,-c", arguments.clusters,
                 "Hidden clusters. Explicit: 'DIMS:SIZE:WIDTH;...' with DIMS a comma-separated list of 0-based "
                 "dimensions, e.g. '0,3:150:0.03;1,5,9:120:0.02' (SIZE may be left empty, '0,3::0.03', to share "
                 "the points --noise leaves). Random: 'random:COUNT:DMIN-DMAX:SMIN-SMAX:WMIN-WMAX', e.g. "
                 "'random:5:2-6:80-150:0.02-0.04' (dimensions, sizes and widths drawn from the seed)")
      ->required();
  app.add_option("--noise", arguments.noise,
                 "Fraction of the points that are noise, in [0, 1). Without it the points the clusters leave are "
                 "noise; with it, sizes left empty are filled so that this fraction remains");
  app.add_option("--seed,-s", arguments.seed, "Random seed")->capture_default_str();
  app.add_option("--out,-o", arguments.out, "Output prefix: writes PREFIX.h5 and PREFIX.true")->required();
  app.add_option("--levels", arguments.grid.levels,
                 "Tie-heavy data: every value an integer level 0..LEVELS-1, as integer-valued measurements are "
                 "(0: continuous values)")
      ->capture_default_str();
  app.add_option("--skew", arguments.grid.skew,
                 "With --levels: Zipf exponent of the background's level frequencies (level l drawn with weight "
                 "1/(l+1)^SKEW; 0 uniform, larger puts more points on the first levels)")
      ->capture_default_str();
  app.add_option("--tie-correlation", arguments.grid.correlation,
                 "With --levels: probability that a cell reuses its point's own draw, so a point sits on the same "
                 "level in many dimensions and ties line up across dimensions")
      ->capture_default_str();
  app.add_option("--tie-groups", arguments.grid.groups,
                 "With --levels: deal the dimensions into this many groups (1 to --dims); a point has its own "
                 "draw per group, which its cells reuse with the --tie-correlation probability, so ties line up "
                 "within a group's dimensions, as features that come in "
                 "correlated groups do, and rarely across groups (1: one draw for all dimensions)")
      ->capture_default_str();
  app.add_option("--skewed-dims", arguments.grid.skewed_dimensions,
                 "With --levels: only this many dimensions (a seeded random choice) draw from the skewed law; the "
                 "others draw their levels uniformly, as features with many distinct values do, so ties "
                 "concentrate in a minority of features (0: all dimensions)")
      ->capture_default_str();
  app.add_option("--skewed-points", arguments.grid.skewed_points,
                 "With --levels: the fraction of the points, in (0, 1] (a seeded random choice), that draw from "
                 "the skewed law in those dimensions; the others draw uniformly there, so ties concentrate on "
                 "some of the rows, as they do where some records are mostly zeros or defaults")
      ->capture_default_str();
  app.add_flag("--float32", arguments.float32, "Store the values as float32 (default float64)");
  app.add_option("--gzip", arguments.gzip, "gzip level of the HDF5 datasets, 0 (none) to 9")
      ->check(CLI::Range(0, 9))
      ->capture_default_str();
  app.add_option("--dataset", arguments.dataset_path, "HDF5 path of the data matrix; labels go beside it")
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : static_cast<int>(subscale::ExitCode::usage);
  }
  try {
    return generate(arguments);
  } catch (const subscale::Error& error) {
    std::cerr << "subscale-generate: " << error.what() << "\n";
    return static_cast<int>(error.code());
  } catch (const std::exception& error) {
    std::cerr << "subscale-generate: " << error.what() << "\n";
    return static_cast<int>(subscale::ExitCode::other);
  }
}
