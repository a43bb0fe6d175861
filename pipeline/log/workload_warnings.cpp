#include "pipeline/log/workload_warnings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace subscale::pipeline {
namespace {

std::string duration_text(double seconds) {
  char text[64];
  if (seconds < 60)
    std::snprintf(text, sizeof text, "%.0f s", std::max(1.0, seconds));
  else if (seconds < 3600)
    std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
  else if (seconds < 48 * 3600)
    std::snprintf(text, sizeof text, "%.0f h %.0f min", std::floor(seconds / 3600), std::fmod(seconds, 3600) / 60);
  else
    std::snprintf(text, sizeof text, "%.0f days", seconds / 86400);
  return text;
}

}  // namespace

template <class T>
std::vector<std::string> workload_warnings(const ColumnMatrix<T>& values, double epsilon, bool normalized,
                                           bool ties_kept_out) {
  std::vector<std::string> warnings;
  if (normalized && epsilon >= 1)
    warnings.push_back("warning: epsilon " + std::to_string(epsilon) +
                       " is 1 or more on data normalised to [0, 1]: every point is within epsilon of every other "
                       "in every dimension, so every subset of points is dense; the run will not finish. Use an "
                       "epsilon well below 1 (the quickstart uses 0.004)");
  std::vector<Eigen::Index> constant;
  for (Eigen::Index j = 0; j < values.cols() && !ties_kept_out; ++j) {
    const auto column = values.col(j);
    if (values.rows() > 1 && (column.array() == column(0)).all()) constant.push_back(j);
  }
  if (!constant.empty()) {
    std::string list;
    for (std::size_t i = 0; i < constant.size() && i < 10; ++i) list += (i ? ", " : "") + std::to_string(constant[i]);
    if (constant.size() > 10) list += ", ...";
    warnings.push_back("warning: " + std::to_string(constant.size()) + " column(s) hold a single value (" + list +
                       "; 0-based): every point is dense in such a column, which multiplies the work about "
                       "a hundredfold per column; drop them from the input");
  }
  return warnings;
}

template std::vector<std::string> workload_warnings(const Matrix&, double, bool, bool);
template std::vector<std::string> workload_warnings(const Matrix32&, double, bool, bool);

std::vector<std::string> workload_warnings(const HeldValues& held, double epsilon, bool normalized,
                                           bool ties_kept_out) {
  return held.visit([&](const auto& values) { return workload_warnings(values, epsilon, normalized, ties_kept_out); });
}

TimeEstimate estimate_time(double total_units, double sampled_units, double sample_seconds) {
  TimeEstimate estimate;
  if (sampled_units <= 0) return estimate;
  // A sample quicker than a millisecond is timed mostly by the clock and the threads' start: it
  // bounds the time from above and warns of nothing.
  constexpr double kShortest = 1e-3;
  estimate.known = sample_seconds >= kShortest;
  estimate.seconds = std::max(sample_seconds, kShortest) * std::max(1.0, total_units / sampled_units);
  estimate.warn = estimate.known && estimate.seconds > 3600;
  char sample[96];
  std::snprintf(sample, sizeof sample, "%.0f units walked in %.3f s", sampled_units, sample_seconds);
  estimate.text = std::string("estimated time of the core on the CPU: ") + (estimate.known ? "about " : "at most ") +
                  duration_text(estimate.seconds) + " (from a sample of " + sample + ")";
  if (estimate.warn)
    estimate.text = "warning: " + estimate.text +
                    "; past an hour: raise epsilon or min_points, or mind the warnings above, if that is not meant";
  return estimate;
}

}  // namespace subscale::pipeline
