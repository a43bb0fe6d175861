#include "stages/significance/touching_pieces.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "common/held_values.hpp"
#include "stages/merge/neighbour_test.hpp"

namespace subscale::significance {
namespace {

// Rows of a cluster's points over the subspace, ordered by the first dimension's value.
template <class T>
struct SortedRows {
  std::size_t width = 0;
  std::vector<T> coordinates;  // row m's dimension t at [m * width + t]
  std::vector<double> first;   // row m's first coordinate, ascending
};

template <class T>
SortedRows<T> sorted_rows(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& dimensions,
                          const std::vector<std::uint32_t>& points) {
  SortedRows<T> rows;
  rows.width = dimensions.size();
  const T* first = values.col(dimensions.front()).data();
  std::vector<std::uint32_t> order(points.size());
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return first[points[a]] < first[points[b]]; });
  rows.coordinates.resize(order.size() * rows.width);
  rows.first.resize(order.size());
  for (std::size_t t = 0; t < rows.width; ++t) {
    const T* column = values.col(dimensions[t]).data();
    for (std::size_t i = 0; i < order.size(); ++i) rows.coordinates[i * rows.width + t] = column[points[order[i]]];
  }
  for (std::size_t i = 0; i < order.size(); ++i) rows.first[i] = static_cast<double>(rows.coordinates[i * rows.width]);
  return rows;
}

}  // namespace

template <class T>
bool clusters_touch(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& dimensions,
                    const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b, double epsilon) {
  if (dimensions.empty() || a.empty() || b.empty()) return false;
  const auto& fewer = a.size() <= b.size() ? a : b;
  const auto& more = a.size() <= b.size() ? b : a;
  const SortedRows<T> rows = sorted_rows(values, dimensions, more);
  const T held = held_epsilon<T>(epsilon);
  const T limit = held * held;
  const double reach = merge::neighbour_reach<T>(epsilon);
  std::vector<T> x(rows.width);
  for (const auto p : fewer) {
    for (std::size_t t = 0; t < rows.width; ++t) x[t] = values(p, dimensions[t]);
    const double x0 = static_cast<double>(x[0]);
    auto it = std::lower_bound(rows.first.begin(), rows.first.end(), x0 - reach);
    for (; it != rows.first.end() && *it <= x0 + reach; ++it) {
      const auto row = static_cast<std::size_t>(it - rows.first.begin());
      if (merge::within(x.data(), rows.coordinates.data() + row * rows.width, rows.width, limit)) return true;
    }
  }
  return false;
}

template <class T>
TouchingPieces join_touching_pieces(const ColumnMatrix<T>& values, const Marginals& marginals,
                                    std::vector<SubspaceCluster> clusters, std::vector<ClusterScore> scores,
                                    std::vector<std::uint32_t> sources, const std::vector<bool>& leads, double epsilon,
                                    double threshold, Shapes shapes) {
  if (clusters.size() != scores.size() || clusters.size() != sources.size() || clusters.size() != leads.size())
    throw std::invalid_argument("join_touching_pieces: " + std::to_string(clusters.size()) + " clusters but " +
                                std::to_string(scores.size()) + " scores, " + std::to_string(sources.size()) +
                                " sources and " + std::to_string(leads.size()) + " lead flags");
  if (!(epsilon > 0) || !std::isfinite(epsilon))
    throw std::invalid_argument("join_touching_pieces: the radius must be a positive number, not " +
                                std::to_string(epsilon));
  TouchingPieces out;
  std::vector<char> absorbed(clusters.size(), 0);
  for (std::size_t i = 0; i < clusters.size(); ++i) {
    if (absorbed[i] || !leads[i]) continue;
    absorbed[i] = 1;
    SubspaceCluster cluster = std::move(clusters[i]);
    ClusterScore score = scores[i];
    std::uint32_t summed = sources[i];
    // Every cluster not yet taken: the later leads and the others wherever they stand.
    for (std::size_t j = 0; j < clusters.size(); ++j) {
      if (absorbed[j] || clusters[j].dimensions != cluster.dimensions) continue;
      if (!clusters_touch(values, cluster.dimensions, cluster.points, clusters[j].points, epsilon)) continue;
      SubspaceCluster with{cluster.dimensions, {}};
      std::set_union(cluster.points.begin(), cluster.points.end(), clusters[j].points.begin(), clusters[j].points.end(),
                     std::back_inserter(with.points));
      const ClusterScore union_score = score_cluster(values, marginals, with, shapes);
      if (union_score.score < threshold) continue;
      cluster = std::move(with);
      score = union_score;
      absorbed[j] = 1;
      summed += sources[j];
      ++out.joins;
    }
    out.clusters.push_back(std::move(cluster));
    out.scores.push_back(score);
    out.sources.push_back(summed);
  }
  // Strongest first again: a union can score below a cluster that came after its first piece.
  std::vector<std::size_t> order(out.clusters.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return out.scores[a].score > out.scores[b].score; });
  TouchingPieces sorted;
  sorted.joins = out.joins;
  for (const auto k : order) {
    sorted.clusters.push_back(std::move(out.clusters[k]));
    sorted.scores.push_back(out.scores[k]);
    sorted.sources.push_back(out.sources[k]);
  }
  return sorted;
}

#define SUBSCALE_TOUCHING_PIECES(T)                                                                                    \
  template bool clusters_touch(const ColumnMatrix<T>&, const std::vector<std::uint32_t>&,                              \
                               const std::vector<std::uint32_t>&, const std::vector<std::uint32_t>&, double);          \
  template TouchingPieces join_touching_pieces(const ColumnMatrix<T>&, const Marginals&, std::vector<SubspaceCluster>, \
                                               std::vector<ClusterScore>, std::vector<std::uint32_t>,                  \
                                               const std::vector<bool>&, double, double, Shapes);
SUBSCALE_TOUCHING_PIECES(float)
SUBSCALE_TOUCHING_PIECES(double)
#undef SUBSCALE_TOUCHING_PIECES

}  // namespace subscale::significance
