#include "stages/consolidate/cluster_union.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "stages/consolidate/sorted_ids.hpp"

namespace subscale::consolidate {
namespace {

// Where `dimension` sits in the cluster's sorted dimension list, or -1.
template <class T>
std::ptrdiff_t position_of(const WorkingCluster<T>& cluster, std::uint32_t dimension) {
  const auto found = std::lower_bound(cluster.dimensions.begin(), cluster.dimensions.end(), dimension);
  return found != cluster.dimensions.end() && *found == dimension ? found - cluster.dimensions.begin() : -1;
}

}  // namespace

template <class T>
ClusterUnion<T>::ClusterUnion(const ColumnSorter<T>& columns, const ConsolidateParams& params)
    : columns_(columns), values_(columns.values()), params_(params), scratch_bits_((columns.points() + 63) / 64, 0) {}

// S_x ∪ S_y with the points of O_x ∪ O_y inside their box, or nothing when the union fails the
// span test in a dimension (or the box holds no point); x or y may be moved from. `lacks` are
// the smaller one's points that the larger lacks. The result is exact (the same as measuring
// the union from scratch), but is computed from the two sides' rank sets and the points one of
// them lacks: for the common join, a projection whose points the other cluster holds already,
// give or take a few chance members that the box drops again, a dimension costs a scan of the
// few words of its bitmap the cluster's ranks lie in (or of a short list), not a merge of
// sorted columns. Dimensions new to the
// larger side are tested first: a join of two different clusters fails there.
template <class T>
const RankSet& ClusterUnion<T>::outside_column(WorkingCluster<T>& cluster, std::uint32_t dimension) {
  auto& built = cluster.outside_columns;
  const auto at = std::lower_bound(built.begin(), built.end(), dimension,
                                   [](const auto& entry, std::uint32_t k) { return entry.first < k; });
  if (at != built.end() && at->first == dimension) return at->second;
  return built.emplace(at, dimension, columns_.rank_set(cluster.points, dimension))->second;
}

template <class T>
std::optional<WorkingCluster<T>> ClusterUnion<T>::join(WorkingCluster<T>& x, WorkingCluster<T>& y,
                                                       const std::vector<std::uint32_t>& lacks) {
  WorkingCluster<T>& big = *larger(x, y);
  WorkingCluster<T>& small = &big == &x ? y : x;
  const std::vector<std::uint32_t> dims = sorted_union(x.dimensions, y.dimensions);
  const T reference = std::max(x.reference_span, y.reference_span);
  const T limit = static_cast<T>(params_.span_tolerance) * reference;
  const CentralPositions at = central_positions(big.points.size() + lacks.size(), params_.span_fraction);

  // The union's span in each dimension, read off the rank set of the side that has the
  // dimension together with the ranks of the points it lacks.
  // The per-join lists live in the object: a join's allocations were a tenth of its cost.
  std::vector<Interval<T>>& spans = spans_;
  std::vector<std::ptrdiff_t>& in_big = in_big_;
  std::vector<std::ptrdiff_t>& in_small = in_small_;
  spans.assign(dims.size(), {});
  in_big.assign(dims.size(), -1);
  in_small.assign(dims.size(), -1);
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
        // The union is big's points and the ones it lacks here too; big's ranks in a dimension
        // it does not have are kept for the next join that asks (many small clusters are tried
        // against one large one, most of them bringing the same few dimensions).
        columns_.ranks(lacks, k, ranks_);
        ends = outside_column(big, k).select(at.low, at.high, ranks_, scratch_bits_);
      }
      spans[t] = {columns_.value_at(k, ends.first), columns_.value_at(k, ends.second)};
      if (spans[t].width() > limit) return std::nullopt;
    }
  }

  // The box: which of big's points fall out, and which of the points it lacks are in. Big's
  // points outside the box in a dimension are the first and the last few of its ranks there:
  // read off its column (or its ranks outside its subspace) from both ends, not point by point.
  std::vector<Interval<T>>& box = box_;
  box.assign(dims.size(), {});
  std::vector<std::uint32_t>& big_out = left_;
  std::vector<std::uint32_t>& lacks_in = came_;
  std::vector<std::uint32_t>& removed = removed_;
  big_out.clear();
  lacks_in.clear();
  removed.clear();
  for (std::size_t t = 0; t < dims.size(); ++t) {
    const std::uint32_t k = dims[t];
    const T half = spans[t].width() / T(2);
    box[t] = {spans[t].low - half, spans[t].high + half};
    const RankSet& column = in_big[t] >= 0 ? big.columns[static_cast<std::size_t>(in_big[t])] : outside_column(big, k);
    column.scan_up([&](std::uint32_t r) {
      if (columns_.value_at(k, r) >= box[t].low) return false;
      big_out.push_back(columns_.point_at(k, r));
      return true;
    });
    column.scan_down([&](std::uint32_t r) {
      if (columns_.value_at(k, r) <= box[t].high) return false;
      big_out.push_back(columns_.point_at(k, r));
      return true;
    });
  }
  std::sort(big_out.begin(), big_out.end());
  big_out.erase(std::unique(big_out.begin(), big_out.end()), big_out.end());
  const auto inside = [&](std::uint32_t p, std::size_t t) {
    const T v = values_(static_cast<Eigen::Index>(p), static_cast<Eigen::Index>(dims[t]));
    return v >= box[t].low && v <= box[t].high;
  };
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
    joined.outside_columns = std::move(big.outside_columns);
    return joined;
  }
  std::vector<std::uint32_t> small_lacks;  // needed for the dimensions new to big
  if (dims.size() > big.dimensions.size()) small_lacks = sorted_difference(big.points, small.points);
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

template class ClusterUnion<float>;
template class ClusterUnion<double>;

}  // namespace subscale::consolidate
