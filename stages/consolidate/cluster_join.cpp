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

std::vector<std::uint32_t> sorted_difference(const std::vector<std::uint32_t>& a,
                                             const std::vector<std::uint32_t>& b) {
  std::vector<std::uint32_t> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool overlaps(const WorkingCluster& a, const WorkingCluster& b, double threshold) {
  const std::size_t smaller = std::min(a.points.size(), b.points.size());
  if (smaller == 0) return false;
  return static_cast<double>(intersection_size(a.points, b.points)) / static_cast<double>(smaller) >= threshold;
}

// Where `dimension` sits in the cluster's sorted dimension list, or -1.
std::ptrdiff_t position_of(const WorkingCluster& cluster, std::uint32_t dimension) {
  const auto found = std::lower_bound(cluster.dimensions.begin(), cluster.dimensions.end(), dimension);
  return found != cluster.dimensions.end() && *found == dimension ? found - cluster.dimensions.begin() : -1;
}

// `column` (sorted) as a multiset, with the values of `points` in `dimension` added (or removed:
// each removed value must be in `column`). Order statistics depend only on the multiset, so the
// result is the sorted column of the new point set, whatever the order of joins that led to it.
std::vector<double> add_values(const Matrix& values, const std::vector<double>& column,
                               const std::vector<std::uint32_t>& points, std::uint32_t dimension) {
  const std::vector<double> added = sorted_column(values, points, dimension);
  std::vector<double> out(column.size() + added.size());
  std::merge(column.begin(), column.end(), added.begin(), added.end(), out.begin());
  return out;
}

std::vector<double> remove_values(const Matrix& values, const std::vector<double>& column,
                                  const std::vector<std::uint32_t>& points, std::uint32_t dimension) {
  const std::vector<double> removed = sorted_column(values, points, dimension);
  std::vector<double> out;
  out.reserve(column.size() - std::min(column.size(), removed.size()));
  std::set_difference(column.begin(), column.end(), removed.begin(), removed.end(), std::back_inserter(out));
  return out;
}

// Keeps the points of `cluster` inside the box of its columns' central spans, and takes the
// values of the others out of its columns.
void keep_points_in_box(const Matrix& values, WorkingCluster& cluster, double fraction) {
  std::vector<Interval> spans;
  spans.reserve(cluster.columns.size());
  for (const auto& column : cluster.columns) spans.push_back(central_span_of_sorted(column, fraction));
  std::vector<std::uint32_t> inside = points_in_box(values, cluster.points, cluster.dimensions, spans);
  if (inside.size() == cluster.points.size()) return;
  const std::vector<std::uint32_t> outside = sorted_difference(cluster.points, inside);
  for (std::size_t t = 0; t < cluster.dimensions.size(); ++t)
    cluster.columns[t] = remove_values(values, cluster.columns[t], outside, cluster.dimensions[t]);
  cluster.points = std::move(inside);
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
  // span test in a dimension (or the box holds no point). A dimension of one side takes that
  // side's sorted column plus the values of the points it lacks, usually few; the larger side is
  // preferred. Dimensions new to the larger side are tested first: a join of two different
  // clusters fails there, the others mostly pass.
  std::optional<WorkingCluster> join(const WorkingCluster& x, const WorkingCluster& y) {
    const WorkingCluster& big = x.points.size() >= y.points.size() ? x : y;
    const WorkingCluster& small = &big == &x ? y : x;
    WorkingCluster joined;
    joined.dimensions = sorted_union(x.dimensions, y.dimensions);
    joined.points = sorted_union(x.points, y.points);
    joined.reference_span = std::max(x.reference_span, y.reference_span);
    joined.sources = x.sources + y.sources;
    const double limit = params_.span_tolerance * joined.reference_span;
    std::vector<std::uint32_t> big_lacks = sorted_difference(joined.points, big.points);
    std::vector<std::uint32_t> small_lacks;  // computed when first needed
    joined.columns.resize(joined.dimensions.size());
    for (const bool new_to_big : {true, false}) {
      for (std::size_t t = 0; t < joined.dimensions.size(); ++t) {
        const std::uint32_t k = joined.dimensions[t];
        const std::ptrdiff_t in_big = position_of(big, k);
        if ((in_big < 0) != new_to_big) continue;
        if (in_big >= 0) {
          joined.columns[t] = add_values(values_, big.columns[static_cast<std::size_t>(in_big)], big_lacks, k);
        } else if (const std::ptrdiff_t in_small = position_of(small, k); in_small >= 0) {
          if (small_lacks.empty()) small_lacks = sorted_difference(joined.points, small.points);
          joined.columns[t] = add_values(values_, small.columns[static_cast<std::size_t>(in_small)], small_lacks, k);
        } else {
          joined.columns[t] = sorted_column(values_, joined.points, k);
        }
        if (central_span_of_sorted(joined.columns[t], params_.span_fraction).width() > limit) return std::nullopt;
      }
    }
    keep_points_in_box(values_, joined, params_.span_fraction);
    if (joined.points.empty()) return std::nullopt;
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

std::vector<double> sorted_column(const Matrix& values, const std::vector<std::uint32_t>& points,
                                  std::uint32_t dimension) {
  std::vector<double> column(points.size());
  const auto source = values.col(static_cast<Eigen::Index>(dimension));
  for (std::size_t i = 0; i < points.size(); ++i) column[i] = source(static_cast<Eigen::Index>(points[i]));
  std::sort(column.begin(), column.end());
  return column;
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
                        WorkingCluster extended;
                        std::size_t t = 0;
                        for (std::uint32_t k = 0; k < dims; ++k) {
                          if (t < cluster.dimensions.size() && cluster.dimensions[t] == k) {
                            extended.dimensions.push_back(k);
                            extended.columns.push_back(std::move(cluster.columns[t++]));
                          } else if (central_span(values, cluster.points, k, params.span_fraction, scratch).width() <=
                                     limit) {
                            extended.dimensions.push_back(k);
                            extended.columns.push_back(sorted_column(values, cluster.points, k));
                            ++added[c];
                          }
                        }
                        cluster.dimensions = std::move(extended.dimensions);
                        cluster.columns = std::move(extended.columns);
                        if (added[c] > 0) keep_points_in_box(values, cluster, params.span_fraction);
                      }
                    });
  return std::accumulate(added.begin(), added.end(), std::uint64_t{0});
}

}  // namespace subscale::consolidate
