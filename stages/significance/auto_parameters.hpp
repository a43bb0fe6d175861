#pragma once
// epsilon and min_points chosen from the data (`epsilon: auto`, `min_points: auto`).
//
// epsilon: the 1-D radius at which a typical point's window holds w points, w = the larger of
// `window_points` and `window_share` of the points: the 60th percentile (`span_quantile`), over
// every dimension and sorted position, of the span of w consecutive values. Not the median: where
// clusters hold most of a dimension's points, as in many benchmark sets, the median span is their
// own tight spacing, 2-3x below the rest, and a cluster of a few percent of the points in three
// dimensions then has too few units whose points are close in all three; on data whose points are
// spread more evenly the two differ by about 10%. Spans of zero (inside a tie group: a window
// always holds its whole tie group whatever epsilon is) and the values of background groups
// (heavy_ties.hpp) are left out. Of the spans within rounding of the chosen one the smallest is
// taken: on integer levels that is the level gap's smallest floating-point value, so no two
// adjacent levels are within epsilon, whatever the rounding of their values.
// So epsilon follows the data's own spacing (the level gap on integer-level data, wider where a
// dimension is sparse) on small data, and stays put as the same distribution is sampled with more
// points: a cluster that holds a share of the points is then found at the same radius. (A fixed w
// made epsilon shrink as 1/n, and the chance that a unit's points also lie within epsilon in the
// cluster's other dimensions with it: clusters of 10% of 3,000-6,000 points in 8-15 dimensions
// were lost.)
// min_points: the largest m in [2, 4] whose dense units (sum over windows of C(w - 1, m - 1), what
// `plan` counts) stay within `unit_budget` on the values the core reads. A window of w tied points
// holds C(w - 1, m - 1) units: on tie-heavy data a smaller m is what keeps the core tractable.
// When even m = 2 exceeds the budget with epsilon auto, epsilon is halved until it fits. Where m
// falls below 3 the reason says which tie group makes units of three too many.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "stages/significance/resolution.hpp"

namespace subscale::significance {

struct AutoRequest {
  std::optional<double> epsilon;            // given: kept; absent: chosen
  std::optional<std::uint32_t> min_points;  // likewise
  std::uint32_t window_points = 8;          // at least
  double window_share = 0.005;              // of the points, when that is more
  double span_quantile = 0.6;               // of the spans of w consecutive values
  double unit_budget = 2e8;
  double background_mass = 0.5;  // values shared by more than this share are left out (heavy_ties.hpp)
  // Columns on integer levels (resolution.hpp): epsilon read on their values spread over their
  // gaps, and each given the reach in levels that its scale makes hold; the units are counted on
  // the scaled values the core reads. The reach of merge needs its radius: merge_epsilon where
  // given, else merge_factor * epsilon.
  bool levels = false;
  std::optional<double> merge_epsilon;
  double merge_factor = 4.0;
  // Repeated columns (dedup.hpp) counted once, as the search reads them.
  bool fold_repeats = false;
};

struct AutoChoice {
  double epsilon = 0;
  std::uint32_t min_points = 0;
  double dense_units = 0;  // planned at the chosen values, on the core's values
  // The unit budget, not the data's spacing, set a value: min_points below 3 or epsilon halved.
  // Clusters may then shatter; the run finds them on a sample instead (pipeline/steps/sampling.hpp).
  bool budget_limited = false;
  bool epsilon_halved = false;  // of those: epsilon itself halved below the data's spacing
  std::uint32_t halvings = 0;   // how many times
  std::string epsilon_reason, min_points_reason;
  std::vector<LevelReach> levels;  // per column of `values` on a grid (with `levels`), ascending
  std::string levels_reason;       // empty without levels
  std::size_t folded_columns = 0;  // repeats left out of the counts (with `fold_repeats`)
};

// `values`: the normalised values as held (before background ties are spread).
template <class T>
AutoChoice choose_core_parameters(const ColumnMatrix<T>& values, const AutoRequest& request);

// w above for n points.
std::uint32_t window_for(const AutoRequest& request, std::size_t points);

// The `quantile` of the spans of `window_points` consecutive values (see above); 1 when there is
// none.
template <class T>
double window_span_quantile(const ColumnMatrix<T>& values, std::uint32_t window_points, double quantile,
                            double background_mass);

// Sum over every dimension and window of C(w - 1, m - 1) with strict windows x[h] - x[i] < epsilon,
// values of background groups not counted (the core's copy moves them apart). As a double: an
// estimate that cannot overflow.
template <class T>
double planned_units(const ColumnMatrix<T>& values, double epsilon, std::uint32_t min_points, double background_mass);

}  // namespace subscale::significance
