#include "stages/significance/auto_parameters.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

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
  double total = 0;
  for (const auto& c : columns) {
    std::size_t h = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      h = std::max(h, i + 1);
      while (h < c.size() && c[h] - c[i] < eps) ++h;
      const auto w = static_cast<std::uint64_t>(h - i);
      if (w >= m) total += std::exp(log_choose(w - 1, m - 1));
    }
  }
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

template <class T>
double window_span_quantile(const ColumnMatrix<T>& values, std::uint32_t window_points, double quantile,
                            double background_mass) {
  std::vector<double> spans;
  T largest = 0;
  for (const auto& c : foreground_columns(values, background_mass)) {
    if (!c.empty()) largest = std::max({largest, std::abs(c.front()), std::abs(c.back())});
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

template <class T>
double planned_units(const ColumnMatrix<T>& values, double epsilon, std::uint32_t min_points, double background_mass) {
  return units_of(foreground_columns(values, background_mass), epsilon, min_points);
}

template <class T>
AutoChoice choose_core_parameters(const ColumnMatrix<T>& values, const AutoRequest& request) {
  AutoChoice choice;
  const auto columns = foreground_columns(values, request.background_mass);
  if (request.epsilon) {
    choice.epsilon = *request.epsilon;
    choice.epsilon_reason = "given";
  } else {
    const std::uint32_t window = window_for(request, static_cast<std::size_t>(values.rows()));
    choice.epsilon = window_span_quantile(values, window, request.span_quantile, request.background_mass);
    choice.epsilon_reason = "the " + percentile_name(request.span_quantile) + " percentile of the spans of " +
                            std::to_string(window) + " consecutive values in a dimension (" +
                            (window > request.window_points ? "a share of the points" : "the fewest") +
                            "; ties and background values left out)";
  }
  const auto fits = [&](std::uint32_t m) {
    choice.dense_units = units_of(columns, choice.epsilon, m);
    return choice.dense_units <= request.unit_budget;
  };
  if (request.min_points) {
    choice.min_points = *request.min_points;
    choice.dense_units = units_of(columns, choice.epsilon, choice.min_points);
    choice.min_points_reason = "given";
    return choice;
  }
  const std::string budget = format_units(request.unit_budget);
  for (std::uint32_t m = 4; m >= 2; --m)
    if (fits(m)) {
      choice.min_points = m;
      choice.min_points_reason =
          m == 4
              ? "4 points a unit: " + format_units(choice.dense_units) + " dense units, within the budget of " + budget
              : "the largest m in [2, 4] with dense units (" + format_units(choice.dense_units) +
                    ") within the budget of " + budget + " (tie groups make larger units too many)";
      return choice;
    }
  choice.min_points = 2;
  if (!request.epsilon) {
    while (!fits(2) && choice.epsilon > 1e-9) choice.epsilon /= 2;
    choice.epsilon_reason += ", halved until the dense units fit the budget of " + budget;
  } else {
    fits(2);
  }
  choice.min_points_reason =
      "2: the smallest unit; " + format_units(choice.dense_units) + " dense units (budget " + budget + ")";
  return choice;
}

template AutoChoice choose_core_parameters(const ColumnMatrix<float>&, const AutoRequest&);
template AutoChoice choose_core_parameters(const ColumnMatrix<double>&, const AutoRequest&);
template double window_span_quantile(const ColumnMatrix<float>&, std::uint32_t, double, double);
template double window_span_quantile(const ColumnMatrix<double>&, std::uint32_t, double, double);
template double planned_units(const ColumnMatrix<float>&, double, std::uint32_t, double);
template double planned_units(const ColumnMatrix<double>&, double, std::uint32_t, double);

}  // namespace subscale::significance
