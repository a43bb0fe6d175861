#pragma once
// What discovery on a sample did (pipeline/steps/sampling.hpp), for the log, summary.json and plan.
#include <cstdint>
#include <string>
#include <vector>

namespace subscale::pipeline {

struct SampleReport {
  std::uint64_t points = 0;  // in the sample
  std::uint64_t of = 0;      // in the whole input
  std::uint64_t seed = 0;
  std::vector<std::uint32_t> rows;   // the sample's points, ascending (positions in the held values)
  std::string reason;                // why the run took a sample
  std::uint64_t clusters_found = 0;  // on the sample, before the test on every point
  std::uint64_t clusters_kept = 0;   // significant on every point, distinct
  std::uint64_t memberships = 0;     // (point, cluster) pairs over the whole input
  // Per cluster of the run (kept on every point, in the run's order): the sample's points it was
  // found with (rows of the held values, ascending), the points its membership was decided by.
  std::vector<std::vector<std::uint32_t>> found_points;
  double seconds_membership = 0;
};

// The unit budget, not the data's spacing, set epsilon or min_points (even on a sample, or with
// sampling off): clusters may shatter, and an empty result may be the budget's, not the test's.
struct BudgetLimit {
  bool limited = false;
  std::string note;  // what was limited and what to do
};

}  // namespace subscale::pipeline
