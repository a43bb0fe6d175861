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
#include <span>
#include <unordered_set>

#include "stages/consolidate/cluster_union.hpp"
#include "stages/consolidate/overlap_pairs.hpp"
#include "stages/consolidate/sorted_ids.hpp"

namespace subscale::consolidate {
namespace {

// Keeps the points of `cluster` inside the box of its columns' central spans, and takes the
// others out of its columns.
template <class T>
void keep_points_in_box(const ColumnSorter<T>& columns, WorkingCluster<T>& cluster, double fraction) {
  const ColumnMatrix<T>& values = columns.values();
  std::vector<Interval<T>> spans;
  spans.reserve(cluster.columns.size());
  for (std::size_t t = 0; t < cluster.columns.size(); ++t)
    spans.push_back(central_span_of(columns, cluster.columns[t], cluster.dimensions[t], fraction));
  std::vector<std::uint32_t> inside = points_in_box(values, cluster.points, cluster.dimensions, spans);
  if (inside.size() == cluster.points.size()) return;
  const std::vector<std::uint32_t> outside = sorted_difference(cluster.points, inside);
  std::vector<std::uint32_t> ranks;
  for (std::size_t t = 0; t < cluster.dimensions.size(); ++t) {
    ranks.clear();
    columns.ranks(outside, cluster.dimensions[t], ranks);
    cluster.columns[t].erase(ranks);
  }
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
      : columns_(columns), params_(params), clusters_(clusters), parent_(parent), versions_(versions) {}

  // Tells `progress` of every kReportEvery pairs tried: one component can hold all of a round's
  // pairs and run for minutes.
  void run(std::span<const OverlapPair> pairs, JoinCounters& counters, const StageProgress& progress) {
    constexpr std::size_t kReportEvery = 4096;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      try_pair(pairs[i], counters);
      if ((i + 1) % kReportEvery == 0) progress.advance(kReportEvery);
    }
    progress.advance(pairs.size() % kReportEvery);
  }

 private:
  void try_pair(const OverlapPair& pair, JoinCounters& counters) {
    const std::uint32_t a = find_root(parent_, pair.first);
    const std::uint32_t b = find_root(parent_, pair.second);
    if (a == b) return;
    const std::uint32_t keep = std::min(a, b), drop = std::max(a, b);
    const RefusedKey key{keep, versions_[keep], drop, versions_[drop]};
    // Two clusters that have joined nothing this round are the pair's own two, and the round
    // holds each pair once: their answer is never asked again, so it is neither looked up nor
    // kept. On tie-heavy data nearly every pair is such a refusal, and a set of them all (tens
    // of millions) made the round memory-bound.
    const bool asked_once = key.keep_version == 0 && key.drop_version == 0;
    if (!asked_once && refused_.count(key)) return;
    WorkingCluster<T>& x = clusters_[a];
    WorkingCluster<T>& y = clusters_[b];
    // Their current point sets must still overlap as much as the pair did: the smaller shares
    // all its points but those the larger lacks.
    const bool x_larger = ClusterUnion<T>::larger(x, y) == &x;
    const WorkingCluster<T>& small = x_larger ? y : x;
    const std::vector<std::uint64_t>& in_larger = members(x_larger ? a : b);
    std::vector<std::uint32_t> lacks;
    for (std::uint32_t p : small.points)
      if (!(in_larger[p >> 6] >> (p & 63) & 1)) lacks.push_back(p);
    const std::size_t smaller = small.points.size();
    const std::size_t shared = smaller - lacks.size();
    if (smaller == 0 || static_cast<double>(shared) / static_cast<double>(smaller) < params_.overlap) {
      // The same two point sets, so the same answer, until one changes.
      if (!asked_once) refused_.insert(key);
      return;
    }
    std::optional<WorkingCluster<T>> joined = union_.join(x, y, lacks);
    if (!joined) {
      ++counters.rejected;
      if (!asked_once) refused_.insert(key);
      return;
    }
    clusters_[keep] = std::move(*joined);
    clusters_[drop] = {};
    parent_[drop] = keep;
    ++versions_[keep];
    ++counters.joins;
  }

  // The points of cluster c as a bitmap. Most pairs of a component meet its largest cluster, so
  // the bitmap is kept until that cluster changes; testing the other side's points against it
  // replaced a merge of the two sorted lists, a tenth of the stage's time on S4500.
  const std::vector<std::uint64_t>& members(std::uint32_t c) {
    if (members_of_ != c || members_version_ != versions_[c]) {
      std::fill(members_.begin(), members_.end(), 0);
      for (std::uint32_t p : clusters_[c].points) members_[p >> 6] |= std::uint64_t{1} << (p & 63);
      members_of_ = c;
      members_version_ = versions_[c];
    }
    return members_;
  }

  const ColumnSorter<T>& columns_;
  const ConsolidateParams& params_;
  std::vector<WorkingCluster<T>>& clusters_;
  std::vector<std::uint32_t>& parent_;  // union-find whose root is always the smaller index
  // A refused join of two clusters (or two that no longer overlap enough) is refused again until
  // one of them changes: many pairs of input clusters lead to the same two joined ones, so
  // refusals are remembered by version.
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
  ClusterUnion<T> union_{columns_, params_};
  std::vector<std::uint64_t> members_ = std::vector<std::uint64_t>((columns_.points() + 63) / 64, 0);
  std::uint32_t members_of_ = ~std::uint32_t{0};  // members_ holds this cluster's points
  std::uint32_t members_version_ = 0;             // at this version
};

}  // namespace

template <class T>
Interval<T> central_span_of(const ColumnSorter<T>& columns, const RankSet& column, std::uint32_t dimension,
                            double fraction) {
  if (column.empty()) return {};
  const CentralPositions at = central_positions(column.size(), fraction);
  const auto [low, high] = column.select(at.low, at.high);
  return {columns.value_at(dimension, low), columns.value_at(dimension, high)};
}

template <class T>
std::vector<WorkingCluster<T>> join_round(const ColumnSorter<T>& columns, std::vector<WorkingCluster<T>> clusters,
                                          const ConsolidateParams& params, JoinCounters& counters,
                                          const StageProgress& progress, const std::string& phase) {
  std::vector<const std::vector<std::uint32_t>*> point_lists;
  point_lists.reserve(clusters.size());
  for (const auto& c : clusters) point_lists.push_back(&c.points);
  // Finding the pairs can take a minute of its own where many clusters share a few points: its own
  // phase, so that the last phase's 100% does not stand for it.
  progress.begin(phase + " (finding pairs)", clusters.size(), "clusters");
  const std::vector<OverlapPair> pairs =
      overlapping_pairs(point_lists, static_cast<std::size_t>(columns.values().rows()), params.overlap);
  progress.advance(clusters.size());
  counters.candidate_pairs += pairs.size();
  progress.begin(phase, pairs.size(), "pairs");

  // Connected components of the candidate graph; each keeps the global order of its pairs.
  std::vector<std::uint32_t> parent(clusters.size());
  std::iota(parent.begin(), parent.end(), 0u);
  for (const OverlapPair& pair : pairs) {
    const std::uint32_t a = find_root(parent, pair.first), b = find_root(parent, pair.second);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  // The components that hold pairs, and their pairs gathered by a stable counting sort, so each
  // keeps the global order; a single component (all of D50's pairs) runs on the list as it is.
  constexpr std::uint32_t kNone = ~std::uint32_t{0};
  for (std::uint32_t c = 0; c < clusters.size(); ++c) parent[c] = find_root(parent, c);
  std::vector<std::uint32_t> component_of(clusters.size(), kNone);
  std::vector<std::size_t> begin{0};
  for (const OverlapPair& pair : pairs) {
    std::uint32_t& component = component_of[parent[pair.first]];
    if (component == kNone) component = static_cast<std::uint32_t>(begin.size() - 1), begin.push_back(0);
    ++begin[component + 1];
  }
  const std::size_t components = begin.size() - 1;
  for (std::size_t k = 0; k < components; ++k) begin[k + 1] += begin[k];
  std::vector<OverlapPair> grouped;
  if (components > 1) {
    grouped.resize(pairs.size());
    std::vector<std::size_t> next(begin.begin(), begin.end() - 1);
    for (const OverlapPair& pair : pairs) grouped[next[component_of[parent[pair.first]]]++] = pair;
  }
  const std::vector<OverlapPair>& by_component = components > 1 ? grouped : pairs;

  std::iota(parent.begin(), parent.end(), 0u);
  std::vector<std::uint32_t> versions(clusters.size(), 0);
  std::vector<JoinCounters> per_component(components);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, components, 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      ComponentJoiner<T> joiner(columns, params, clusters, parent, versions);
      joiner.run(std::span(by_component.data() + begin[k], begin[k + 1] - begin[k]), per_component[k], progress);
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
                                const ConsolidateParams& params, const StageProgress& progress) {
  const ColumnMatrix<T>& values = columns.values();
  const auto dims = static_cast<std::uint32_t>(values.cols());
  std::vector<std::uint64_t> added(clusters.size(), 0);
  tbb::enumerable_thread_specific<std::vector<T>> scratches;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, clusters.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
        std::vector<T>& scratch = scratches.local();
        for (std::size_t c = r.begin(); c != r.end(); ++c) {
          WorkingCluster<T>& cluster = clusters[c];
          if (cluster.points.empty() || cluster.extended) continue;
          const T limit = static_cast<T>(params.span_tolerance) * cluster.reference_span;
          WorkingCluster<T> extended;
          std::size_t t = 0;
          for (std::uint32_t k = 0; k < dims; ++k) {
            if (t < cluster.dimensions.size() && cluster.dimensions[t] == k) {
              extended.dimensions.push_back(k);
              extended.columns.push_back(std::move(cluster.columns[t++]));
            } else if (central_span(values, cluster.points, k, params.span_fraction, scratch).width() <= limit) {
              extended.dimensions.push_back(k);
              extended.columns.push_back(columns.rank_set(cluster.points, k));
              ++added[c];
            }
          }
          cluster.dimensions = std::move(extended.dimensions);
          cluster.columns = std::move(extended.columns);
          if (added[c] > 0) {
            cluster.outside_columns.clear();  // its points and dimensions change
            keep_points_in_box(columns, cluster, params.span_fraction);
          } else {
            cluster.extended = true;
          }
        }
        progress.advance(r.size());
      });
  return std::accumulate(added.begin(), added.end(), std::uint64_t{0});
}

#define SUBSCALE_CLUSTER_JOIN_FOR(T)                                                                                \
  template Interval<T> central_span_of(const ColumnSorter<T>&, const RankSet&, std::uint32_t, double);              \
  template std::vector<WorkingCluster<T>> join_round(const ColumnSorter<T>&, std::vector<WorkingCluster<T>>,        \
                                                     const ConsolidateParams&, JoinCounters&, const StageProgress&, \
                                                     const std::string&);                                           \
  template std::uint64_t extend_dimensions(const ColumnSorter<T>&, std::vector<WorkingCluster<T>>&,                 \
                                           const ConsolidateParams&, const StageProgress&);
SUBSCALE_CLUSTER_JOIN_FOR(float)
SUBSCALE_CLUSTER_JOIN_FOR(double)
#undef SUBSCALE_CLUSTER_JOIN_FOR

}  // namespace subscale::consolidate
