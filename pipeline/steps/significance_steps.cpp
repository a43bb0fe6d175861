#include "pipeline/steps/significance_steps.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include "common/phase_timer.hpp"
#include "pipeline/log/log_format.hpp"
#include "stages/significance/denser_parts.hpp"
#include "stages/significance/distinct_clusters.hpp"
#include "stages/significance/group_bound.hpp"
#include "stages/significance/grown_cluster.hpp"
#include "stages/significance/heavy_ties.hpp"
#include "stages/significance/keep_significant.hpp"
#include "stages/significance/merge_sieve.hpp"
#include "stages/significance/pooled_pairs.hpp"
#include "stages/significance/subspace_bound.hpp"
#include "stages/significance/touching_pieces.hpp"
#include "stages/significance/trimmed_box.hpp"
#include "stages/significance/turned_rectangle.hpp"
#include "stages/significance/weak_dimensions.hpp"

namespace subscale::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

// The run's test, judging by what a cluster predicts for the input where the run is on a sample.
significance::TestParams predicting(const SignificanceSettings& settings, double sample_scale) {
  auto params = settings.test;
  params.sample_scale = sample_scale;
  return params;
}

}  // namespace

template <class T>
std::optional<ColumnMatrix<T>> core_values(const ColumnMatrix<T>& values, double epsilon,
                                           const SignificanceSettings& settings, SignificanceReport& report) {
  const auto start = Clock::now();
  std::optional<ColumnMatrix<T>> copy;
  if (significance::has_heavy_ties(values, settings.test.background_share)) {
    copy = values;
    const auto moved = significance::spread_heavy_ties(*copy, settings.test.background_share, epsilon);
    report.background_dimensions = moved.dimensions;
    report.background_values = moved.points;
  }
  report.seconds_prepare += seconds_since(start);
  report.seconds += seconds_since(start);
  return copy;
}

namespace {

// With pooling: the pairs of dimensions with the points of every subspace holding them (the
// core's own pairs among them); nothing when the pooling would be over its budget.
std::optional<std::vector<SubspaceCluster>> pooled_pairs(const significance::Marginals& marginals,
                                                         const std::vector<SubspaceCluster>& subspaces,
                                                         const SignificanceSettings& settings,
                                                         SignificanceReport& report) {
  auto pooled =
      significance::pool_into_pairs(subspaces, marginals.points(), marginals.dimensions(), settings.pooling_budget);
  report.pooling_memberships = pooled.memberships;
  report.pooling_over_budget = pooled.over_budget;
  if (pooled.over_budget) return std::nullopt;
  report.pooled_pairs = pooled.pairs.size();
  return std::move(pooled.pairs);
}

}  // namespace

namespace {

const SubspaceCluster& as_cluster(const SubspaceCluster& cluster) { return cluster; }
const SubspaceCluster& as_cluster(const SubspaceCluster* cluster) { return *cluster; }

// How strong a failed cluster is: its score, or for those that score 0 (a corrected p-value of 1 or
// more) how far over 1 that p-value lies; a best case has only its score (and 0 for the rest).
double strength(const significance::ClusterScore& score) {
  return score.score > 0 ? score.score : -(score.log10_p + score.log10_search);
}

// The kNearMisses strongest of `clusters[indices[i]]` (ties by position, so the choice does not
// depend on the number of threads), for a run whose test kept nothing.
template <class Clusters>
std::vector<NearMiss> strongest_failures(const Clusters& clusters, const std::vector<std::size_t>& indices,
                                         const std::vector<significance::ClusterScore>& scores) {
  std::vector<std::size_t> order(indices.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const std::size_t count = std::min(kNearMisses, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(),
                    [&](std::size_t a, std::size_t b) {
                      const double sa = strength(scores[a]), sb = strength(scores[b]);
                      return sa != sb ? sa > sb : a < b;
                    });
  std::vector<NearMiss> misses;
  for (std::size_t i = 0; i < count; ++i) {
    const SubspaceCluster& cluster = as_cluster(clusters[indices[order[i]]]);
    misses.push_back({cluster.dimensions, static_cast<std::uint32_t>(cluster.points.size()), scores[order[i]]});
  }
  return misses;
}

}  // namespace

template <class T>
std::vector<SubspaceCluster> subspaces_to_merge(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                                                const std::vector<SubspaceCluster>& subspaces, std::uint32_t min_size,
                                                double merge_epsilon, double chance_dimensions,
                                                const SignificanceSettings& settings, SignificanceReport& report,
                                                bool by_group, double sample_scale) {
  const auto start = Clock::now();
  report.chance_dimensions = chance_dimensions;
  report.pooled = chance_dimensions > settings.pooling_chance_dimensions;
  auto pairs = report.pooled ? pooled_pairs(marginals, subspaces, settings, report) : std::nullopt;
  // Pooled, the core's subspaces of three or more dimensions as they are and then the pairs; the
  // lists are read in place, and only what is kept is copied.
  std::vector<const SubspaceCluster*> candidates;
  candidates.reserve(subspaces.size() + (pairs ? pairs->size() : 0));
  for (const auto& s : subspaces)
    if (!pairs || s.dimensions.size() > 2) candidates.push_back(&s);
  if (pairs)
    for (const auto& pair : *pairs) candidates.push_back(&pair);
  const auto can = significance::subspaces_that_can_pass(marginals, std::span<const SubspaceCluster* const>(candidates),
                                                         min_size, predicting(settings, sample_scale));
  // The pairs are this step's own and come last: moved, not copied (on tie-heavy data they hold
  // a hundred million points).
  const std::size_t first_pair = candidates.size() - (pairs ? pairs->size() : 0);
  std::vector<SubspaceCluster> kept;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!can[i]) continue;
    if (i < first_pair)
      kept.push_back(*candidates[i]);
    else
      kept.push_back(std::move((*pairs)[i - first_pair]));
  }
  if (by_group) {
    const auto groups =
        significance::keep_passing_groups(values, marginals, kept, min_size, merge_epsilon, settings.test);
    report.groups_tested = groups.groups;
    report.groups_kept = groups.groups_kept;
    report.group_points_dropped = groups.points_dropped;
    report.subspaces_skipped_by_groups = groups.subspaces_dropped;
  }
  report.subspaces_tested = candidates.size();
  report.subspaces_skipped = candidates.size() - kept.size();
  report.near_misses.clear();
  if (kept.empty() && !candidates.empty()) {
    // Nothing reaches merge: the subspaces whose best case came closest explain the empty result.
    std::vector<significance::ClusterScore> best(candidates.size());
    tbb::parallel_for(std::size_t{0}, candidates.size(), [&](std::size_t i) {
      best[i].score = significance::best_possible_score(marginals, *candidates[i], min_size, 0.0, sample_scale);
    });
    std::vector<std::size_t> all(candidates.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    report.near_misses = strongest_failures(candidates, all, best);
    for (auto& miss : report.near_misses) miss.best_case = true;
  }
  report.seconds_subspaces += seconds_since(start);
  report.seconds += seconds_since(start);
  return kept;
}

std::unique_ptr<merge::ClusterSieve> merge_sieve(const significance::Marginals& marginals,
                                                 const merge::MergeParams& params, const SignificanceSettings& settings,
                                                 double sample_scale) {
  if (settings.test.correction != significance::Correction::bonferroni) return nullptr;
  const auto parts = predicting(settings, sample_scale);
  return std::make_unique<significance::MergeSieve>(marginals, settings.test, settings.denser_parts ? &parts : nullptr,
                                                    2 * std::max<std::size_t>(params.min_points, 1));
}

template <class T>
void keep_significant_merge(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                            merge::MergeResult& merge, const merge::MergeParams& params,
                            const SignificanceSettings& settings, SignificanceReport& report, double sample_scale,
                            std::vector<SubspaceCluster>* parts_aside) {
  const auto start = Clock::now();
  auto denser = settings.denser_parts
                    ? significance::denser_parts(values, marginals, merge.clusters, params.epsilon, params.min_points,
                                                 predicting(settings, sample_scale))
                    : significance::DenserParts{};
  report.denser_parts = denser.parts.size();
  report.denser_splits = denser.clusters_split;
  report.denser_parts_aside = parts_aside != nullptr;
  if (parts_aside) {
    *parts_aside = std::move(denser.parts);
    denser.parts.clear();
  }
  for (auto& part : denser.parts) {
    merge.sizes.push_back(part.points.size());
    merge.clusters.push_back(std::move(part));
  }
  // The clusters merge's sieve set aside were tested too: by a bound, and failed.
  const std::uint64_t tested = merge.clusters.size() + merge.stats.clusters_set_aside;
  auto candidates = significance::consolidation_candidates(values, marginals, merge.clusters, settings.test,
                                                           settings.consolidation_budget, kNearMisses, tested);
  auto& kept = candidates.kept;
  report.merge_tested = tested;
  report.merge_set_aside = merge.stats.clusters_set_aside;
  report.merge_kept = candidates.significant;
  report.merge_candidates = kept.indices.size() - candidates.significant;
  // Merge's strongest failures replace those of the subspaces (if any): the candidates, or where
  // none is even a candidate, the clusters closest to passing. A significant cluster leaves nothing
  // to explain.
  if (candidates.significant > 0)
    report.near_misses.clear();
  else if (!kept.indices.empty())
    report.near_misses = strongest_failures(merge.clusters, kept.indices, kept.scores);
  else if (!merge.clusters.empty())
    report.near_misses = strongest_failures(merge.clusters, candidates.closest.indices, candidates.closest.scores);
  merge.clusters = significance::take(merge.clusters, kept.indices);
  merge.sizes = significance::take(merge.sizes, kept.indices);
  report.raw_scores = std::move(kept.scores);
  report.seconds_merge += seconds_since(start);
  report.seconds += seconds_since(start);
}

namespace {

// The refinements of a consolidated cluster before its test (docs/significance.md §4(c)).
template <class T>
SubspaceCluster refined_for_test(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                                 SubspaceCluster cluster, double background_share, double threshold) {
  cluster = significance::drop_weak_dimensions(values, marginals, std::move(cluster), background_share);
  if (cluster.dimensions.size() < 2) return cluster;  // it gathered in no subspace, and fails the test
  cluster = significance::add_strong_dimensions(values, marginals, std::move(cluster), background_share);
  const std::size_t before = cluster.points.size();
  cluster = significance::widen_while_stronger(values, marginals, std::move(cluster));
  // Widening can turn a few points of a cluster into all of them, whose dimensions the first
  // look, at the few, did not find strong.
  if (cluster.points.size() != before)
    cluster = significance::add_strong_dimensions(values, marginals, std::move(cluster), background_share);
  // Only a cluster that fails loses the points at its edges (trimmed_box.hpp says why).
  if (significance::score_cluster(values, marginals, cluster, kReportedShapes).score < threshold)
    cluster = significance::trim_while_stronger(values, marginals, std::move(cluster));
  return cluster;
}

}  // namespace

template <class T>
void keep_significant_consolidated(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                                   consolidate::ConsolidateResult& consolidated, const merge::MergeParams& merge_params,
                                   const SignificanceSettings& settings, SignificanceReport& report,
                                   double sample_scale) {
  const double merge_epsilon = merge_params.epsilon;
  const significance::GrowthParams growth{merge_epsilon, std::max<std::size_t>(merge_params.min_points, 1), 0,
                                          kReportedShapes};
  auto test = predicting(settings, sample_scale);
  test.shapes = kReportedShapes;
  const auto start = Clock::now();
  const double threshold = -std::log10(settings.test.alpha);
  std::vector<char> grown(consolidated.clusters.size(), 0);
  tbb::parallel_for(std::size_t{0}, consolidated.clusters.size(), [&](std::size_t i) {
    auto& cluster = consolidated.clusters[i];
    SubspaceCluster as_found = cluster;
    cluster = refined_for_test(values, marginals, std::move(cluster), settings.test.background_share, threshold);
    // A cluster that fails may hold a few of a small cluster's points (grown_cluster.hpp); one
    // that passes keeps its points, since growing it would take in the background at its edges,
    // unless it looks like a piece of a stretched cluster of two dimensions: grown, the whole is
    // judged by a turned rectangle, and only then does the growth replace a passing piece.
    const double score = significance::score_cluster(values, marginals, cluster, kReportedShapes).score;
    const bool passes = score >= threshold;
    if (!passes || significance::looks_stretched(values, marginals, cluster)) {
      SubspaceCluster larger = significance::grown_in_subspace(values, marginals, std::move(as_found), growth);
      larger = refined_for_test(values, marginals, std::move(larger), settings.test.background_share, threshold);
      // Grown, a stretched cluster takes in the background at its ends and sides, where a box
      // would not show it but its turned rectangle does.
      larger = significance::trim_turned_while_stronger(values, marginals, std::move(larger));
      const auto larger_score = significance::score_cluster(values, marginals, larger, kReportedShapes);
      if (larger_score.score > score && (!passes || larger_score.turned)) {
        cluster = std::move(larger);
        grown[i] = 1;
      }
    }
    consolidated.sizes[i] = cluster.points.size();
  });
  auto kept = significance::keep_significant(values, marginals, consolidated.clusters, test);
  report.consolidated_tested = consolidated.clusters.size();
  report.grown = static_cast<std::uint64_t>(std::count(grown.begin(), grown.end(), 1));
  report.consolidated_kept = kept.indices.size();
  if (!kept.indices.empty()) {
    report.near_misses.clear();
  } else if (!consolidated.clusters.empty()) {
    std::vector<std::size_t> all(consolidated.clusters.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    report.near_misses =
        strongest_failures(consolidated.clusters, all,
                           significance::score_clusters(values, marginals, consolidated.clusters, kReportedShapes));
  }
  std::vector<SubspaceCluster> strongest_first;
  std::vector<std::uint32_t> sources;
  for (const auto i : kept.indices) {
    strongest_first.push_back(consolidated.clusters[i]);
    sources.push_back(consolidated.sources[i]);
  }
  // The clusters that are no piece of a stronger one lead the joins (touching_pieces.hpp); a join
  // can make a cluster repeat a stronger one, so the pieces are looked for again after them.
  std::vector<bool> leads(strongest_first.size(), false);
  for (const auto i : significance::distinct_clusters(values, marginals, strongest_first, settings.distinct_overlap,
                                                      threshold, kReportedShapes))
    leads[i] = true;
  auto pieces =
      significance::join_touching_pieces(values, marginals, std::move(strongest_first), std::move(kept.scores),
                                         std::move(sources), leads, merge_epsilon, threshold, kReportedShapes);
  report.touching_joins = pieces.joins;
  const auto after_joins = significance::distinct_clusters(values, marginals, pieces.clusters,
                                                           settings.distinct_overlap, threshold, kReportedShapes);
  report.repeated = kept.indices.size() - pieces.joins - after_joins.size();
  consolidated.clusters = significance::take(pieces.clusters, after_joins);
  consolidated.sizes.clear();
  for (const auto& cluster : consolidated.clusters) consolidated.sizes.push_back(cluster.points.size());
  consolidated.sources = significance::take(pieces.sources, after_joins);
  consolidated.stats.clusters = consolidated.clusters.size();
  report.scores = significance::take(pieces.scores, after_joins);
  report.turned = static_cast<std::uint64_t>(
      std::count_if(report.scores.begin(), report.scores.end(), [](const auto& s) { return s.turned; }));
  report.seconds_consolidated += seconds_since(start);
  report.seconds += seconds_since(start);
}

namespace {

// 10^-score: the least alpha at which a cluster of that score passes the bonferroni test.
double alpha_needed(const significance::ClusterScore& score) { return std::pow(10.0, -score.score); }

std::vector<std::string> near_miss_lines(const SignificanceReport& report, const SignificanceSettings& settings) {
  if (report.near_misses.empty()) return {};
  std::vector<std::string> lines;
  std::ostringstream head;
  head << "significance no cluster passes the test (" << significance::to_string(settings.test.correction)
       << " at alpha " << settings.test.alpha << "); the strongest candidates, each with the alpha it would pass at:";
  lines.push_back(head.str());
  for (const NearMiss& miss : report.near_misses) {
    std::ostringstream line;
    line.precision(3);
    line << "significance   {";
    for (std::size_t j = 0; j < miss.dimensions.size(); ++j) line << (j ? ", " : "") << miss.dimensions[j];
    line << "} " << counted(miss.points, "point")
         << (miss.best_case ? " (a subspace skipped before merge): at best score " : ": score ") << miss.score.score
         << ", ";
    if (miss.score.score <= 0 && !miss.best_case)
      line << "passes at no alpha below 1 (p-value 10^" << miss.score.log10_p << " in a search over 10^"
           << miss.score.log10_search << " boxes)";
    else if (miss.score.score <= 0)
      line << "passes at no alpha below 1 (as likely as not by chance in a search this wide)";
    else
      line << "passes at alpha >= " << alpha_needed(miss.score);
    lines.push_back(line.str());
  }
  const auto& best = report.near_misses.front().score;
  std::ostringstream advice;
  advice.precision(2);
  const bool bound = report.near_misses.front().best_case;
  if (best.score > 0 && bound)
    advice << "significance below significance.alpha=" << alpha_needed(best) * 1.01
           << " no cluster of these subspaces can pass (a bound: their clusters may score less); ";
  else if (best.score > 0)
    advice << "significance significance.alpha=" << alpha_needed(best) * 1.01
           << " would report the strongest, and clusters of pure noise would pass at about that rate; ";
  else
    advice << "significance no alpha reports any of them: ";
  advice << "more points, fewer dimensions, or a cluster that holds more of the points raise the scores";
  if (best.score > 0 && settings.test.correction == significance::Correction::bonferroni)
    advice << "; significance.fdr=true controls the share of false clusters instead, a weaker test";
  lines.push_back(advice.str());
  return lines;
}

}  // namespace

std::vector<std::string> significance_log_lines(const SignificanceReport& report, const SignificanceSettings& settings,
                                                SignificancePhase phase) {
  std::vector<std::string> lines;
  const std::string test = std::string(significance::to_string(settings.test.correction)) + " at alpha " +
                           std::to_string(settings.test.alpha).substr(0, 6);
  if (phase == SignificancePhase::core && report.background_dimensions > 0)
    lines.push_back("significance " + counted(report.background_values, "value") + " in " +
                    counted(report.background_dimensions, "dimension") +
                    (report.background_values == 1 ? " shares" : " share") +
                    " a value with more than half of the points: kept out of the core's work");
  if (phase == SignificancePhase::subspaces && report.pooled) {
    std::ostringstream line;
    line.precision(3);
    line << "significance a dense unit holds " << report.chance_dimensions
         << " dimensions by chance (ties): each hidden cluster's units scatter over many subspaces; ";
    if (report.pooling_over_budget)
      line << "pooling them into pairs of dimensions would take " << counted(report.pooling_memberships, "addition")
           << ", over the budget of " << settings.pooling_budget << ": not pooled";
    else
      line << "pooled into " << counted(report.pooled_pairs, "pair") << " of dimensions ("
           << counted(report.pooling_memberships, "addition") << ")";
    lines.push_back(line.str());
  }
  if (phase == SignificancePhase::subspaces && report.subspaces_tested > 0)
    lines.push_back("significance " + std::to_string(report.subspaces_skipped) + " of " +
                    counted(report.subspaces_tested, "subspace") +
                    " skipped before merge: no cluster of theirs could pass (" + test + ")");
  if (phase == SignificancePhase::subspaces && report.groups_tested > 0)
    lines.push_back("significance " + std::to_string(report.groups_kept) + " of " +
                    counted(report.groups_tested, "group") +
                    " of the other subspaces' points could hold such a cluster: merge reads only theirs (" +
                    counted(report.group_points_dropped, "point") + " left out, " +
                    counted(report.subspaces_skipped_by_groups, "subspace") + " with no such group among the skipped)");
  if (phase == SignificancePhase::merge && report.denser_parts > 0)
    lines.push_back(
        "significance " + counted(report.denser_parts, "denser part") + " of " +
        counted(report.denser_splits, "failing merge cluster") +
        " pass the test (each clustered again inside its points at rising min_points): " +
        (report.denser_parts_aside ? "tested with the consolidated clusters" : "tested with merge's clusters"));
  if (phase == SignificancePhase::merge && report.merge_tested > 0)
    lines.push_back("significance " + std::to_string(report.merge_kept) + " of " +
                    counted(report.merge_tested, "merge cluster") + " significant, " +
                    std::to_string(report.merge_candidates) +
                    " more passed to consolidation as parts of possible clusters");
  if (phase == SignificancePhase::consolidate && report.consolidated_tested > 0)
    lines.push_back("significance " + std::to_string(report.consolidated_kept) + " of " +
                    counted(report.consolidated_tested, "consolidated cluster") + " significant, " +
                    std::to_string(report.repeated) + " of them repeating a stronger one");
  if (phase == SignificancePhase::consolidate && report.grown > 0)
    lines.push_back("significance " + counted(report.grown, "consolidated cluster") +
                    " stronger grown over every point of their subspace (at merge.epsilon and merge.min_points)");
  if (phase == SignificancePhase::consolidate && report.turned > 0)
    lines.push_back("significance " + counted(report.turned, "cluster") +
                    " of two dimensions judged by a rectangle turned to the cluster's own direction (its box holds "
                    "too much background)");
  if (phase == SignificancePhase::consolidate && report.touching_joins > 0)
    lines.push_back("significance " + counted(report.touching_joins, "join") +
                    " of pieces of one cluster that touch in their subspace (within merge.epsilon)");
  if (phase == SignificancePhase::end)
    for (const auto& line : near_miss_lines(report, settings)) lines.push_back(line);
  return lines;
}

#define SUBSCALE_SIGNIFICANCE_STEPS(T)                                                                              \
  template std::optional<ColumnMatrix<T>> core_values(const ColumnMatrix<T>&, double, const SignificanceSettings&,  \
                                                      SignificanceReport&);                                         \
  template std::vector<SubspaceCluster> subspaces_to_merge(                                                         \
      const ColumnMatrix<T>&, const significance::Marginals&, const std::vector<SubspaceCluster>&, std::uint32_t,   \
      double, double, const SignificanceSettings&, SignificanceReport&, bool, double);                              \
  template void keep_significant_merge(const ColumnMatrix<T>&, const significance::Marginals&, merge::MergeResult&, \
                                       const merge::MergeParams&, const SignificanceSettings&, SignificanceReport&, \
                                       double, std::vector<SubspaceCluster>*);                                      \
  template void keep_significant_consolidated(const ColumnMatrix<T>&, const significance::Marginals&,               \
                                              consolidate::ConsolidateResult&, const merge::MergeParams&,           \
                                              const SignificanceSettings&, SignificanceReport&, double);
SUBSCALE_SIGNIFICANCE_STEPS(float)
SUBSCALE_SIGNIFICANCE_STEPS(double)
#undef SUBSCALE_SIGNIFICANCE_STEPS

}  // namespace subscale::pipeline
