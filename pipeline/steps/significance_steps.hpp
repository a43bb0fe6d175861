#pragma once
// The significance test between the run's stages (stages/significance): the core's copy without
// background ties, the subspaces that can hold a significant cluster, and the significant clusters
// of merge and consolidation, strongest first. With significance.enabled false none of this runs.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "pipeline/output/significance_report.hpp"
#include "pipeline/settings/significance_settings.hpp"
#include "stages/consolidate/consolidate.hpp"
#include "stages/merge/merge.hpp"
#include "stages/significance/significance.hpp"

namespace subscale::pipeline {

// Near misses a run with no significant cluster lists (log, summary.json).
inline constexpr std::size_t kNearMisses = 5;

// The clusters reported are judged by both shapes (cluster_score.hpp), merge's by boxes alone.
inline constexpr auto kReportedShapes = significance::Shapes::boxes_and_turned;

// The core's copy of the values when some dimension has a background value (none otherwise).
template <class T>
std::optional<ColumnMatrix<T>> core_values(const ColumnMatrix<T>& values, double epsilon,
                                           const SignificanceSettings& settings, SignificanceReport& report);

// The subspaces worth merging (those where a cluster of at least min_size points could pass), each
// with only the points of its groups at merge.epsilon `merge_epsilon` where some cluster could pass
// (group_bound.hpp; `by_group` false keeps every point of a passing subspace, for the tests that
// compare the two); where a dense unit holds more than settings.pooling_chance_dimensions dimensions
// by chance, the subspaces pooled into their pairs of dimensions first.
template <class T>
std::vector<SubspaceCluster> subspaces_to_merge(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                                                const std::vector<SubspaceCluster>& subspaces, std::uint32_t min_size,
                                                double merge_epsilon, double chance_dimensions,
                                                const SignificanceSettings& settings, SignificanceReport& report,
                                                bool by_group = true, double sample_scale = 1.0);

// What merge need not assemble, for keep_significant_merge with the same settings (merge_sieve.hpp):
// nothing (nullptr) under fdr.
std::unique_ptr<merge::ClusterSieve> merge_sieve(const significance::Marginals& marginals,
                                                 const merge::MergeParams& params, const SignificanceSettings& settings,
                                                 double sample_scale = 1.0);

// Keeps merge's significant clusters, strongest first, and finds the denser parts of those that
// fail (denser_parts.hpp; merge's epsilon and min_points are the parts' too). The parts go to
// `parts_aside` where it is given (the run consolidates: they join the consolidated clusters, as
// clusters in their own right, not as pieces that consolidation could join into a chain), or else
// join merge's clusters. `sample_scale`: TestParams::sample_scale, for the parts' test.
template <class T>
void keep_significant_merge(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                            merge::MergeResult& merge, const merge::MergeParams& params,
                            const SignificanceSettings& settings, SignificanceReport& report, double sample_scale = 1.0,
                            std::vector<SubspaceCluster>* parts_aside = nullptr);

// Keeps the significant consolidated clusters, strongest first, with the touching pieces of one
// cluster in one subspace joined (stages/significance/touching_pieces.hpp; merge's radius is the
// one they touch within). Each is first grown over every point in its subspace at merge's
// settings (stages/significance/grown_cluster.hpp). On a sample (`sample_scale` > 1, TestParams::sample_scale) the
// clusters kept are those predicted to pass on the input; the test on every point decides.
template <class T>
void keep_significant_consolidated(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                                   consolidate::ConsolidateResult& consolidated, const merge::MergeParams& merge_params,
                                   const SignificanceSettings& settings, SignificanceReport& report,
                                   double sample_scale = 1.0);

// Where in the run the test did something, so that its log lines come in the order the stages run:
// before the core (values kept out of its work), after subspaces (the pooling, the subspaces
// skipped before merge), after merge, after consolidate, and at the end (the strongest candidates
// when nothing passed).
enum class SignificancePhase { core, subspaces, merge, consolidate, end };

// The log's lines for what the test did in `phase`.
std::vector<std::string> significance_log_lines(const SignificanceReport& report, const SignificanceSettings& settings,
                                                SignificancePhase phase);

}  // namespace subscale::pipeline
