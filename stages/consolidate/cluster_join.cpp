#include "stages/consolidate/cluster_join.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <optional>

#include "stages/consolidate/overlap_pairs.hpp"

namespace subscale::consolidate {
namespace {

std::vector<std::uint32_t> sorted_union(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::vector<std::uint32_t> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool overlaps(const WorkingCluster& a, const WorkingCluster& b, double threshold) {
  const std::size_t smaller = std::min(a.points.size(), b.points.size());
  if (smaller == 0) return false;
  return static_cast<double>(intersection_size(a.points, b.points)) / static_cast<double>(smaller) >= threshold;
}

// The central spans of `points` over `dimensions`, or nothing as soon as one is wider than
// `limit`. `same` is a cluster whose points are exactly `points` (or null): its spans are reused.
// The dimensions new to `big` (the cluster contributing most points) are measured first, since a
// join of two different clusters fails there; the others mostly pass.
std::optional<std::vector<Interval>> spans_if_dense(const Matrix& values, const std::vector<std::uint32_t>& points,
                                                    const std::vector<std::uint32_t>& dimensions,
                                                    const WorkingCluster* same, const WorkingCluster& big,
                                                    double limit, double fraction, std::vector<double>& scratch) {
  std::vector<Interval> spans(dimensions.size());
  std::vector<std::uint8_t> known(dimensions.size(), 0);
  if (same) {
    for (std::size_t t = 0, u = 0; t < dimensions.size() && u < same->dimensions.size(); ++t) {
      while (u < same->dimensions.size() && same->dimensions[u] < dimensions[t]) ++u;
      if (u < same->dimensions.size() && same->dimensions[u] == dimensions[t]) {
        spans[t] = same->spans[u], known[t] = 1;
        if (spans[t].width() > limit) return std::nullopt;
      }
    }
  }
  for (const bool new_to_big : {true, false}) {
    for (std::size_t t = 0; t < dimensions.size(); ++t) {
      if (known[t]) continue;
      if (new_to_big == std::binary_search(big.dimensions.begin(), big.dimensions.end(), dimensions[t])) continue;
      spans[t] = central_span(values, points, dimensions[t], fraction, scratch), known[t] = 1;
      if (spans[t].width() > limit) return std::nullopt;
    }
  }
  return spans;
}

// Keeps the points of `cluster` inside its box; its spans are measured again only when that drops
// a point.
void keep_points_in_box(const Matrix& values, WorkingCluster& cluster, double fraction, std::vector<double>& scratch) {
  std::vector<std::uint32_t> inside = points_in_box(values, cluster.points, cluster.dimensions, cluster.spans);
  if (inside.size() == cluster.points.size()) return;
  cluster.points = std::move(inside);
  cluster.spans = central_spans(values, cluster.points, cluster.dimensions, fraction, scratch);
}

std::uint32_t find_root(std::vector<std::uint32_t>& parent, std::uint32_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

std::vector<WorkingCluster> join_round(const Matrix& values, std::vector<WorkingCluster> clusters,
                                       const ConsolidateParams& params, JoinCounters& counters) {
  std::vector<const std::vector<std::uint32_t>*> point_lists;
  point_lists.reserve(clusters.size());
  for (const auto& c : clusters) point_lists.push_back(&c.points);
  const std::vector<OverlapPair> pairs =
      overlapping_pairs(point_lists, static_cast<std::size_t>(values.rows()), params.overlap);
  counters.candidate_pairs += pairs.size();

  // Union-find whose root is always the smaller index, so the survivor of a join is fixed.
  std::vector<std::uint32_t> parent(clusters.size());
  std::iota(parent.begin(), parent.end(), 0u);
  std::vector<double> scratch;
  for (const OverlapPair& pair : pairs) {
    const std::uint32_t a = find_root(parent, pair.first);
    const std::uint32_t b = find_root(parent, pair.second);
    if (a == b) continue;
    WorkingCluster& x = clusters[a];
    WorkingCluster& y = clusters[b];
    if (!overlaps(x, y, params.overlap)) continue;
    std::vector<std::uint32_t> dimensions = sorted_union(x.dimensions, y.dimensions);
    std::vector<std::uint32_t> points = sorted_union(x.points, y.points);
    const double reference = std::max(x.reference_span, y.reference_span);
    const WorkingCluster* same = points.size() == x.points.size() ? &x : points.size() == y.points.size() ? &y : nullptr;
    const WorkingCluster& big = x.points.size() >= y.points.size() ? x : y;
    auto spans = spans_if_dense(values, points, dimensions, same, big, params.span_tolerance * reference,
                                params.span_fraction, scratch);
    if (!spans) {
      ++counters.rejected;
      continue;
    }
    WorkingCluster joined{std::move(dimensions), std::move(points), std::move(*spans), reference, x.sources + y.sources};
    keep_points_in_box(values, joined, params.span_fraction, scratch);
    if (joined.points.empty()) {
      ++counters.rejected;
      continue;
    }
    const std::uint32_t keep = std::min(a, b), drop = std::max(a, b);
    clusters[keep] = std::move(joined);
    clusters[drop] = {};
    parent[drop] = keep;
    ++counters.joins;
  }
  std::vector<WorkingCluster> out;
  for (std::uint32_t c = 0; c < clusters.size(); ++c)
    if (parent[c] == c) out.push_back(std::move(clusters[c]));
  return out;
}

std::uint64_t extend_dimensions(const Matrix& values, std::vector<WorkingCluster>& clusters,
                                const ConsolidateParams& params) {
  const auto dims = static_cast<std::uint32_t>(values.cols());
  std::vector<std::uint64_t> added(clusters.size(), 0);
  tbb::enumerable_thread_specific<std::vector<double>> scratches;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, clusters.size(), 1),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      std::vector<double>& scratch = scratches.local();
                      for (std::size_t c = r.begin(); c != r.end(); ++c) {
                        WorkingCluster& cluster = clusters[c];
                        if (cluster.points.empty()) continue;
                        const double limit = params.span_tolerance * cluster.reference_span;
                        std::vector<std::uint32_t> dimensions;
                        std::vector<Interval> spans;
                        std::size_t t = 0;
                        for (std::uint32_t k = 0; k < dims; ++k) {
                          if (t < cluster.dimensions.size() && cluster.dimensions[t] == k) {
                            dimensions.push_back(k), spans.push_back(cluster.spans[t]), ++t;
                            continue;
                          }
                          const Interval span = central_span(values, cluster.points, k, params.span_fraction, scratch);
                          if (span.width() <= limit) dimensions.push_back(k), spans.push_back(span), ++added[c];
                        }
                        if (added[c] == 0) continue;
                        cluster.dimensions = std::move(dimensions);
                        cluster.spans = std::move(spans);
                        keep_points_in_box(values, cluster, params.span_fraction, scratch);
                      }
                    });
  return std::accumulate(added.begin(), added.end(), std::uint64_t{0});
}

}  // namespace subscale::consolidate
