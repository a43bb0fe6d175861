#include "stages/consolidate/consolidate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "stages/consolidate/central_span.hpp"
#include "stages/consolidate/cluster_join.hpp"
#include "stages/consolidate/gather_join.hpp"
#include "stages/consolidate/redundancy.hpp"

namespace subscale::consolidate {
namespace {

// Join and extend alternate until neither changes anything; each pass can only join clusters or
// add dimensions, and on the benchmark data the second pass already changes nothing. The bound
// keeps the stage's time predictable on data where a box filter keeps shifting a cluster.
constexpr std::uint64_t kMaxPasses = 8;

void check_fraction(double value, const char* key, const char* meaning) {
  if (!(value > 0.0 && value <= 1.0))
    throw UsageError(std::string(key) + " must be in (0, 1] (" + meaning + "); got " + std::to_string(value));
}

void check_params(const ConsolidateParams& params) {
  check_fraction(params.overlap, "consolidate.overlap", "the shared fraction of the smaller cluster's points");
  check_fraction(params.span_fraction, "consolidate.span_fraction",
                 "the central fraction of points the span test uses");
  check_fraction(params.coverage, "consolidate.coverage", "the covered fraction that makes a cluster redundant");
  if (!(params.span_tolerance > 0.0) || !std::isfinite(params.span_tolerance))
    throw UsageError("consolidate.span_tolerance must be a finite number > 0 (got " +
                     std::to_string(params.span_tolerance) + "); the default is 3");
}

template <class T>
void check_cluster(const ColumnMatrix<T>& values, const SubspaceCluster& cluster, std::size_t which) {
  const auto where = [&] { return "consolidate: cluster #" + std::to_string(which) + " of the input"; };
  const auto check_sorted = [&](const std::vector<std::uint32_t>& list, std::size_t limit, const char* what) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i] >= limit)
        throw InputError(where() + " names " + what + " " + std::to_string(list[i]) + ", but the data has " +
                         std::to_string(limit) + " " + what + "s");
      if (i > 0 && list[i] <= list[i - 1])
        throw InputError(where() + " has " + what + "s that are not sorted ascending without repeats (at position " +
                         std::to_string(i) + ")");
    }
  };
  check_sorted(cluster.dimensions, static_cast<std::size_t>(values.cols()), "dimension");
  check_sorted(cluster.points, static_cast<std::size_t>(values.rows()), "point");
}

// Every cluster checked, on all threads; the error is the first bad cluster's, as a sequential
// check would give it.
template <class T>
void check_clusters(const ColumnMatrix<T>& values, const std::vector<SubspaceCluster>& clusters) {
  std::vector<char> bad(clusters.size(), 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, clusters.size()), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      try {
        check_cluster(values, clusters[c], c);
      } catch (const InputError&) {
        bad[c] = 1;
      }
    }
  });
  const auto first = std::find(bad.begin(), bad.end(), 1);
  if (first != bad.end()) {
    const auto c = static_cast<std::size_t>(first - bad.begin());
    check_cluster(values, clusters[c], c);  // throws its error
  }
}

// Per dimension: (max - min) / (distinct values - 1), or 0 with one value.
template <class T>
std::vector<T> level_gaps(const ColumnSorter<T>& columns, std::size_t dimensions) {
  std::vector<T> gaps(dimensions, T(0));
  const auto n = static_cast<std::uint32_t>(columns.points());
  if (n == 0) return gaps;
  for (std::uint32_t k = 0; k < dimensions; ++k) {
    std::uint32_t distinct = 1;
    for (std::uint32_t r = 1; r < n; ++r) distinct += columns.value_at(k, r) != columns.value_at(k, r - 1) ? 1 : 0;
    if (distinct > 1) gaps[k] = (columns.value_at(k, n - 1) - columns.value_at(k, 0)) / static_cast<T>(distinct - 1);
  }
  return gaps;
}

template <class T>
std::vector<WorkingCluster<T>> working_clusters(const ColumnSorter<T>& columns,
                                                const std::vector<SubspaceCluster>& clusters, double fraction,
                                                const std::vector<T>& floors) {
  std::vector<WorkingCluster<T>> out(clusters.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, clusters.size()), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      out[c].dimensions = clusters[c].dimensions;
      out[c].points = clusters[c].points;
      for (std::uint32_t k : out[c].dimensions) {
        out[c].columns.push_back(columns.rank_set(out[c].points, k));
        out[c].reference_span =
            std::max(out[c].reference_span, central_span_of(columns, out[c].columns.back(), k, fraction).width());
        if (!floors.empty()) out[c].reference_span = std::max(out[c].reference_span, floors[k]);
      }
    }
  });
  return out;
}

}  // namespace

template <class T>
ConsolidateResult consolidate_clusters(const ColumnMatrix<T>& values, const std::vector<SubspaceCluster>& clusters,
                                       const ConsolidateParams& params, const StageProgress& progress) {
  check_params(params);
  check_clusters(values, clusters);

  ConsolidateResult result;
  ConsolidateStats& stats = result.stats;
  stats.input_clusters = clusters.size();
  const ColumnSorter<T> columns(values);
  const std::vector<T> floors =
      params.level_gap_floor ? level_gaps(columns, static_cast<std::size_t>(values.cols())) : std::vector<T>{};
  std::vector<WorkingCluster<T>> working = working_clusters(columns, clusters, params.span_fraction, floors);
  std::erase_if(working, [](const WorkingCluster<T>& c) { return c.points.empty() || c.dimensions.empty(); });

  JoinCounters counters;
  if (params.gather) {
    progress.begin("gathering", working.size(), "clusters");
    working = gather_clusters(columns, std::move(working), params, counters, progress);
  }
  bool changed = true;
  while (changed && stats.passes < kMaxPasses) {
    ++stats.passes;
    const std::uint64_t joins_before = counters.joins;
    const std::string pass = "pass " + std::to_string(stats.passes);
    for (std::uint64_t before = ~std::uint64_t{0}; before != counters.joins;) {
      before = counters.joins;
      working = join_round(columns, std::move(working), params, counters, progress, pass + " joining");
    }
    if (params.extend_dimensions) progress.begin(pass + " extending", working.size(), "clusters");
    const std::uint64_t added = params.extend_dimensions ? extend_dimensions(columns, working, params, progress) : 0;
    stats.extended_dimensions += added;
    std::erase_if(working, [](const WorkingCluster<T>& c) { return c.points.empty(); });
    changed = counters.joins != joins_before || added > 0;
  }
  stats.candidate_pairs = counters.candidate_pairs;
  stats.joins = counters.joins;
  stats.rejected_joins = counters.rejected;

  working =
      drop_redundant(std::move(working), static_cast<std::size_t>(values.rows()), params.coverage, stats.redundant);
  working = order_by_interest(std::move(working), params.top_k, stats.over_top_k);

  for (auto& cluster : working) {
    result.sizes.push_back(cluster.points.size());
    result.sources.push_back(cluster.sources);
    result.clusters.push_back({std::move(cluster.dimensions), std::move(cluster.points)});
  }
  stats.clusters = result.clusters.size();
  return result;
}

template ConsolidateResult consolidate_clusters(const Matrix32&, const std::vector<SubspaceCluster>&,
                                                const ConsolidateParams&, const StageProgress&);
template ConsolidateResult consolidate_clusters(const Matrix&, const std::vector<SubspaceCluster>&,
                                                const ConsolidateParams&, const StageProgress&);

}  // namespace subscale::consolidate
