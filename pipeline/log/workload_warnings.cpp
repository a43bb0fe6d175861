#include "pipeline/log/workload_warnings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pipeline/log/log_format.hpp"

namespace subscale::pipeline {

template <class T>
std::vector<std::string> workload_warnings(const ColumnMatrix<T>& values, bool ties_kept_out) {
  std::vector<std::string> warnings;
  std::vector<Eigen::Index> constant;
  for (Eigen::Index j = 0; j < values.cols() && !ties_kept_out; ++j) {
    const auto column = values.col(j);
    if (values.rows() > 1 && (column.array() == column(0)).all()) constant.push_back(j);
  }
  if (!constant.empty()) {
    std::string list;
    for (std::size_t i = 0; i < constant.size() && i < 10; ++i) list += (i ? ", " : "") + std::to_string(constant[i]);
    if (constant.size() > 10) list += ", ...";
    const bool one = constant.size() == 1;
    warnings.push_back("warning: " + counted(constant.size(), "column") + (one ? " holds" : " hold") +
                       " a single value (" + list +
                       "; 0-based): every point is dense in such a column, which "
                       "multiplies the work about a hundredfold per column; drop " +
                       (one ? "it" : "them") + " from the input");
  }
  return warnings;
}

template std::vector<std::string> workload_warnings(const Matrix&, bool);
template std::vector<std::string> workload_warnings(const Matrix32&, bool);

std::vector<std::string> workload_warnings(const HeldValues& held, bool ties_kept_out) {
  return held.visit([&](const auto& values) { return workload_warnings(values, ties_kept_out); });
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
  std::snprintf(sample, sizeof sample, "%.0f %s walked in %.3f s", sampled_units, sampled_units == 1 ? "unit" : "units",
                sample_seconds);
  estimate.text = std::string("estimated time of the core on the CPU: ") + (estimate.known ? "about " : "at most ") +
                  duration_text(estimate.seconds) + " (from a sample of " + sample + ")";
  if (estimate.warn)
    estimate.text =
        "warning: " + estimate.text +
        "; past an hour: lower epsilon or raise min_points, or mind the warnings above, if that is not meant";
  return estimate;
}

}  // namespace subscale::pipeline
