#pragma once
// The significance test between the run's stages (stages/significance): the core's copy without
// background ties, the subspaces that can hold a significant cluster, and the significant clusters
// of merge and consolidation, strongest first. With significance.enabled false none of this runs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/consolidate/consolidate.hpp"
#include "stages/merge/merge.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/marginals.hpp"
#include "stages/significance/selection.hpp"

namespace subscale::pipeline {

struct SignificanceSettings {
  bool enabled = true;
  significance::TestParams test;
  // A consolidated cluster that shares this share of its points and of its dimensions with a
  // stronger one is a piece of it (stages/significance/distinct_clusters.hpp).
  double distinct_overlap = 0.5;
  // Merge clusters not significant on their own passed to consolidation at most
  // (stages/significance/keep_significant.hpp, consolidation_candidates).
  std::size_t consolidation_budget = 2000;
  // Where a dense unit holds more than this many dimensions by chance (ties), the subspaces are
  // pooled into their pairs of dimensions before merge (stages/significance/pooled_pairs.hpp),
  // unless that takes more than pooling_budget additions.
  double pooling_chance_dimensions = 1.0;
  std::uint64_t pooling_budget = 2'000'000'000;
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
  std::uint64_t merge_tested = 0, merge_kept = 0;
  std::uint64_t merge_candidates = 0;  // not significant alone, passed to consolidation as possible parts
  std::uint64_t consolidated_tested = 0, consolidated_kept = 0;
  std::uint64_t repeated = 0;  // significant consolidated clusters dropped as pieces of stronger ones
  std::vector<significance::ClusterScore> raw_scores;  // merge's kept clusters, in their (score) order
  std::vector<significance::ClusterScore> scores;      // the run's clusters, in their (score) order
  double seconds = 0;                                  // time spent in the test, all steps
  // ... of which: the marginals and the core's copy, the bound before merge, merge's clusters, the
  // consolidated clusters (their dimensions checked, tested, pieces dropped).
  double seconds_prepare = 0, seconds_subspaces = 0, seconds_merge = 0, seconds_consolidated = 0;
};

// The core's copy of the values when some dimension has a background value (none otherwise).
template <class T>
std::optional<ColumnMatrix<T>> core_values(const ColumnMatrix<T>& values, double epsilon,
                                           const SignificanceSettings& settings, SignificanceReport& report);

// The subspaces worth merging (those where a cluster of at least min_size points could pass);
// where a dense unit holds more than settings.pooling_chance_dimensions dimensions by chance, the
// subspaces pooled into their pairs of dimensions first.
std::vector<SubspaceCluster> subspaces_to_merge(const significance::Marginals& marginals,
                                                const std::vector<SubspaceCluster>& subspaces, std::uint32_t min_size,
                                                double chance_dimensions, const SignificanceSettings& settings,
                                                SignificanceReport& report);

// Keeps merge's significant clusters, strongest first.
template <class T>
void keep_significant_merge(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                            merge::MergeResult& merge, const SignificanceSettings& settings,
                            SignificanceReport& report);

// Keeps the significant consolidated clusters, strongest first.
template <class T>
void keep_significant_consolidated(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                                   consolidate::ConsolidateResult& consolidated, const SignificanceSettings& settings,
                                   SignificanceReport& report);

// The log's lines for what the test did.
std::vector<std::string> significance_log_lines(const SignificanceReport& report, const SignificanceSettings& settings);

}  // namespace subscale::pipeline
