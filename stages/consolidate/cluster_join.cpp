#include "stages/consolidate/cluster_join.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>

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

namespace {

// The greedy joins of one connected component of the candidate graph, in the global pair order.
// Components share no cluster, so they run side by side with the same result as one sequential
// pass over all pairs.
class ComponentJoiner {
 public:
  ComponentJoiner(const Matrix& values, const ConsolidateParams& params, std::vector<WorkingCluster>& clusters,
                  std::vector<std::uint32_t>& parent)
      : values_(values), params_(params), clusters_(clusters), parent_(parent) {}

  void run(const std::vector<OverlapPair>& pairs, JoinCounters& counters) {
    for (const OverlapPair& pair : pairs) try_pair(pair, counters);
  }

 private:
  void try_pair(const OverlapPair& pair, JoinCounters& counters) {
    const std::uint32_t a = find_root(parent_, pair.first);
    const std::uint32_t b = find_root(parent_, pair.second);
    if (a == b) return;
    const std::uint32_t keep = std::min(a, b), drop = std::max(a, b);
    const std::array<std::uint32_t, 4> key{keep, version(keep), drop, version(drop)};
    if (refused_.count(key)) return;
    const WorkingCluster& x = clusters_[a];
    const WorkingCluster& y = clusters_[b];
    if (!overlaps(x, y, params_.overlap)) return;
    std::optional<WorkingCluster> joined = join(x, y);
    if (!joined) {
      ++counters.rejected;
      refused_.insert(key);
      return;
    }
    clusters_[keep] = std::move(*joined);
    clusters_[drop] = {};
    parent_[drop] = keep;
    ++versions_[keep];
    ++counters.joins;
  }

  // S_x ∪ S_y with the points of O_x ∪ O_y inside their box, or nothing when the union fails the
  // span test in a dimension (or the box holds no point).
  std::optional<WorkingCluster> join(const WorkingCluster& x, const WorkingCluster& y) {
    std::vector<std::uint32_t> dimensions = sorted_union(x.dimensions, y.dimensions);
    std::vector<std::uint32_t> points = sorted_union(x.points, y.points);
    const double reference = std::max(x.reference_span, y.reference_span);
    const WorkingCluster* same = points.size() == x.points.size() ? &x : points.size() == y.points.size() ? &y : nullptr;
    const WorkingCluster& big = x.points.size() >= y.points.size() ? x : y;
    auto spans = spans_if_dense(values_, points, dimensions, same, big, params_.span_tolerance * reference,
                                params_.span_fraction, scratch_);
    if (!spans) return std::nullopt;
    WorkingCluster joined{std::move(dimensions), std::move(points), std::move(*spans), reference, x.sources + y.sources};
    // Most joins add a projection whose points the other cluster already holds, give or take a
    // few that the box drops again: then that cluster's spans still hold where it has them.
    std::vector<std::uint32_t> inside = points_in_box(values_, joined.points, joined.dimensions, joined.spans);
    if (inside.empty()) return std::nullopt;
    if (inside.size() != joined.points.size()) {
      joined.points = std::move(inside);
      const WorkingCluster* now_same = joined.points == x.points ? &x : joined.points == y.points ? &y : nullptr;
      joined.spans = *spans_if_dense(values_, joined.points, joined.dimensions, now_same, big,
                                     std::numeric_limits<double>::infinity(), params_.span_fraction, scratch_);
    }
    return joined;
  }

  std::uint32_t version(std::uint32_t c) const {
    const auto found = versions_.find(c);
    return found == versions_.end() ? 0 : found->second;
  }

  const Matrix& values_;
  const ConsolidateParams& params_;
  std::vector<WorkingCluster>& clusters_;
  std::vector<std::uint32_t>& parent_;  // union-find whose root is always the smaller index
  // A refused join of two clusters is refused again until one of them changes: many pairs of
  // input clusters lead to the same two joined ones, so refusals are remembered by version.
  std::map<std::uint32_t, std::uint32_t> versions_;
  std::set<std::array<std::uint32_t, 4>> refused_;
  std::vector<double> scratch_;
};

}  // namespace

std::vector<WorkingCluster> join_round(const Matrix& values, std::vector<WorkingCluster> clusters,
                                       const ConsolidateParams& params, JoinCounters& counters) {
  std::vector<const std::vector<std::uint32_t>*> point_lists;
  point_lists.reserve(clusters.size());
  for (const auto& c : clusters) point_lists.push_back(&c.points);
  const std::vector<OverlapPair> pairs =
      overlapping_pairs(point_lists, static_cast<std::size_t>(values.rows()), params.overlap);
  counters.candidate_pairs += pairs.size();

  // Connected components of the candidate graph; each keeps the global order of its pairs.
  std::vector<std::uint32_t> parent(clusters.size());
  std::iota(parent.begin(), parent.end(), 0u);
  for (const OverlapPair& pair : pairs) {
    const std::uint32_t a = find_root(parent, pair.first), b = find_root(parent, pair.second);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<std::uint32_t> component_of(clusters.size(), 0);
  std::vector<std::vector<OverlapPair>> component_pairs;
  for (std::uint32_t c = 0; c < clusters.size(); ++c) {
    // A root is the smallest index of its component, so it is numbered before its members.
    const std::uint32_t root = find_root(parent, c);
    if (root == c) {
      component_of[c] = static_cast<std::uint32_t>(component_pairs.size());
      component_pairs.emplace_back();
    } else {
      component_of[c] = component_of[root];
    }
  }
  for (const OverlapPair& pair : pairs) component_pairs[component_of[pair.first]].push_back(pair);

  std::iota(parent.begin(), parent.end(), 0u);
  std::vector<JoinCounters> per_component(component_pairs.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, component_pairs.size(), 1),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t k = r.begin(); k != r.end(); ++k) {
                        ComponentJoiner joiner(values, params, clusters, parent);
                        joiner.run(component_pairs[k], per_component[k]);
                      }
                    });
  for (const JoinCounters& c : per_component) counters.joins += c.joins, counters.rejected += c.rejected;
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
