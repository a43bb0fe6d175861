#include "stages/significance/distinct_clusters.hpp"

#include <algorithm>
#include <unordered_map>

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

std::vector<std::size_t> distinct_clusters(const std::vector<SubspaceCluster>& clusters, double overlap) {
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
      return static_cast<double>(entry.second) >= points_needed &&
             static_cast<double>(shared(cluster.dimensions, clusters[kept[entry.first]].dimensions)) >= dims_needed;
    });
    if (repeats) continue;
    for (const auto p : cluster.points) holders[p].push_back(kept.size());
    kept.push_back(c);
  }
  return kept;
}

}  // namespace subscale::significance
