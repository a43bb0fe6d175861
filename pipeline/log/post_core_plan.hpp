#pragma once
// What `plan` can say about merge and consolidation before the core has run. Their work depends
// on the subspaces the core finds (how many, how many points each), which only the run knows; the
// plan knows the sample's subspaces and the estimated units in two or more dimensions, and from
// them gives bounds, labelled as bounds.
#include <cstdint>
#include <string>

namespace subscale::pipeline {

struct PostCoreInputs {
  std::uint64_t points = 0;               // n
  std::uint32_t min_points = 0;           // the core's: a unit brings at most this many points
  std::uint32_t merge_min_points = 0;     // a merge cluster holds at least this many points
  std::uint64_t subspaces_at_least = 0;   // found in the plan's sample of windows
  std::uint64_t subspaces_at_most = 0;    // the memory plan's bound
  double multi_units = 0;                 // estimated units in >= 2 dimensions
  bool exact = false;                     // the sample was the whole walk
  bool merge = true, consolidate = true;  // the stages the config runs
  // With the significance test: the dimensions a dense unit holds by chance (planned units over
  // C(n, min_points)); over one, the run pools the subspaces into pairs of dimensions before merge.
  bool significance = false;
  double chance_dimensions = 0;
  std::uint32_t dimensions = 0;      // d: at most d (d - 1) / 2 pairs
  std::uint64_t pooling_budget = 0;  // additions over which nothing is pooled
};

// The lines `plan` prints for merge and consolidation (each ends with a newline); empty when
// merge does not run.
std::string post_core_plan_text(const PostCoreInputs& in);

}  // namespace subscale::pipeline
