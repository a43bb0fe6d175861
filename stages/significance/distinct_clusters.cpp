#include "stages/significance/distinct_clusters.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "stages/significance/binomial_tail.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/point_range.hpp"
#include "stages/significance/search_correction.hpp"

namespace subscale::significance {
namespace {

std::size_t shared(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::size_t count = 0;
  for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end();) {
    if (*i < *j)
      ++i;
    else if (*j < *i)
      ++j;
    else
      ++count, ++i, ++j;
  }
  return count;
}

}  // namespace

template <class T>
double score_given(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& inner,
                   const SubspaceCluster& outer) {
  std::vector<std::uint32_t> extra;
  std::set_difference(inner.dimensions.begin(), inner.dimensions.end(), outer.dimensions.begin(),
                      outer.dimensions.end(), std::back_inserter(extra));
  std::vector<std::uint32_t> members;
  std::set_intersection(inner.points.begin(), inner.points.end(), outer.points.begin(), outer.points.end(),
                        std::back_inserter(members));
  if (extra.empty() || members.empty() || outer.points.empty()) return 0.0;
  double log_p0 = 0;
  for (const auto j : extra) {
    const auto range = range_of(values, inner.points, j);
    std::size_t inside = 0;
    for (const auto p : outer.points) {
      inside += range.holds(static_cast<double>(values(p, j))) ? 1 : 0;
    }
    log_p0 += std::log(static_cast<double>(inside) / static_cast<double>(outer.points.size()));
  }
  const double log_p = log_binomial_upper_tail(outer.points.size(), log_p0, members.size());
  return score_of(log_p, log_search_size(marginals, extra));
}

template <class T>
std::vector<std::size_t> distinct_clusters(const ColumnMatrix<T>& values, const Marginals& marginals,
                                           const std::vector<SubspaceCluster>& clusters, double overlap,
                                           double threshold) {
  std::vector<std::size_t> kept;
  std::unordered_map<std::uint32_t, std::vector<std::size_t>> holders;  // point -> positions in `kept`
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    const auto& cluster = clusters[c];
    std::unordered_map<std::size_t, std::size_t> common;  // kept position -> shared points
    for (const auto p : cluster.points)
      if (const auto it = holders.find(p); it != holders.end())
        for (const auto k : it->second) ++common[k];
    const auto points_needed = overlap * static_cast<double>(cluster.points.size());
    const auto dims_needed = overlap * static_cast<double>(cluster.dimensions.size());
    const bool repeats = std::any_of(common.begin(), common.end(), [&](const auto& entry) {
      const auto& parent = clusters[kept[entry.first]];
      return static_cast<double>(entry.second) >= points_needed &&
             static_cast<double>(shared(cluster.dimensions, parent.dimensions)) >= dims_needed &&
             score_given(values, marginals, cluster, parent) < threshold;
    });
    if (repeats) continue;
    for (const auto p : cluster.points) holders[p].push_back(kept.size());
    kept.push_back(c);
  }
  return kept;
}

template std::vector<std::size_t> distinct_clusters(const ColumnMatrix<float>&, const Marginals&,
                                                    const std::vector<SubspaceCluster>&, double, double);
template std::vector<std::size_t> distinct_clusters(const ColumnMatrix<double>&, const Marginals&,
                                                    const std::vector<SubspaceCluster>&, double, double);
template double score_given(const ColumnMatrix<float>&, const Marginals&, const SubspaceCluster&,
                            const SubspaceCluster&);
template double score_given(const ColumnMatrix<double>&, const Marginals&, const SubspaceCluster&,
                            const SubspaceCluster&);

}  // namespace subscale::significance
