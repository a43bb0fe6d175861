#include "stages/significance/weak_dimensions.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "stages/significance/cluster_score.hpp"

namespace subscale::significance {

template <class T>
std::vector<std::uint32_t> points_in_box(const ColumnMatrix<T>& values, const Marginals& marginals,
                                         const std::vector<std::uint32_t>& dimensions, const std::vector<double>& lo,
                                         const std::vector<double>& hi) {
  // Scan the dimension whose interval holds the fewest points, check the others.
  std::size_t narrowest = 0;
  std::pair<std::uint32_t, std::uint32_t> best{0, marginals.points()};
  for (std::size_t i = 0; i < dimensions.size(); ++i) {
    const auto r = marginals.range(dimensions[i], lo[i], hi[i]);
    if (r.second - r.first < best.second - best.first) best = r, narrowest = i;
  }
  std::vector<std::uint32_t> inside;
  const auto order = marginals.order(dimensions[narrowest]);
  for (std::uint32_t pos = best.first; pos < best.second; ++pos) {
    const std::uint32_t p = order[pos];
    bool in = true;
    for (std::size_t i = 0; i < dimensions.size() && in; ++i) {
      const double x = static_cast<double>(values(p, dimensions[i]));
      in = x >= lo[i] && x <= hi[i];
    }
    if (in) inside.push_back(p);
  }
  std::sort(inside.begin(), inside.end());
  return inside;
}

namespace {

constexpr std::size_t kWeakestTried = 3;

// The cluster without dimensions[skip]: every point inside its box in the others.
template <class T>
SubspaceCluster without(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster,
                        std::size_t skip) {
  SubspaceCluster out;
  std::vector<double> lo, hi;
  for (std::size_t i = 0; i < cluster.dimensions.size(); ++i) {
    if (i == skip) continue;
    const auto j = cluster.dimensions[i];
    double l = std::numeric_limits<double>::infinity(), h = -l;
    for (const auto p : cluster.points) {
      const double x = static_cast<double>(values(p, j));
      l = std::min(l, x), h = std::max(h, x);
    }
    out.dimensions.push_back(j);
    lo.push_back(l), hi.push_back(h);
  }
  out.points = points_in_box(values, marginals, out.dimensions, lo, hi);
  return out;
}

// The positions (in cluster.dimensions) of the kWeakestTried dimensions whose box interval holds the
// most points: the ones whose removal costs the box least. Trying only these keeps a step at a few
// box counts where trying every dimension made clusters of 30 dimensions cost 30^3 box counts.
template <class T>
std::vector<std::size_t> weakest(const ColumnMatrix<T>& values, const Marginals& marginals,
                                 const SubspaceCluster& cluster) {
  std::vector<std::pair<std::uint32_t, std::size_t>> by_mass;
  for (std::size_t i = 0; i < cluster.dimensions.size(); ++i) {
    const auto j = cluster.dimensions[i];
    double l = std::numeric_limits<double>::infinity(), h = -l;
    for (const auto p : cluster.points) {
      const double x = static_cast<double>(values(p, j));
      l = std::min(l, x), h = std::max(h, x);
    }
    by_mass.emplace_back(marginals.count(j, l, h), i);
  }
  const std::size_t tried = std::min(kWeakestTried, by_mass.size());
  std::partial_sort(
      by_mass.begin(), by_mass.begin() + static_cast<std::ptrdiff_t>(tried), by_mass.end(),
      [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
  std::vector<std::size_t> positions;
  for (std::size_t i = 0; i < tried; ++i) positions.push_back(by_mass[i].second);
  return positions;
}

}  // namespace

template <class T>
SubspaceCluster drop_weak_dimensions(const ColumnMatrix<T>& values, const Marginals& marginals,
                                     SubspaceCluster cluster) {
  if (cluster.points.empty()) return cluster;
  cluster = without(values, marginals, cluster, cluster.dimensions.size());  // every point of its box
  double current = score_cluster(values, marginals, cluster).score;
  while (cluster.dimensions.size() > 2) {
    double best = current;
    std::optional<SubspaceCluster> better;
    for (const std::size_t skip : weakest(values, marginals, cluster)) {
      auto candidate = without(values, marginals, cluster, skip);
      const double score = score_cluster(values, marginals, candidate).score;
      if (score > best) best = score, better = std::move(candidate);
    }
    if (!better) break;
    cluster = std::move(*better);
    current = best;
  }
  return cluster;
}

template SubspaceCluster drop_weak_dimensions(const ColumnMatrix<float>&, const Marginals&, SubspaceCluster);
template SubspaceCluster drop_weak_dimensions(const ColumnMatrix<double>&, const Marginals&, SubspaceCluster);
template std::vector<std::uint32_t> points_in_box(const ColumnMatrix<float>&, const Marginals&,
                                                  const std::vector<std::uint32_t>&, const std::vector<double>&,
                                                  const std::vector<double>&);
template std::vector<std::uint32_t> points_in_box(const ColumnMatrix<double>&, const Marginals&,
                                                  const std::vector<std::uint32_t>&, const std::vector<double>&,
                                                  const std::vector<double>&);

}  // namespace subscale::significance
