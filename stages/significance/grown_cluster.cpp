#include "stages/significance/grown_cluster.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/held_values.hpp"
#include "stages/merge/cell_index.hpp"
#include "stages/merge/neighbour_test.hpp"
#include "stages/significance/cluster_score.hpp"

namespace subscale::significance {
namespace {

// A box in the subspace's dimensions (one interval per dimension, in S's order).
struct Window {
  std::vector<double> lo, hi;
};

// The data's points inside a window of S, with their neighbours at merge's radius on demand.
template <class T>
class PointsInWindow {
 public:
  PointsInWindow(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& dimensions, const Window& window,
                 double epsilon)
      : points_(inside(values, dimensions, window)),
        index_(values, dimensions, points_, epsilon),
        slot_(values.rows(), kNone),
        cell_of_slot_(points_.size()) {
    const T held = held_epsilon<T>(epsilon);
    limit_ = held * held;
    for (std::size_t c = 0; c < index_.cells(); ++c) {
      const auto range = index_.cell(c);
      for (std::uint32_t i = range.begin; i < range.end; ++i) cell_of_slot_[i] = static_cast<std::uint32_t>(c);
    }
    for (std::size_t i = 0; i < index_.size(); ++i) slot_[points_[index_.position(i)]] = static_cast<std::uint32_t>(i);
  }

  // The points of the window within the radius of `point` (a point of the window, itself
  // included), as point ids, into `out`.
  void neighbours(std::uint32_t point, std::vector<std::uint32_t>& out) const {
    out.clear();
    const std::uint32_t i = slot_[point];
    const T* x = index_.coordinates(i);
    for (const auto& range : index_.candidates(cell_of_slot_[i]))
      for (std::uint32_t j = range.begin; j < range.end; ++j)
        if (merge::within(x, index_.coordinates(j), index_.width(), limit_)) out.push_back(points_[index_.position(j)]);
  }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  static std::vector<std::uint32_t> inside(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& dimensions,
                                           const Window& window) {
    std::vector<char> in(static_cast<std::size_t>(values.rows()), 1);
    for (std::size_t t = 0; t < dimensions.size(); ++t) {
      const T* column = values.col(dimensions[t]).data();
      for (std::size_t p = 0; p < in.size(); ++p) {
        const double x = column[p];
        in[p] = in[p] && x >= window.lo[t] && x <= window.hi[t];
      }
    }
    std::vector<std::uint32_t> points;
    for (std::size_t p = 0; p < in.size(); ++p)
      if (in[p]) points.push_back(static_cast<std::uint32_t>(p));
    return points;
  }

  std::vector<std::uint32_t> points_;  // ascending ids
  merge::CellIndex<T> index_;
  std::vector<std::uint32_t> slot_;          // point id -> its place in the index
  std::vector<std::uint32_t> cell_of_slot_;  // place in the index -> its cell
  T limit_ = 0;
};

// The box of `points` in S, `margin` wider on every side.
template <class T>
Window window_around(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& dimensions,
                     const std::vector<std::uint32_t>& points, double margin) {
  Window w;
  for (const auto j : dimensions) {
    double lo = values(points.front(), j), hi = lo;
    for (const auto p : points) {
      lo = std::min<double>(lo, values(p, j));
      hi = std::max<double>(hi, values(p, j));
    }
    w.lo.push_back(lo - margin);
    w.hi.push_back(hi + margin);
  }
  return w;
}

// Whether every point of `examined` has its whole neighbourhood inside the window (or the window
// reaches past the data on that side), so that its neighbours found there are all it has.
template <class T>
bool neighbourhoods_inside(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& dimensions,
                           const Window& window, const Window& data, const std::vector<std::uint32_t>& examined,
                           double reach) {
  for (std::size_t t = 0; t < dimensions.size(); ++t) {
    const bool open_below = data.lo[t] > window.lo[t];
    const bool open_above = data.hi[t] < window.hi[t];
    for (const auto p : examined) {
      const double x = values(p, dimensions[t]);
      if ((!open_below && x - reach < window.lo[t]) || (!open_above && x + reach > window.hi[t])) return false;
    }
  }
  return true;
}

struct Expansion {
  std::vector<std::uint32_t> members;   // ascending; empty where abandoned
  std::vector<std::uint32_t> examined;  // the points whose neighbours were looked up
};

// DBSCAN's expansion from the cluster's core points over the window's points; no members where it
// reaches more than max_points.
template <class T>
Expansion expanded(const PointsInWindow<T>& window, const std::vector<std::uint32_t>& points, std::size_t n,
                   const GrowthParams& params) {
  std::vector<char> member(n, 0), expanded_already(n, 0);
  for (const auto p : points) member[p] = 1;
  Expansion out;
  std::vector<std::uint32_t> frontier(points.begin(), points.end()), around;
  std::size_t reached = points.size();
  while (!frontier.empty()) {
    const std::uint32_t p = frontier.back();
    frontier.pop_back();
    if (expanded_already[p]) continue;
    expanded_already[p] = 1;
    out.examined.push_back(p);
    window.neighbours(p, around);
    if (around.size() < params.min_points) continue;  // a border point: it joins, it does not extend
    for (const auto q : around) {
      if (!member[q]) {
        member[q] = 1;
        if (++reached > params.max_points) return {};
      }
      if (!expanded_already[q]) frontier.push_back(q);
    }
  }
  out.members.reserve(reached);
  for (std::uint32_t p = 0; p < n; ++p)
    if (member[p]) out.members.push_back(p);
  return out;
}

// The expansion over every point of the data, found inside a window around the cluster that is
// widened until every point looked up has its whole neighbourhood inside it: indexing only the
// window's points costs a fraction of indexing all n for each cluster.
template <class T>
std::vector<std::uint32_t> expanded_over_every_point(const ColumnMatrix<T>& values, const Marginals& marginals,
                                                     const SubspaceCluster& cluster, const GrowthParams& params) {
  const auto n = static_cast<std::size_t>(values.rows());
  Window data;  // the data's range in S
  for (const auto j : cluster.dimensions) {
    data.lo.push_back(marginals.sorted(j).front());
    data.hi.push_back(marginals.sorted(j).back());
  }
  const double reach = merge::neighbour_reach<T>(params.epsilon);
  double margin = 4 * reach;
  Window window = window_around(values, cluster.dimensions, cluster.points, margin);
  for (;;) {
    const PointsInWindow<T> inside(values, cluster.dimensions, window, params.epsilon);
    Expansion grown = expanded(inside, cluster.points, n, params);
    if (grown.members.empty()) return {};
    if (neighbourhoods_inside(values, cluster.dimensions, window, data, grown.examined, reach)) return grown.members;
    margin *= 2;
    window = window_around(values, cluster.dimensions, grown.members, margin);
  }
}

}  // namespace

template <class T>
SubspaceCluster grown_in_subspace(const ColumnMatrix<T>& values, const Marginals& marginals, SubspaceCluster cluster,
                                  const GrowthParams& params) {
  if (!(params.epsilon > 0) || !std::isfinite(params.epsilon))
    throw std::invalid_argument("grown_in_subspace: the radius must be a positive number, not " +
                                std::to_string(params.epsilon));
  if (cluster.dimensions.empty() || cluster.points.empty()) return cluster;
  GrowthParams bounded = params;
  if (bounded.max_points == 0) bounded.max_points = static_cast<std::size_t>(values.rows()) / 2;
  SubspaceCluster grown{cluster.dimensions, expanded_over_every_point(values, marginals, cluster, bounded)};
  if (grown.points.size() <= cluster.points.size()) return cluster;
  // Before the cut at 0: a seed too small to pass scores 0, and so can a grown cluster that
  // is far stronger than it.
  if (uncut_score(score_cluster(values, marginals, grown, params.shapes)) <=
      uncut_score(score_cluster(values, marginals, cluster, params.shapes)))
    return cluster;
  return grown;
}

#define SUBSCALE_GROWN_CLUSTER(T)                                                                       \
  template SubspaceCluster grown_in_subspace(const ColumnMatrix<T>&, const Marginals&, SubspaceCluster, \
                                             const GrowthParams&);
SUBSCALE_GROWN_CLUSTER(float)
SUBSCALE_GROWN_CLUSTER(double)
#undef SUBSCALE_GROWN_CLUSTER

}  // namespace subscale::significance
