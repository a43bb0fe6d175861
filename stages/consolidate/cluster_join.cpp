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
      : columns_(columns),
        values_(columns.values()),
        params_(params),
        clusters_(clusters),
        parent_(parent),
        versions_(versions) {}

  void run(std::span<const OverlapPair> pairs, JoinCounters& counters) {
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
    // Their current point sets must still overlap as much as the pair did: the smaller shares
    // all its points but those the larger lacks.
    const bool x_larger = larger(x, y) == &x;
    const WorkingCluster<T>& small = x_larger ? y : x;
    const std::vector<std::uint64_t>& in_larger = members(x_larger ? a : b);
    std::vector<std::uint32_t> lacks;
    for (std::uint32_t p : small.points)
      if (!(in_larger[p >> 6] >> (p & 63) & 1)) lacks.push_back(p);
    const std::size_t smaller = small.points.size();
    const std::size_t shared = smaller - lacks.size();
    if (smaller == 0 || static_cast<double>(shared) / static_cast<double>(smaller) < params_.overlap) {
      refused_.insert(key);  // the same two point sets, so the same answer, until one changes
      return;
    }
    std::optional<WorkingCluster<T>> joined = join(x, y, std::move(lacks));
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

  // Of two clusters, the one whose columns a join starts from: the larger, x on a tie.
  static WorkingCluster<T>* larger(WorkingCluster<T>& x, WorkingCluster<T>& y) {
    return x.points.size() >= y.points.size() ? &x : &y;
  }

  // S_x ∪ S_y with the points of O_x ∪ O_y inside their box, or nothing when the union fails the
  // span test in a dimension (or the box holds no point); x or y may be moved from. `lacks` are
  // the smaller one's points that the larger lacks. The result is exact (the same as measuring
  // the union from scratch), but is computed from the two sides' rank sets and the points one of
  // them lacks: for the common join, a projection whose points the other cluster holds already,
  // give or take a few chance members that the box drops again, a dimension costs a scan of
  // n / 64 words (or of a short list), not a merge of sorted columns. Dimensions new to the
  // larger side are tested first: a join of two different clusters fails there.
  std::optional<WorkingCluster<T>> join(WorkingCluster<T>& x, WorkingCluster<T>& y,
                                        const std::vector<std::uint32_t>& lacks) {
    WorkingCluster<T>& big = *larger(x, y);
    WorkingCluster<T>& small = &big == &x ? y : x;
    const std::vector<std::uint32_t> dims = sorted_union(x.dimensions, y.dimensions);
    const T reference = std::max(x.reference_span, y.reference_span);
    const T limit = static_cast<T>(params_.span_tolerance) * reference;
    const CentralPositions at = central_positions(big.points.size() + lacks.size(), params_.span_fraction);

    // The union's span in each dimension, read off the rank set of the side that has the
    // dimension together with the ranks of the points it lacks.
    std::vector<Interval<T>> spans(dims.size());
    std::vector<std::ptrdiff_t> in_big(dims.size()), in_small(dims.size());
    std::vector<std::uint32_t> small_lacks;  // filled when first needed
    bool have_small_lacks = false;
    for (const bool new_to_big : {true, false}) {
      for (std::size_t t = 0; t < dims.size(); ++t) {
        const std::uint32_t k = dims[t];
        in_big[t] = position_of(big, k);
        if ((in_big[t] < 0) != new_to_big) continue;
        in_small[t] = in_big[t] >= 0 ? -1 : position_of(small, k);
        std::pair<std::uint32_t, std::uint32_t> ends;
        ranks_.clear();
        if (in_big[t] >= 0) {
          columns_.ranks(lacks, k, ranks_);
          ends = big.columns[static_cast<std::size_t>(in_big[t])].select(at.low, at.high, ranks_, scratch_bits_);
        } else {
          if (!have_small_lacks) small_lacks = sorted_difference(big.points, small.points), have_small_lacks = true;
          columns_.ranks(small_lacks, k, ranks_);
          ends = small.columns[static_cast<std::size_t>(in_small[t])].select(at.low, at.high, ranks_, scratch_bits_);
        }
        spans[t] = {columns_.value_at(k, ends.first), columns_.value_at(k, ends.second)};
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
      bool whole_column_inside = false;
      if (in_big[t] >= 0) {
        const RankSet& column = big.columns[static_cast<std::size_t>(in_big[t])];
        whole_column_inside = columns_.value_at(dims[t], column.front()) >= box[t].low &&
                              columns_.value_at(dims[t], column.back()) <= box[t].high;
      }
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
    joined.points = sorted_difference(big.points, big_out);
    joined.points = sorted_union(joined.points, lacks_in);
    removed = sorted_union(removed, big_out);
    joined.columns.resize(dims.size());
    // Neither side is needed after the join, so their columns are taken over, not copied.
    for (std::size_t t = 0; t < dims.size(); ++t) {
      const std::uint32_t k = dims[t];
      RankSet& column = joined.columns[t];
      ranks_.clear();
      if (in_big[t] >= 0) {
        column = std::move(big.columns[static_cast<std::size_t>(in_big[t])]);
        columns_.ranks(lacks_in, k, ranks_);
        column.insert(ranks_);
        ranks_.clear();
        columns_.ranks(big_out, k, ranks_);
      } else {
        column = std::move(small.columns[static_cast<std::size_t>(in_small[t])]);
        columns_.ranks(small_lacks, k, ranks_);
        column.insert(ranks_);
        ranks_.clear();
        columns_.ranks(removed, k, ranks_);
      }
      column.erase(ranks_);
    }
    joined.dimensions = dims;
    return joined;
  }

  const ColumnSorter<T>& columns_;
  const ColumnMatrix<T>& values_;
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
  std::vector<std::uint32_t> ranks_;  // scratch for a dimension's ranks of some points
  std::vector<std::uint64_t> scratch_bits_ = std::vector<std::uint64_t>((columns_.points() + 63) / 64, 0);
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
      joiner.run(std::span(by_component.data() + begin[k], begin[k + 1] - begin[k]), per_component[k]);
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
              extended.columns.push_back(columns.rank_set(cluster.points, k));
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

#define SUBSCALE_CLUSTER_JOIN_FOR(T)                                                                         \
  template Interval<T> central_span_of(const ColumnSorter<T>&, const RankSet&, std::uint32_t, double);       \
  template std::vector<WorkingCluster<T>> join_round(const ColumnSorter<T>&, std::vector<WorkingCluster<T>>, \
                                                     const ConsolidateParams&, JoinCounters&);               \
  template std::uint64_t extend_dimensions(const ColumnSorter<T>&, std::vector<WorkingCluster<T>>&,          \
                                           const ConsolidateParams&);
SUBSCALE_CLUSTER_JOIN_FOR(float)
SUBSCALE_CLUSTER_JOIN_FOR(double)
#undef SUBSCALE_CLUSTER_JOIN_FOR

}  // namespace subscale::consolidate
