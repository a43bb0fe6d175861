#include "stages/consolidate/cluster_join.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <numeric>
#include <optional>
#include <unordered_set>

#include "stages/consolidate/overlap_pairs.hpp"
#include "stages/consolidate/sorted_ids.hpp"

namespace subscale::consolidate {
namespace {

// Where `dimension` sits in the cluster's sorted dimension list, or -1.
template <class T>
std::ptrdiff_t position_of(const WorkingCluster<T>& cluster, std::uint32_t dimension) {
  const auto found = std::lower_bound(cluster.dimensions.begin(), cluster.dimensions.end(), dimension);
  return found != cluster.dimensions.end() && *found == dimension ? found - cluster.dimensions.begin() : -1;
}

// `column` (sorted) as a multiset, with the values of `points` in `dimension` added (or removed:
// each removed value must be in `column`). Order statistics depend only on the multiset, so the
// result is the sorted column of the new point set, whatever the order of joins that led to it.
template <class T>
std::vector<T> add_values(const ColumnSorter<T>& columns, const std::vector<T>& column,
                          const std::vector<std::uint32_t>& points, std::uint32_t dimension) {
  const std::vector<T> added = columns.sorted(points, dimension);
  std::vector<T> out(column.size() + added.size());
  std::merge(column.begin(), column.end(), added.begin(), added.end(), out.begin());
  return out;
}

template <class T>
std::vector<T> remove_values(const ColumnSorter<T>& columns, const std::vector<T>& column,
                             const std::vector<std::uint32_t>& points, std::uint32_t dimension) {
  const std::vector<T> removed = columns.sorted(points, dimension);
  std::vector<T> out;
  out.reserve(column.size() - std::min(column.size(), removed.size()));
  std::set_difference(column.begin(), column.end(), removed.begin(), removed.end(), std::back_inserter(out));
  return out;
}

// Keeps the points of `cluster` inside the box of its columns' central spans, and takes the
// values of the others out of its columns.
template <class T>
void keep_points_in_box(const ColumnSorter<T>& columns, WorkingCluster<T>& cluster, double fraction) {
  const ColumnMatrix<T>& values = columns.values();
  std::vector<Interval<T>> spans;
  spans.reserve(cluster.columns.size());
  for (const auto& column : cluster.columns) spans.push_back(central_span_of_sorted(column, fraction));
  std::vector<std::uint32_t> inside = points_in_box(values, cluster.points, cluster.dimensions, spans);
  if (inside.size() == cluster.points.size()) return;
  const std::vector<std::uint32_t> outside = sorted_difference(cluster.points, inside);
  for (std::size_t t = 0; t < cluster.dimensions.size(); ++t)
    cluster.columns[t] = remove_values(columns, cluster.columns[t], outside, cluster.dimensions[t]);
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
template <class T>
class ComponentJoiner {
 public:
  ComponentJoiner(const ColumnSorter<T>& columns, const ConsolidateParams& params,
                  std::vector<WorkingCluster<T>>& clusters, std::vector<std::uint32_t>& parent,
                  std::vector<std::uint32_t>& versions)
      : columns_(columns),
        values_(columns.values()),
        params_(params),
        clusters_(clusters),
        parent_(parent),
        versions_(versions) {}

  void run(const std::vector<OverlapPair>& pairs, JoinCounters& counters) {
    for (const OverlapPair& pair : pairs) try_pair(pair, counters);
  }

 private:
  void try_pair(const OverlapPair& pair, JoinCounters& counters) {
    const std::uint32_t a = find_root(parent_, pair.first);
    const std::uint32_t b = find_root(parent_, pair.second);
    if (a == b) return;
    const std::uint32_t keep = std::min(a, b), drop = std::max(a, b);
    const RefusedKey key{keep, versions_[keep], drop, versions_[drop]};
    if (refused_.count(key)) return;
    WorkingCluster<T>& x = clusters_[a];
    WorkingCluster<T>& y = clusters_[b];
    // Their current point sets must still overlap as much as the pair did.
    const std::size_t shared = intersection_size(x.points, y.points);
    const std::size_t smaller = std::min(x.points.size(), y.points.size());
    if (smaller == 0 || static_cast<double>(shared) / static_cast<double>(smaller) < params_.overlap) return;
    std::optional<WorkingCluster<T>> joined = join(x, y, sorted_union(x.points, y.points));
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

  // S_x ∪ S_y with the points of O_x ∪ O_y (`points`) inside their box, or nothing when the
  // union fails the span test in a dimension (or the box holds no point); x or y may be moved
  // from. The result is exact (the same as measuring the union from scratch), but is computed
  // from the larger side's sorted columns and the k points it lacks: for the common join, a
  // projection whose points the other cluster holds already, give or take a few chance members
  // that the box drops again, a dimension costs O(k log k + log n), not O(n). Dimensions new to
  // the larger side are tested first: a join of two different clusters fails there.
  std::optional<WorkingCluster<T>> join(WorkingCluster<T>& x, WorkingCluster<T>& y, std::vector<std::uint32_t> points) {
    WorkingCluster<T>& big = x.points.size() >= y.points.size() ? x : y;
    const WorkingCluster<T>& small = &big == &x ? y : x;
    const std::vector<std::uint32_t> dims = sorted_union(x.dimensions, y.dimensions);
    const T reference = std::max(x.reference_span, y.reference_span);
    const T limit = static_cast<T>(params_.span_tolerance) * reference;
    const std::vector<std::uint32_t> lacks = sorted_difference(small.points, big.points);
    const CentralPositions at = central_positions(points.size(), params_.span_fraction);

    // Spans of the union; `full[t]` is its sorted column where that was built.
    std::vector<Interval<T>> spans(dims.size());
    std::vector<std::vector<T>> full(dims.size());
    std::vector<std::uint8_t> built(dims.size(), 0);
    std::vector<std::ptrdiff_t> in_big(dims.size());
    std::vector<std::uint32_t> small_lacks;  // filled when first needed
    for (const bool new_to_big : {true, false}) {
      for (std::size_t t = 0; t < dims.size(); ++t) {
        const std::uint32_t k = dims[t];
        in_big[t] = position_of(big, k);
        if ((in_big[t] < 0) != new_to_big) continue;
        if (in_big[t] >= 0) {
          const std::vector<T>& column = big.columns[static_cast<std::size_t>(in_big[t])];
          if (lacks.size() * 8 <= column.size()) {
            const std::vector<T> added = columns_.sorted(lacks, k);
            spans[t] = {order_statistic_of_union(column, added, at.low),
                        order_statistic_of_union(column, added, at.high)};
          } else {
            full[t] = add_values(columns_, column, lacks, k), built[t] = 1;
          }
        } else if (const std::ptrdiff_t in_small = position_of(small, k); in_small >= 0) {
          if (small_lacks.empty()) small_lacks = sorted_difference(big.points, small.points);
          full[t] = add_values(columns_, small.columns[static_cast<std::size_t>(in_small)], small_lacks, k),
          built[t] = 1;
        } else {
          full[t] = columns_.sorted(points, k), built[t] = 1;
        }
        if (built[t]) spans[t] = central_span_of_sorted(full[t], params_.span_fraction);
        if (spans[t].width() > limit) return std::nullopt;
      }
    }

    // The box: which of big's points fall out (none in a dimension where its whole column lies
    // inside), and which of the points it lacks are in.
    std::vector<Interval<T>> box(dims.size());
    std::vector<std::size_t> check;  // dimensions in which big's points must be looked at one by one
    for (std::size_t t = 0; t < dims.size(); ++t) {
      const T half = spans[t].width() / T(2);
      box[t] = {spans[t].low - half, spans[t].high + half};
      const bool whole_column_inside = in_big[t] >= 0 &&
                                       big.columns[static_cast<std::size_t>(in_big[t])].front() >= box[t].low &&
                                       big.columns[static_cast<std::size_t>(in_big[t])].back() <= box[t].high;
      if (!whole_column_inside) check.push_back(t);
    }
    const auto inside = [&](std::uint32_t p, std::size_t t) {
      const T v = values_(static_cast<Eigen::Index>(p), static_cast<Eigen::Index>(dims[t]));
      return v >= box[t].low && v <= box[t].high;
    };
    std::vector<std::uint32_t> big_out, lacks_in, removed;
    for (std::uint32_t p : big.points)
      if (!std::all_of(check.begin(), check.end(), [&](std::size_t t) { return inside(p, t); })) big_out.push_back(p);
    for (std::uint32_t p : lacks) {
      bool in = true;
      for (std::size_t t = 0; t < dims.size() && in; ++t) in = inside(p, t);
      (in ? lacks_in : removed).push_back(p);
    }
    if (big_out.size() == big.points.size() && lacks_in.empty()) return std::nullopt;

    WorkingCluster<T> joined;
    joined.reference_span = reference;
    joined.sources = x.sources + y.sources;
    if (big_out.empty() && lacks_in.empty() && dims.size() == big.dimensions.size()) {
      // Nothing changes but the count of sources: big's columns stand.
      joined.dimensions = std::move(big.dimensions);
      joined.points = std::move(big.points);
      joined.columns = std::move(big.columns);
      return joined;
    }
    joined.dimensions = dims;
    joined.points = sorted_difference(big.points, big_out);
    std::vector<std::uint32_t> grown;
    std::set_union(joined.points.begin(), joined.points.end(), lacks_in.begin(), lacks_in.end(),
                   std::back_inserter(grown));
    joined.points = std::move(grown);
    removed = sorted_union(removed, big_out);
    joined.columns.resize(dims.size());
    for (std::size_t t = 0; t < dims.size(); ++t) {
      if (built[t]) {
        joined.columns[t] = removed.empty() ? std::move(full[t]) : remove_values(columns_, full[t], removed, dims[t]);
      } else {
        // big is not needed after the join: its columns are taken over, not copied, where
        // nothing is added to them (most joins add a projection's points to a cluster that
        // holds them already).
        std::vector<T>& column = big.columns[static_cast<std::size_t>(in_big[t])];
        if (!lacks_in.empty()) column = add_values(columns_, column, lacks_in, dims[t]);
        joined.columns[t] = big_out.empty() ? std::move(column) : remove_values(columns_, column, big_out, dims[t]);
      }
    }
    return joined;
  }

  const ColumnSorter<T>& columns_;
  const ColumnMatrix<T>& values_;
  const ConsolidateParams& params_;
  std::vector<WorkingCluster<T>>& clusters_;
  std::vector<std::uint32_t>& parent_;  // union-find whose root is always the smaller index
  // A refused join of two clusters is refused again until one of them changes: many pairs of
  // input clusters lead to the same two joined ones, so refusals are remembered by version.
  // versions_ is shared by all components (each touches only its own clusters' entries); a hash
  // set and a flat array instead of ordered trees took a tenth off the stage on D50.
  struct RefusedKey {
    std::uint32_t keep, keep_version, drop, drop_version;
    bool operator==(const RefusedKey&) const = default;
  };
  struct RefusedKeyHash {
    std::size_t operator()(const RefusedKey& k) const noexcept {
      const std::uint64_t a = (std::uint64_t{k.keep} << 32 | k.keep_version) * 0x9e3779b97f4a7c15ull;
      const std::uint64_t b = (std::uint64_t{k.drop} << 32 | k.drop_version) * 0xc2b2ae3d27d4eb4full;
      return static_cast<std::size_t>(a ^ (b >> 29) ^ b);
    }
  };
  std::vector<std::uint32_t>& versions_;
  std::unordered_set<RefusedKey, RefusedKeyHash> refused_;
};

}  // namespace

template <class T>
std::vector<WorkingCluster<T>> join_round(const ColumnSorter<T>& columns, std::vector<WorkingCluster<T>> clusters,
                                          const ConsolidateParams& params, JoinCounters& counters) {
  std::vector<const std::vector<std::uint32_t>*> point_lists;
  point_lists.reserve(clusters.size());
  for (const auto& c : clusters) point_lists.push_back(&c.points);
  const std::vector<OverlapPair> pairs =
      overlapping_pairs(point_lists, static_cast<std::size_t>(columns.values().rows()), params.overlap);
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
  std::vector<std::uint32_t> versions(clusters.size(), 0);
  std::vector<JoinCounters> per_component(component_pairs.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, component_pairs.size(), 1),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t k = r.begin(); k != r.end(); ++k) {
                        ComponentJoiner<T> joiner(columns, params, clusters, parent, versions);
                        joiner.run(component_pairs[k], per_component[k]);
                      }
                    });
  for (const JoinCounters& c : per_component) counters.joins += c.joins, counters.rejected += c.rejected;
  std::vector<WorkingCluster<T>> out;
  for (std::uint32_t c = 0; c < clusters.size(); ++c)
    if (parent[c] == c) out.push_back(std::move(clusters[c]));
  return out;
}

template <class T>
std::uint64_t extend_dimensions(const ColumnSorter<T>& columns, std::vector<WorkingCluster<T>>& clusters,
                                const ConsolidateParams& params) {
  const ColumnMatrix<T>& values = columns.values();
  const auto dims = static_cast<std::uint32_t>(values.cols());
  std::vector<std::uint64_t> added(clusters.size(), 0);
  tbb::enumerable_thread_specific<std::vector<T>> scratches;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, clusters.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
        std::vector<T>& scratch = scratches.local();
        for (std::size_t c = r.begin(); c != r.end(); ++c) {
          WorkingCluster<T>& cluster = clusters[c];
          if (cluster.points.empty()) continue;
          const T limit = static_cast<T>(params.span_tolerance) * cluster.reference_span;
          WorkingCluster<T> extended;
          std::size_t t = 0;
          for (std::uint32_t k = 0; k < dims; ++k) {
            if (t < cluster.dimensions.size() && cluster.dimensions[t] == k) {
              extended.dimensions.push_back(k);
              extended.columns.push_back(std::move(cluster.columns[t++]));
            } else if (central_span(values, cluster.points, k, params.span_fraction, scratch).width() <= limit) {
              extended.dimensions.push_back(k);
              extended.columns.push_back(columns.sorted(cluster.points, k));
              ++added[c];
            }
          }
          cluster.dimensions = std::move(extended.dimensions);
          cluster.columns = std::move(extended.columns);
          if (added[c] > 0) keep_points_in_box(columns, cluster, params.span_fraction);
        }
      });
  return std::accumulate(added.begin(), added.end(), std::uint64_t{0});
}

template std::vector<WorkingCluster<float>> join_round(const ColumnSorter<float>&, std::vector<WorkingCluster<float>>,
                                                       const ConsolidateParams&, JoinCounters&);
template std::vector<WorkingCluster<double>> join_round(const ColumnSorter<double>&,
                                                        std::vector<WorkingCluster<double>>, const ConsolidateParams&,
                                                        JoinCounters&);
template std::uint64_t extend_dimensions(const ColumnSorter<float>&, std::vector<WorkingCluster<float>>&,
                                         const ConsolidateParams&);
template std::uint64_t extend_dimensions(const ColumnSorter<double>&, std::vector<WorkingCluster<double>>&,
                                         const ConsolidateParams&);

}  // namespace subscale::consolidate
