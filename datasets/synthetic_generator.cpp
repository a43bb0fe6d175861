#include "datasets/synthetic_generator.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include "common/error.hpp"
#include "datasets/seeded_random.hpp"
#include "io/data_validation.hpp"

namespace subscale::datasets {
namespace {

// Streams derived from the user's seed, one per purpose.
constexpr std::uint64_t layout_stream = 0;  // permutation of point ids, cluster positions
constexpr std::uint64_t value_stream = 1;   // coordinates
constexpr std::uint64_t spec_stream = 2;    // random cluster specs
constexpr std::uint64_t grid_stream = 3;    // integer levels of tie-heavy data
constexpr std::uint64_t group_stream = 4;   // which dimensions form each tie group
constexpr std::uint64_t skewed_stream = 5;  // which dimensions draw from the skewed law
constexpr std::uint64_t prone_stream = 6;   // which points draw from the skewed law

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(io::trim(text.substr(start, end == std::string_view::npos ? text.npos : end - start)));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::string shortest(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

[[noreturn]] void spec_error(const std::string& where, const std::string& problem) {
  throw UsageError("--clusters: " + where + ": " + problem +
                   "; write clusters as DIMS:SIZE:WIDTH;... (for example \"0,3:150:0.03;1,5,9:120:0.02\") or "
                   "random:COUNT:DMIN-DMAX:SMIN-SMAX:WMIN-WMAX (for example \"random:5:2-6:80-150:0.02-0.04\")");
}

std::uint64_t parse_count(std::string_view text, const std::string& where, const std::string& what) {
  std::int64_t value = 0;
  if (!io::parse_integer(text, value) || value < 0)
    spec_error(where, what + " '" + std::string(text) + "' is not a whole number >= 0");
  return static_cast<std::uint64_t>(value);
}

double parse_width(std::string_view text, const std::string& where) {
  double value = 0.0;
  if (!io::parse_number(text, value) || !(value > 0.0 && value <= 1.0))
    spec_error(where, "width '" + std::string(text) + "' is not a number in (0, 1]");
  return value;
}

// "a-b" or "a" -> [a, b].
template <class Parse>
auto parse_range(std::string_view text, const std::string& where, const std::string& what, Parse parse) {
  // A '-' after the first character separates the bounds (widths such as 1e-3 have no '-' at
  // the start of a bound, but may after an 'e', so split at a '-' not preceded by 'e').
  std::size_t dash = std::string_view::npos;
  for (std::size_t i = 1; i < text.size(); ++i)
    if (text[i] == '-' && text[i - 1] != 'e' && text[i - 1] != 'E') {
      dash = i;
      break;
    }
  const auto low = parse(io::trim(text.substr(0, dash)));
  const auto high = dash == std::string_view::npos ? low : parse(io::trim(text.substr(dash + 1)));
  if (high < low) spec_error(where, what + " range '" + std::string(text) + "' has its bounds the wrong way round");
  return std::pair{low, high};
}

// Gives the clusters without a size (size 0 here) their share of the non-noise points, or checks
// that the given sizes agree with the noise fraction.
void resolve_sizes(std::vector<HiddenCluster>& clusters, std::uint64_t points, std::optional<double> noise_fraction) {
  std::uint64_t given = 0, unsized = 0;
  for (const auto& cluster : clusters) {
    given += cluster.size;
    unsized += cluster.size == 0 ? 1 : 0;
  }
  if (!noise_fraction) {
    if (unsized > 0)
      throw UsageError("--clusters: " + std::to_string(unsized) +
                       " cluster(s) have no size; give every size, or --noise to share the remaining points");
    if (given > points)
      throw UsageError("--clusters: the sizes add up to " + std::to_string(given) + ", more than --points " +
                       std::to_string(points) + "; make the clusters smaller or add points");
    return;
  }
  const double noise = *noise_fraction;
  if (!(noise >= 0.0 && noise < 1.0)) throw UsageError("--noise: must be in [0, 1), got " + shortest(noise));
  const auto noise_points = static_cast<std::uint64_t>(std::llround(noise * static_cast<double>(points)));
  const std::uint64_t cluster_points = points - noise_points;
  if (unsized == 0) {
    if (given != cluster_points)
      throw UsageError("--noise " + shortest(noise) + " asks for " + std::to_string(noise_points) +
                       " noise points, but the cluster sizes add up to " + std::to_string(given) + " of " +
                       std::to_string(points) + " points, which leaves " +
                       (given > points ? "none" : std::to_string(points - given)) +
                       "; leave out --noise, or leave some sizes empty (DIMS::WIDTH) to fill up");
    return;
  }
  if (given + unsized > cluster_points)
    throw UsageError("--clusters: the given sizes (" + std::to_string(given) + ") leave too few of the " +
                     std::to_string(cluster_points) + " non-noise points for the clusters without a size");
  const std::uint64_t rest = cluster_points - given;
  std::uint64_t index = 0;
  for (auto& cluster : clusters)
    if (cluster.size == 0) cluster.size = rest / unsized + (index++ < rest % unsized ? 1 : 0);
}

std::vector<HiddenCluster> parse_random_spec(const std::vector<std::string_view>& fields, std::uint32_t dimensions,
                                             std::uint64_t seed) {
  const std::string where = "random spec";
  if (fields.size() != 5) spec_error(where, "needs 5 fields separated by ':', found " + std::to_string(fields.size()));
  const std::uint64_t count = parse_count(fields[1], where, "cluster count");
  const auto count_parser = [&](std::string_view text) { return parse_count(text, where, "bound"); };
  const auto [dims_low, dims_high] = parse_range(fields[2], where, "dimension count", count_parser);
  if (dims_low < 1 || dims_high > dimensions)
    spec_error(where,
               "the number of dimensions per cluster must be between 1 and --dims " + std::to_string(dimensions));
  const bool sized = !fields[3].empty();
  std::pair<std::uint64_t, std::uint64_t> sizes{0, 0};
  if (sized) {
    sizes = parse_range(fields[3], where, "size", count_parser);
    if (sizes.first < 1) spec_error(where, "cluster sizes must be at least 1");
  }
  const auto [width_low, width_high] =
      parse_range(fields[4], where, "width", [&](std::string_view text) { return parse_width(text, where); });

  SeededRandom random(derive_seed(seed, spec_stream));
  std::vector<std::uint32_t> all(dimensions);
  std::vector<HiddenCluster> clusters(count);
  for (auto& cluster : clusters) {
    const auto k = static_cast<std::uint32_t>(random.between(dims_low, dims_high));
    std::iota(all.begin(), all.end(), 0u);
    for (std::uint32_t i = 0; i < k; ++i)  // partial Fisher-Yates: the first k are a random k-subset
      std::swap(all[i], all[i + random.below(dimensions - i)]);
    cluster.dimensions.assign(all.begin(), all.begin() + k);
    std::sort(cluster.dimensions.begin(), cluster.dimensions.end());
    cluster.size = sized ? random.between(sizes.first, sizes.second) : 0;
    cluster.width = width_low + (width_high - width_low) * random.uniform01();
  }
  return clusters;
}

}  // namespace

std::vector<HiddenCluster> parse_cluster_spec(std::string_view spec, std::uint64_t points, std::uint32_t dimensions,
                                              std::optional<double> noise_fraction, std::uint64_t seed) {
  spec = io::trim(spec);
  std::vector<HiddenCluster> clusters;
  const std::vector<std::string_view> random_fields = split(spec, ':');
  if (io::to_lower(random_fields.front()) == "random") {
    clusters = parse_random_spec(random_fields, dimensions, seed);
  } else {
    std::size_t number = 0;
    for (std::string_view entry : split(spec, ';')) {
      if (entry.empty()) continue;  // a trailing ';'
      const std::string where = "cluster " + std::to_string(++number) + " ('" + std::string(entry) + "')";
      const std::vector<std::string_view> fields = split(entry, ':');
      if (fields.size() != 3)
        spec_error(where, "needs DIMS:SIZE:WIDTH, found " + std::to_string(fields.size()) + " field(s)");
      HiddenCluster cluster;
      for (std::string_view dim : split(fields[0], ',')) {
        const std::uint64_t value = parse_count(dim, where, "dimension");
        if (value >= dimensions)
          spec_error(where, "dimension " + std::to_string(value) + " is out of range: --dims " +
                                std::to_string(dimensions) + " numbers them 0 to " + std::to_string(dimensions - 1));
        cluster.dimensions.push_back(static_cast<std::uint32_t>(value));
      }
      std::sort(cluster.dimensions.begin(), cluster.dimensions.end());
      if (std::adjacent_find(cluster.dimensions.begin(), cluster.dimensions.end()) != cluster.dimensions.end())
        spec_error(where, "a dimension is listed twice");
      if (!fields[1].empty()) {
        cluster.size = parse_count(fields[1], where, "size");
        if (cluster.size == 0) spec_error(where, "size must be at least 1 (leave it empty to share the points)");
      }
      cluster.width = parse_width(fields[2], where);
      clusters.push_back(std::move(cluster));
    }
    if (clusters.empty()) spec_error("the list", "is empty");
  }
  resolve_sizes(clusters, points, noise_fraction);
  return clusters;
}

std::string format_cluster_spec(const std::vector<HiddenCluster>& clusters) {
  std::string text;
  for (const auto& cluster : clusters) {
    if (!text.empty()) text += ';';
    for (std::size_t k = 0; k < cluster.dimensions.size(); ++k) {
      if (k) text += ',';
      text += std::to_string(cluster.dimensions[k]);
    }
    text += ':' + std::to_string(cluster.size) + ':' + shortest(cluster.width);
  }
  return text;
}

namespace {

void check_grid(const IntegerGrid& grid, std::uint32_t dimensions) {
  if (grid.levels == 1) throw UsageError("--levels must be 0 (continuous values) or at least 2");
  if (!(grid.skew >= 0.0 && grid.skew <= 10.0)) throw UsageError("--skew must be in [0, 10]");
  if (!(grid.correlation >= 0.0 && grid.correlation <= 1.0)) throw UsageError("--tie-correlation must be in [0, 1]");
  if (grid.groups == 0 || grid.groups > dimensions)
    throw UsageError("--tie-groups must be between 1 and --dims " + std::to_string(dimensions) + ", got " +
                     std::to_string(grid.groups));
  if (grid.skewed_dimensions > dimensions)
    throw UsageError("--skewed-dims must be between 0 (all dimensions) and --dims " + std::to_string(dimensions) +
                     ", got " + std::to_string(grid.skewed_dimensions));
  if (!(grid.skewed_points > 0.0 && grid.skewed_points <= 1.0)) throw UsageError("--skewed-points must be in (0, 1]");
  if (grid.levels == 0 && (grid.skew != 0.0 || grid.correlation != 0.0 || grid.groups != 1 ||
                           grid.skewed_dimensions != 0 || grid.skewed_points != 1.0))
    throw UsageError(
        "--skew, --tie-correlation, --tie-groups, --skewed-dims and --skewed-points shape integer levels; give "
        "--levels too");
}

// The tie group of every dimension: one group holds them all; otherwise the dimensions, in a
// seeded random order, are dealt out like cards, so groups differ in size by at most one and are
// not runs of neighbouring columns.
std::vector<std::uint32_t> tie_group_of_dimensions(std::uint32_t dimensions, std::uint32_t groups, std::uint64_t seed) {
  std::vector<std::uint32_t> group(dimensions, 0);
  if (groups == 1) return group;
  std::vector<std::uint32_t> order(dimensions);
  std::iota(order.begin(), order.end(), 0u);
  SeededRandom random(derive_seed(seed, group_stream));
  for (std::uint32_t i = dimensions - 1; i > 0; --i) std::swap(order[i], order[random.below(i + 1)]);
  for (std::uint32_t k = 0; k < dimensions; ++k) group[order[k]] = k % groups;
  return group;
}

// A seeded random choice of `count` of `total` items (all of them when count == total).
std::vector<bool> random_subset(std::uint64_t total, std::uint64_t count, std::uint64_t seed) {
  if (count == total) return std::vector<bool>(total, true);
  std::vector<std::uint64_t> order(total);
  std::iota(order.begin(), order.end(), std::uint64_t{0});
  SeededRandom random(seed);
  for (std::uint64_t i = 0; i < count; ++i)  // partial Fisher-Yates: the first `count` are a random subset
    std::swap(order[i], order[i + random.below(total - i)]);
  std::vector<bool> chosen(total, false);
  for (std::uint64_t i = 0; i < count; ++i) chosen[order[i]] = true;
  return chosen;
}

// Replaces every value by its integer level (see IntegerGrid). `in_cluster(p, j)` tells the cells
// a hidden cluster wrote.
template <class InCluster>
void snap_to_grid(Matrix& values, const IntegerGrid& grid, std::uint64_t seed, InCluster&& in_cluster) {
  std::vector<double> cumulative(grid.levels);
  double total = 0;
  for (std::uint32_t l = 0; l < grid.levels; ++l)
    cumulative[l] = total += std::pow(static_cast<double>(l) + 1.0, -grid.skew);
  const auto top = static_cast<double>(grid.levels - 1);
  auto level_of = [&](double u, bool skewed) {
    if (!skewed) return std::min(std::floor(u * grid.levels), top);
    const auto at = std::upper_bound(cumulative.begin(), cumulative.end(), u * total) - cumulative.begin();
    return std::min(static_cast<double>(at), top);
  };
  const auto dimensions = static_cast<std::uint32_t>(values.cols());
  const std::vector<std::uint32_t> group_of = tie_group_of_dimensions(dimensions, grid.groups, seed);
  const std::vector<bool> skewed = random_subset(
      dimensions, grid.skewed_dimensions == 0 ? dimensions : grid.skewed_dimensions, derive_seed(seed, skewed_stream));
  const auto points = static_cast<std::uint64_t>(values.rows());
  const std::vector<bool> prone =
      random_subset(points, static_cast<std::uint64_t>(std::llround(grid.skewed_points * static_cast<double>(points))),
                    derive_seed(seed, prone_stream));
  SeededRandom random(derive_seed(seed, grid_stream));
  // A point's own draw per tie group, drawn point by point (with one group, as many draws as points).
  std::vector<double> own(static_cast<std::size_t>(values.rows()) * grid.groups);
  for (auto& u : own) u = random.uniform01();
  for (Eigen::Index j = 0; j < values.cols(); ++j)
    for (Eigen::Index i = 0; i < values.rows(); ++i) {
      const bool shared = random.uniform01() < grid.correlation;
      const double u = random.uniform01();
      double& v = values(i, j);
      if (in_cluster(i, j))
        v = std::min(std::floor(v * grid.levels), top);
      else
        v = level_of(
            shared ? own[static_cast<std::size_t>(i) * grid.groups + group_of[static_cast<std::size_t>(j)]] : u,
            skewed[static_cast<std::size_t>(j)] && prone[static_cast<std::size_t>(i)]);
    }
}

}  // namespace

GeneratedData generate(const GeneratorConfig& config) {
  const std::uint64_t n = config.points;
  const std::uint32_t d = config.dimensions;
  if (n == 0 || d == 0) throw UsageError("the generator needs at least one point and one dimension");
  if (n > io::max_points) throw UsageError("the generator makes at most 2^32 - 1 points (the input limit)");
  check_grid(config.grid, d);
  std::uint64_t clustered = 0;
  for (std::size_t c = 0; c < config.clusters.size(); ++c) {
    const HiddenCluster& cluster = config.clusters[c];
    const std::string name = "hidden cluster " + std::to_string(c + 1);
    if (cluster.dimensions.empty()) throw UsageError(name + " has no dimensions");
    if (!std::is_sorted(cluster.dimensions.begin(), cluster.dimensions.end()) ||
        std::adjacent_find(cluster.dimensions.begin(), cluster.dimensions.end()) != cluster.dimensions.end() ||
        cluster.dimensions.back() >= d)
      throw UsageError(name + ": dimensions must be ascending, distinct and below " + std::to_string(d));
    if (cluster.size == 0) throw UsageError(name + " has no points");
    if (!(cluster.width > 0.0 && cluster.width <= 1.0)) throw UsageError(name + ": width must be in (0, 1]");
    clustered += cluster.size;
  }
  if (clustered > n)
    throw UsageError("the hidden clusters hold " + std::to_string(clustered) + " points, more than the " +
                     std::to_string(n) + " points asked for");

  SeededRandom layout(derive_seed(config.seed, layout_stream));
  SeededRandom values(derive_seed(config.seed, value_stream));
  GeneratedData out;
  Dataset& dataset = out.dataset;
  const auto rows = static_cast<Eigen::Index>(n);
  dataset.values.resize(rows, static_cast<Eigen::Index>(d));
  // Background: every cell uniform in [0, 1); cluster cells are overwritten below.
  for (Eigen::Index j = 0; j < static_cast<Eigen::Index>(d); ++j)
    for (Eigen::Index i = 0; i < rows; ++i) dataset.values(i, j) = values.uniform01();

  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  for (std::uint64_t i = n - 1; i > 0; --i) std::swap(order[i], order[layout.below(i + 1)]);

  dataset.labels.assign(n, -1);
  std::uint64_t next = 0;
  for (std::size_t c = 0; c < config.clusters.size(); ++c) {
    const HiddenCluster& cluster = config.clusters[c];
    SubspaceCluster truth;
    truth.dimensions = cluster.dimensions;
    truth.points.assign(order.begin() + static_cast<std::ptrdiff_t>(next),
                        order.begin() + static_cast<std::ptrdiff_t>(next + cluster.size));
    next += cluster.size;
    std::sort(truth.points.begin(), truth.points.end());
    for (std::uint32_t p : truth.points) dataset.labels[p] = static_cast<std::int64_t>(c);
    for (std::uint32_t dim : cluster.dimensions) {
      // The interval [low, low + width) lies inside [0, 1).
      const double low = layout.uniform01() * (1.0 - cluster.width);
      for (std::uint32_t p : truth.points) dataset.values(p, dim) = low + cluster.width * values.uniform01();
    }
    out.truth.push_back(std::move(truth));
  }
  if (config.grid.levels > 0)
    snap_to_grid(dataset.values, config.grid, config.seed, [&](Eigen::Index i, Eigen::Index j) {
      const std::int64_t label = dataset.labels[static_cast<std::size_t>(i)];
      if (label < 0) return false;
      const auto& dims = config.clusters[static_cast<std::size_t>(label)].dimensions;
      return std::binary_search(dims.begin(), dims.end(), static_cast<std::uint32_t>(j));
    });
  return out;
}

}  // namespace subscale::datasets
