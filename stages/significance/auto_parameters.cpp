#include "stages/significance/auto_parameters.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <vector>

#include "stages/dedup/dedup.hpp"
#include "stages/significance/binomial_tail.hpp"

namespace subscale::significance {
namespace {

// One column sorted, without the values of groups over the background share.
template <class T>
std::vector<T> foreground(const T* column, std::size_t n, double background_mass) {
  std::vector<T> sorted(column, column + n);
  std::sort(sorted.begin(), sorted.end());
  std::vector<T> kept;
  kept.reserve(n);
  const double limit = background_mass * static_cast<double>(n);
  for (std::size_t first = 0; first < n;) {
    std::size_t last = first + 1;
    while (last < n && sorted[last] == sorted[first]) ++last;
    if (static_cast<double>(last - first) <= limit)
      kept.insert(kept.end(), sorted.begin() + first, sorted.begin() + last);
    first = last;
  }
  return kept;
}

template <class T>
std::vector<std::vector<T>> foreground_columns(const ColumnMatrix<T>& values, double background_mass) {
  std::vector<std::vector<T>> columns(static_cast<std::size_t>(values.cols()));
  tbb::parallel_for(std::size_t{0}, columns.size(), [&](std::size_t j) {
    columns[j] = foreground(values.col(static_cast<Eigen::Index>(j)).data(), static_cast<std::size_t>(values.rows()),
                            background_mass);
  });
  return columns;
}

template <class T>
double units_of(const std::vector<std::vector<T>>& columns, double epsilon, std::uint32_t m) {
  const T eps = static_cast<T>(epsilon);
  // Each column's count on its own thread, summed in column order: the same total on any threads.
  std::vector<double> per_column(columns.size(), 0.0);
  tbb::parallel_for(std::size_t{0}, columns.size(), [&](std::size_t j) {
    const auto& c = columns[j];
    double total = 0;
    std::size_t h = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      h = std::max(h, i + 1);
      while (h < c.size() && c[h] - c[i] < eps) ++h;
      const auto w = static_cast<std::uint64_t>(h - i);
      if (w >= m) total += std::exp(log_choose(w - 1, m - 1));
    }
    per_column[j] = total;
  });
  double total = 0;
  for (const double t : per_column) total += t;
  return total;
}

// 0.6 -> "60th": the quantiles used are whole percents from 10 to 90, where "th" is always right.
std::string percentile_name(double quantile) {
  return std::to_string(static_cast<int>(std::lround(quantile * 100))) + "th";
}

std::string format_units(double units) {
  std::ostringstream out;
  out.precision(3);
  out << units;
  return out.str();
}

}  // namespace

std::uint32_t window_for(const AutoRequest& request, std::size_t points) {
  const double share = std::ceil(request.window_share * static_cast<double>(points));
  return std::max(request.window_points, static_cast<std::uint32_t>(std::min(share, 1e9)));
}

namespace {

// The smallest span within rounding of `chosen`. On integer levels the chosen span is a level gap,
// which floating point computes as several values an ulp or two apart ((l + 1) / 59 - l / 59
// depends on l); taking one of them made the strict window test |x - y| < epsilon hold for some
// pairs of adjacent levels and not for others, by the rounding of their values. With the smallest,
// no two adjacent levels are ever within epsilon, as exact arithmetic says.
template <class T>
double smallest_of_the_same(const std::vector<double>& spans, double chosen, T largest_value) {
  const double rounding =
      4.0 * static_cast<double>(std::numeric_limits<T>::epsilon()) * static_cast<double>(largest_value);
  double smallest = chosen;
  for (const double span : spans)
    if (span < smallest && chosen - span <= rounding) smallest = span;
  return smallest;
}

}  // namespace

namespace {

// The quantile of the spans of `window_points` consecutive values, the columns on a grid (where
// `grids` says so) read with their points spread over their gaps (resolution.hpp).
template <class T>
double span_quantile_of(const std::vector<std::vector<T>>& columns, const std::vector<ColumnGrid>& grids,
                        std::uint32_t window_points, double quantile) {
  std::vector<double> spans;
  T largest = 0;
  for (std::size_t j = 0; j < columns.size(); ++j) {
    const auto& c = columns[j];
    if (!c.empty()) largest = std::max({largest, std::abs(c.front()), std::abs(c.back())});
    if (j < grids.size() && grids[j].on_grid()) {
      const auto spread = spread_over_gap(std::vector<double>(c.begin(), c.end()), grids[j].gap);
      for (std::size_t i = 0; i + window_points <= spread.size(); ++i) {
        const double span = spread[i + window_points - 1] - spread[i];
        if (span > 0) spans.push_back(span);
      }
      continue;
    }
    for (std::size_t i = 0; i + window_points <= c.size(); ++i) {
      const double span = static_cast<double>(c[i + window_points - 1] - c[i]);
      if (span > 0) spans.push_back(span);
    }
  }
  if (spans.empty()) return 1.0;
  const auto rank = std::min(spans.size() - 1, static_cast<std::size_t>(quantile * static_cast<double>(spans.size())));
  const auto at = spans.begin() + static_cast<std::ptrdiff_t>(rank);
  std::nth_element(spans.begin(), at, spans.end());
  return smallest_of_the_same(spans, *at, largest);
}

}  // namespace

template <class T>
double window_span_quantile(const ColumnMatrix<T>& values, std::uint32_t window_points, double quantile,
                            double background_mass) {
  return span_quantile_of(foreground_columns(values, background_mass), {}, window_points, quantile);
}

template <class T>
double planned_units(const ColumnMatrix<T>& values, double epsilon, std::uint32_t min_points, double background_mass) {
  return units_of(foreground_columns(values, background_mass), epsilon, min_points);
}

namespace {

// Each column's reach at epsilon (columns on a grid only; see resolution.hpp).
std::vector<LevelReach> reaches_at(const std::vector<ColumnGrid>& grids, double epsilon, double merge_epsilon) {
  std::vector<LevelReach> reaches;
  for (std::uint32_t j = 0; j < grids.size(); ++j)
    if (grids[j].on_grid()) reaches.push_back(reach_for(j, epsilon, merge_epsilon, grids[j].gap));
  return reaches;
}

// The sorted foreground columns as the core reads them: scaled where a reach is given (scaling by a
// positive factor keeps the order and the tie groups), in T as resolution.hpp's `scaled` rounds.
template <class T>
std::vector<std::vector<T>> core_columns(const std::vector<std::vector<T>>& columns,
                                         const std::vector<LevelReach>& reaches, const std::vector<ColumnGrid>& grids,
                                         double epsilon) {
  if (reaches.empty()) return columns;
  auto out = columns;
  const ColumnScales scales = scales_for(reaches, grids, epsilon, epsilon);
  for (std::size_t j = 0; j < out.size(); ++j)
    if (scales.core[j] != 1.0)
      for (T& v : out[j]) v = static_cast<T>(static_cast<double>(v) * scales.core[j]);
  return out;
}

std::string gap_text(double gap) {
  std::ostringstream out;
  out.precision(4);
  out << gap;
  return out.str();
}

// "200 levels in 50 dimensions (epsilon 0.97 of a gap): the core links adjacent levels, merge up to
// 3 levels apart; ..." grouped by grid and reach, the largest groups first.
std::string levels_reason_of(const std::vector<LevelReach>& reaches, const std::vector<ColumnGrid>& grids,
                             double epsilon, std::size_t columns) {
  struct Group {
    std::uint32_t levels, core, search;
    double share;
    std::size_t count;
  };
  std::vector<Group> groups;
  for (const auto& r : reaches) {
    const auto& grid = grids[r.dimension];
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.levels == grid.levels && g.core == r.core && g.search == r.search;
    });
    if (it == groups.end())
      groups.push_back({grid.levels, r.core, r.search, epsilon / grid.gap, 1});
    else
      ++it->count;
  }
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.count > b.count; });
  std::ostringstream out;
  out << reaches.size() << " of " << columns << " dimensions on integer levels; ";
  for (std::size_t i = 0; i < groups.size() && i < 4; ++i) {
    const Group& g = groups[i];
    out << (i ? "; " : "") << g.levels << " levels in " << g.count << " (epsilon " << gap_text(g.share)
        << " of a gap): the core links " << reach_text(g.core) << ", merge " << reach_text(g.search);
  }
  if (groups.size() > 4) out << "; and " << groups.size() - 4 << " more kinds";
  out << " (the core reaches the next level where epsilon is a third of a gap or more, so that a cluster spanning"
         " a few levels does not break into its levels; merge reaches the levels within its radius)";
  return out.str();
}

// Why units of three do not fit: the column with the most of them and its largest tie group.
template <class T>
std::string why_not_three(const std::vector<std::vector<T>>& columns, double epsilon, double budget,
                          std::size_t points) {
  std::vector<std::vector<T>> one(1);
  double worst = -1, total = 0;
  std::size_t worst_column = 0;
  for (std::size_t j = 0; j < columns.size(); ++j) {
    one[0] = columns[j];
    const double units = units_of(one, epsilon, 3);
    total += units;
    if (units > worst) worst = units, worst_column = j;
  }
  const auto& c = columns[worst_column];
  std::size_t largest = 0;
  for (std::size_t first = 0; first < c.size();) {
    std::size_t last = first + 1;
    while (last < c.size() && c[last] == c[first]) ++last;
    largest = std::max(largest, last - first);
    first = last;
  }
  std::ostringstream out;
  out.precision(3);
  out << "3 would make " << total << " dense units, over the budget of " << budget << "; dimension " << worst_column
      << " alone makes " << worst;
  if (largest >= 3)
    out << ", as its most common value holds " << largest << " of the " << points << " points ("
        << 100.0 * static_cast<double>(largest) / static_cast<double>(points)
        << "%) and every 3 of them are a unit: ties this heavy allow units of two only, and a cluster is then "
           "found from its pairs (pooled, docs/significance.md)";
  return out.str();
}

}  // namespace

template <class T>
AutoChoice choose_core_parameters(const ColumnMatrix<T>& given, const AutoRequest& request) {
  AutoChoice choice;
  // Repeated columns count once, as the search reads them: a copy doubles the units of its column.
  dedup::ColumnFolding folding;
  std::optional<ColumnMatrix<T>> folded;
  if (request.fold_repeats) {
    folding = dedup::find_repeated_columns(given);
    if (folding.any()) folded = dedup::keep_columns(given, folding);
    choice.folded_columns = folding.folded_away();
  }
  const ColumnMatrix<T>& values = folded ? *folded : given;
  const auto columns = foreground_columns(values, request.background_mass);
  const std::vector<ColumnGrid> grids =
      request.levels ? grids_of(values) : std::vector<ColumnGrid>(static_cast<std::size_t>(values.cols()));
  const std::size_t on_grid =
      static_cast<std::size_t>(std::count_if(grids.begin(), grids.end(), [](const auto& g) { return g.on_grid(); }));
  if (request.epsilon) {
    choice.epsilon = *request.epsilon;
    choice.epsilon_reason = "given";
  } else {
    const std::uint32_t window = window_for(request, static_cast<std::size_t>(values.rows()));
    choice.epsilon = span_quantile_of(columns, grids, window, request.span_quantile);
    choice.epsilon_reason = "the " + percentile_name(request.span_quantile) + " percentile of the spans of " +
                            std::to_string(window) + " consecutive values in a dimension (" +
                            (window > request.window_points ? "a share of the points" : "the fewest") +
                            "; ties and background values left out" +
                            (on_grid ? "; the " + std::to_string(on_grid) +
                                           " dimensions on integer levels read with each level's points spread "
                                           "evenly over its gap, as the continuous values they round"
                                     : std::string()) +
                            ")";
  }
  std::vector<LevelReach> reaches;
  std::vector<std::vector<T>> core = columns;
  const auto place = [&] {  // the reaches and the core's columns at the current epsilon
    if (!on_grid) return;
    reaches = reaches_at(grids, choice.epsilon,
                         request.merge_epsilon ? *request.merge_epsilon : request.merge_factor * choice.epsilon);
    core = core_columns(columns, reaches, grids, choice.epsilon);
  };
  const auto finish = [&] {
    if (!on_grid) return;
    choice.levels_reason = levels_reason_of(reaches, grids, choice.epsilon, static_cast<std::size_t>(values.cols()));
    // Back to the columns of the input: a repeat has its first's reach.
    for (std::uint32_t c = 0; c < static_cast<std::uint32_t>(given.cols()); ++c) {
      const std::uint32_t f = folding.any() ? folding.folded_of[c] : c;
      const auto it = std::find_if(reaches.begin(), reaches.end(), [&](const auto& r) { return r.dimension == f; });
      if (it != reaches.end()) choice.levels.push_back({c, it->core, it->search});
    }
  };
  place();
  const auto fits = [&](std::uint32_t m) {
    choice.dense_units = units_of(core, choice.epsilon, m);
    return choice.dense_units <= request.unit_budget;
  };
  if (request.min_points) {
    choice.min_points = *request.min_points;
    choice.dense_units = units_of(core, choice.epsilon, choice.min_points);
    choice.min_points_reason = "given";
    finish();
    return choice;
  }
  const std::string budget = format_units(request.unit_budget);
  for (std::uint32_t m = 4; m >= 2; --m)
    if (fits(m)) {
      choice.min_points = m;
      choice.budget_limited = m < 3;
      choice.min_points_reason =
          m == 4
              ? "4 points a unit: " + format_units(choice.dense_units) + " dense units, within the budget of " + budget
          : m == 3
              ? "the largest m in [2, 4] with dense units (" + format_units(choice.dense_units) +
                    ") within the budget of " + budget + " (tie groups make larger units too many)"
              : "2, the largest m in [2, 4] with dense units (" + format_units(choice.dense_units) +
                    ") within the budget: " +
                    why_not_three(core, choice.epsilon, request.unit_budget, static_cast<std::size_t>(values.rows()));
      finish();
      return choice;
    }
  choice.min_points = 2;
  choice.budget_limited = true;
  const std::string not_three =
      why_not_three(core, choice.epsilon, request.unit_budget, static_cast<std::size_t>(values.rows()));
  if (!request.epsilon) {
    while (!fits(2) && choice.epsilon > 1e-9) {
      choice.epsilon /= 2;
      choice.epsilon_halved = true;
      ++choice.halvings;
      place();
    }
    choice.epsilon_reason += ", halved until the dense units fit the budget of " + budget;
  } else {
    fits(2);
  }
  choice.min_points_reason = "2: the smallest unit; " + format_units(choice.dense_units) + " dense units (budget " +
                             budget + "); at the data's spacing " + not_three;
  finish();
  return choice;
}

template AutoChoice choose_core_parameters(const ColumnMatrix<float>&, const AutoRequest&);
template AutoChoice choose_core_parameters(const ColumnMatrix<double>&, const AutoRequest&);
template double window_span_quantile(const ColumnMatrix<float>&, std::uint32_t, double, double);
template double window_span_quantile(const ColumnMatrix<double>&, std::uint32_t, double, double);
template double planned_units(const ColumnMatrix<float>&, double, std::uint32_t, double);
template double planned_units(const ColumnMatrix<double>&, double, std::uint32_t, double);

}  // namespace subscale::significance
