#pragma once
// Synthetic subspace data with ground truth (the kind of data SUBSCALE is built for): a uniform
// background in [0, 1]^d and hidden clusters, each dense in its own few dimensions only.
//
// A hidden cluster has a set of dimensions, a size (points) and a width: in each of its
// dimensions its points are uniform in an interval of that width (placed uniformly inside
// [0, 1]); in every other dimension they are uniform in [0, 1] like the noise. Clusters do not
// share points; points in no cluster are noise (label -1). Which point ids belong to which
// cluster is a seeded random permutation, so clusters are not contiguous blocks of rows.
//
// Deterministic: the same config and seed give the same values bit for bit on every platform
// (see seeded_random.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::datasets {

struct HiddenCluster {
  std::vector<std::uint32_t> dimensions;  // 0-based, ascending, distinct
  std::uint64_t size = 0;                 // points
  double width = 0.03;                    // side of the cluster's interval in its dimensions
};

// Tie-heavy data, as integer-valued measurements are: every value is an integer level 0 .. levels-1.
// Background cells draw their level from a Zipf law (level l with weight 1 / (l + 1)^skew, so
// level 0 is the most frequent and skew 0 is uniform); with probability `correlation` a cell
// uses its point's own draw instead of a fresh one, so a point tends to sit on the same frequent
// level in many dimensions, as the rows of real data do. Cluster cells are their continuous values
// snapped to the grid (level floor(v * levels)).
//
// Tie groups: real measurements come in correlated groups (sensors of one kind, genes of one
// pathway, sparse features that are zero together), so the same points tie in the same groups of
// dimensions. With `groups` G > 1 the dimensions are dealt into G groups (a seeded random deal,
// sizes differing by at most one) and a point has its own draw per group: a reused cell takes the
// draw of its dimension's group, so the points that tie in one dimension of a group tend to tie in
// the others of that group, and far less across groups. G = 1 is one draw per point for all
// dimensions.
struct IntegerGrid {
  std::uint32_t levels = 0;  // 0: continuous values (no grid)
  double skew = 0;
  double correlation = 0;
  std::uint32_t groups = 1;  // tie groups, 1 .. dimensions
  // Dimensions whose background draws from the skewed law (a seeded random choice); the others draw
  // their levels uniformly. 0: all dimensions. Where the ties fall decides the subspaces: a random
  // point set is dense in about units / C(n, m) dimensions whatever the law, and spread over every
  // dimension those are a different set for nearly every unit, while in a few skewed dimensions the
  // same sets recur, as in real data whose ties come from its low-cardinality features.
  std::uint32_t skewed_dimensions = 0;
  // The fraction of the points (a seeded random choice) whose cells in those dimensions draw from
  // the skewed law; the others draw uniformly there, so ties concentrate on some of the rows.
  double skewed_points = 1.0;
};

struct GeneratorConfig {
  std::uint64_t points = 0;
  std::uint32_t dimensions = 0;
  std::vector<HiddenCluster> clusters;  // sizes sum to at most `points`; the rest is noise
  std::uint64_t seed = 1;
  IntegerGrid grid;
};

struct GeneratedData {
  Dataset dataset;                     // values in [0, 1]; labels: cluster index, -1 for noise
  std::vector<SubspaceCluster> truth;  // per hidden cluster: its dimensions and sorted point ids
                                       // (io/ground_truth.hpp writes them as a .true file)
};

// UsageError when the config is inconsistent (a dimension out of range, sizes above `points`, a
// width outside (0, 1], ...).
GeneratedData generate(const GeneratorConfig& config);

// The --clusters text of subscale-generate, turned into clusters:
//   explicit: "DIMS:SIZE:WIDTH;DIMS:SIZE:WIDTH;..." where DIMS is a comma-separated list of
//             0-based dimensions; SIZE may be left empty ("0,3::0.03") to share the points that
//             the noise fraction leaves among the clusters without a size.
//   random:   "random:COUNT:DMIN-DMAX:SMIN-SMAX:WMIN-WMAX": COUNT clusters, each with a number of
//             dimensions, a size and a width drawn uniformly from the ranges (the dimensions
//             themselves drawn at random); the size range may be left empty to share the points
//             as above.
// noise_fraction, when given, fixes the noise to round(noise_fraction * points) points; it must
// agree with sizes that are all given. Without it, every size must be given and the points they
// leave are noise. Random draws come from `seed`.
std::vector<HiddenCluster> parse_cluster_spec(std::string_view spec, std::uint64_t points, std::uint32_t dimensions,
                                              std::optional<double> noise_fraction, std::uint64_t seed);

// The clusters written back in the explicit form of parse_cluster_spec (for provenance).
std::string format_cluster_spec(const std::vector<HiddenCluster>& clusters);

}  // namespace subscale::datasets
