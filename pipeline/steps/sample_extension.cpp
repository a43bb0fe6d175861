#include "pipeline/steps/sample_extension.hpp"

#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <numeric>

#include "common/phase_timer.hpp"
#include "pipeline/steps/significance_steps.hpp"
#include "stages/sample/sample.hpp"
#include "stages/significance/significance.hpp"
#include "stages/significance/trimmed_box.hpp"

namespace subscale::pipeline {
namespace {

void rename_points(std::vector<SubspaceCluster>& clusters, const std::vector<std::uint32_t>& rows) {
  tbb::parallel_for(std::size_t{0}, clusters.size(), [&](std::size_t c) {
    for (auto& p : clusters[c].points) p = rows[p];  // rows ascend, so the points stay sorted
  });
}

// The clusters that pass on every point and repeat no stronger one, strongest first.
template <class T>
significance::Kept significant_on_every_point(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                                              const std::vector<SubspaceCluster>& clusters,
                                              const SignificanceSettings& settings, SignificanceReport& report) {
  auto test = settings.test;
  test.shapes = kReportedShapes;
  auto kept = significance::keep_significant(values, marginals, clusters, test);
  if (kept.indices.empty() && !clusters.empty()) {
    const auto scores = significance::score_clusters(values, marginals, clusters, kReportedShapes);
    std::vector<std::size_t> order(clusters.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return scores[a].score > scores[b].score; });
    report.near_misses.clear();
    for (std::size_t i = 0; i < std::min(kNearMisses, order.size()); ++i)
      report.near_misses.push_back({clusters[order[i]].dimensions,
                                    static_cast<std::uint32_t>(clusters[order[i]].points.size()), scores[order[i]]});
    return kept;
  }
  report.near_misses.clear();
  std::vector<SubspaceCluster> strongest_first;
  for (const auto i : kept.indices) strongest_first.push_back(clusters[i]);
  const auto distinct = significance::distinct_clusters(values, marginals, strongest_first, settings.distinct_overlap,
                                                        -std::log10(settings.test.alpha), kReportedShapes);
  report.repeated += kept.indices.size() - distinct.size();
  kept.indices = significance::take(kept.indices, distinct);
  kept.scores = significance::take(kept.scores, distinct);
  return kept;
}

// A cluster found on the sample whose extension fails on every point loses the points at its edges
// while its score rises (trimmed_box.hpp), as a failing consolidated cluster does on the sample.
// Each stray sample point brings every input point within merge.epsilon of it: a few where the
// background is dense (the commonest levels of a skewed column) widen the box until it holds most
// of a dimension's points, and the cluster no longer gathers there.
template <class T>
void trim_failing_edges(const ColumnMatrix<T>& values, const significance::Marginals& marginals,
                        std::vector<SubspaceCluster>& clusters, const significance::TestParams& params) {
  const double threshold = -std::log10(params.alpha);
  tbb::parallel_for(std::size_t{0}, clusters.size(), [&](std::size_t c) {
    if (significance::gathering_score(values, marginals, clusters[c], params).score < threshold)
      clusters[c] = significance::trim_while_stronger(values, marginals, std::move(clusters[c]));
  });
}

}  // namespace

template <class T>
void extend_sample_result(const ColumnMatrix<T>& values, const ColumnMatrix<T>& sample_values,
                          const DrawnSample& sample, const RunSettings& settings, RunReport& report,
                          const StageProgress& progress) {
  const auto start = std::chrono::steady_clock::now();
  SampleReport& out = report.sample.emplace();
  out.points = sample.rows.size();
  out.of = static_cast<std::uint64_t>(values.rows());
  out.seed = sample.seed;
  out.rows = sample.rows;
  out.reason = sample.reason;
  std::vector<SubspaceCluster>* found = report.consolidated ? &report.consolidated->clusters
                                        : report.merge      ? &report.merge->clusters
                                                            : nullptr;
  std::vector<SubspaceCluster> extended;
  if (found) {
    out.clusters_found = found->size();
    // Where the core ran on the GPU, the pass does too (the same members, bit for bit).
    const sample::MembershipParams params{settings.merge_epsilon};
    const auto members =
        report.core.backend_used == Backend::cuda
            ? sample::members_near_cuda(values, sample_values, *found, params, {nullptr, settings.core.device_bytes})
            : sample::members_near(values, sample_values, *found, params, progress);
    for (std::size_t c = 0; c < found->size(); ++c) {
      out.memberships += members[c].size();
      extended.push_back({(*found)[c].dimensions, members[c]});
    }
  }
  out.seconds_membership = seconds_since(start);
  rename_points(report.core.subspaces, sample.rows);
  if (report.merge && report.consolidated) rename_points(report.merge->clusters, sample.rows);
  if (!found) return;
  const auto test_start = std::chrono::steady_clock::now();
  SignificanceReport& sig = *report.significance;
  const auto marginals = significance::Marginals::of(values);
  auto reported_test = settings.significance.test;
  reported_test.shapes = kReportedShapes;
  trim_failing_edges(values, marginals, extended, reported_test);
  auto kept = significant_on_every_point(values, marginals, extended, settings.significance, sig);
  out.clusters_kept = kept.indices.size();
  for (const auto i : kept.indices) {
    out.found_points.push_back((*found)[i].points);
    for (auto& p : out.found_points.back()) p = sample.rows[p];  // rows ascend, so the points stay sorted
  }
  if (report.consolidated) {
    auto& c = *report.consolidated;
    c.clusters = significance::take(extended, kept.indices);
    c.sources = significance::take(c.sources, kept.indices);
    c.sizes.clear();
    for (const auto& cluster : c.clusters) c.sizes.push_back(cluster.points.size());
    c.stats.clusters = c.clusters.size();
    sig.consolidated_kept = c.clusters.size();
  } else {
    auto& m = *report.merge;
    m.clusters = significance::take(extended, kept.indices);
    m.sizes.clear();
    for (const auto& cluster : m.clusters) m.sizes.push_back(cluster.points.size());
    sig.merge_kept = m.clusters.size();
    sig.raw_scores = kept.scores;
  }
  sig.scores = std::move(kept.scores);
  const double test_seconds = seconds_since(test_start);
  sig.seconds += test_seconds;
  sig.seconds_consolidated += test_seconds;
}

template void extend_sample_result(const ColumnMatrix<float>&, const ColumnMatrix<float>&, const DrawnSample&,
                                   const RunSettings&, RunReport&, const StageProgress&);
template void extend_sample_result(const ColumnMatrix<double>&, const ColumnMatrix<double>&, const DrawnSample&,
                                   const RunSettings&, RunReport&, const StageProgress&);

}  // namespace subscale::pipeline
