#pragma once
// Warnings said before the work starts, for input that makes it explode: a column that holds one
// value (every point is dense in it: the work grows about a hundredfold per such column), and a
// time estimate past an hour. With significance on, a value held by most points is kept out of the
// core's work (docs/significance.md), so constant columns are no warning then. Parameters alone
// (an epsilon of 1 or more) are no warning: on a few hundred points such a run ends in moments, so
// whether a run ends in time is judged from its measured rate (core_time_guard.hpp).
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "common/held_values.hpp"

namespace subscale::pipeline {

template <class T>
std::vector<std::string> workload_warnings(const ColumnMatrix<T>& values, bool ties_kept_out = false);
std::vector<std::string> workload_warnings(const HeldValues& held, bool ties_kept_out = false);

// "about 3 h 20 min (from 416337 units walked in 0.42 s)", from a sampled rate: `sampled_units`
// took `sample_seconds`, and the run has `total_units`. Empty when the sample was too quick to time.
struct TimeEstimate {
  double seconds = 0;
  bool known = false;
  std::string text;   // the line for the log and for plan
  bool warn = false;  // past an hour
};
TimeEstimate estimate_time(double total_units, double sampled_units, double sample_seconds);

}  // namespace subscale::pipeline
