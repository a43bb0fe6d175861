#pragma once
// What the significance test did at each step of a run (pipeline/steps/significance_steps.hpp),
// for the log, summary.json and results.h5.
#include <cstdint>
#include <vector>

#include "stages/significance/cluster_score.hpp"

namespace subscale::pipeline {

// A cluster that failed the test, kept to explain an empty result: where it lies and how far it
// fell short (its corrected p-value is 10^-score; it passes at any alpha at or above that).
struct NearMiss {
  std::vector<std::uint32_t> dimensions;
  std::uint32_t points = 0;
  significance::ClusterScore score;
  // Every subspace was skipped before merge: `points` are a subspace's and `score` only the
  // best that any cluster of them could reach (subspace_bound.hpp), not a cluster's own.
  bool best_case = false;
};

// What the test did at each step, for the log and summary.json.
struct SignificanceReport {
  std::uint32_t background_dimensions = 0;  // dimensions with a background value kept from the core
  std::uint64_t background_values = 0;      // (point, dimension) values kept from the core
  double chance_dimensions = 0;             // dimensions a dense unit holds by chance, from the core's count
  bool pooled = false;                      // chance_dimensions over the limit: pooling tried
  bool pooling_over_budget = false;
  std::uint64_t pooling_memberships = 0, pooled_pairs = 0;
  std::uint64_t subspaces_tested = 0, subspaces_skipped = 0;  // before merge: could any cluster pass?
  // ... and per group of a passing subspace's points (group_bound.hpp): the groups, those that could
  // pass, the points merge no longer reads, the subspaces (among the skipped) left with no group.
  std::uint64_t groups_tested = 0, groups_kept = 0, group_points_dropped = 0, subspaces_skipped_by_groups = 0;
  std::uint64_t merge_tested = 0, merge_kept = 0;
  std::uint64_t merge_set_aside = 0;   // of merge_tested, settled by the sieve's bound (merge_sieve.hpp)
  std::uint64_t merge_candidates = 0;  // not significant alone, passed to consolidation as possible parts
  std::uint64_t consolidated_tested = 0, consolidated_kept = 0;
  std::uint64_t repeated = 0;        // significant consolidated clusters dropped as pieces of stronger ones
  std::uint64_t denser_parts = 0;    // parts of failing merge clusters that pass (denser_parts.hpp)
  std::uint64_t denser_splits = 0;   // failing merge clusters those parts came from
  bool denser_parts_aside = false;   // the parts joined the consolidated clusters, not merge's
  std::uint64_t touching_joins = 0;  // significant pieces in one subspace joined (touching_pieces.hpp)
  std::uint64_t grown = 0;           // consolidated clusters grown in their subspace (grown_cluster.hpp)
  std::uint64_t turned = 0;          // reported clusters judged by a turned rectangle (turned_rectangle.hpp)
  std::vector<significance::ClusterScore> raw_scores;  // merge's kept clusters, in their (score) order
  std::vector<significance::ClusterScore> scores;      // the run's clusters, in their (score) order
  // When no cluster passes: the strongest candidates that failed, strongest first (at most
  // kNearMisses), from the consolidated clusters or, without them, from merge's.
  std::vector<NearMiss> near_misses;
  double seconds = 0;  // time spent in the test, all steps
  // ... of which: the marginals and the core's copy, the bound before merge, merge's clusters, the
  // consolidated clusters (their dimensions checked, tested, pieces dropped).
  double seconds_prepare = 0, seconds_subspaces = 0, seconds_merge = 0, seconds_consolidated = 0;
};

}  // namespace subscale::pipeline
