#include "stages/consolidate/redundancy.hpp"

#include <algorithm>

namespace subscale::consolidate {
namespace {

bool strict_superset(const std::vector<std::uint32_t>& big, const std::vector<std::uint32_t>& small) {
  return big.size() > small.size() && std::includes(big.begin(), big.end(), small.begin(), small.end());
}

template <class T>
bool ties_before(const WorkingCluster<T>& a, const WorkingCluster<T>& b) {
  return a.dimensions != b.dimensions ? a.dimensions < b.dimensions : a.points < b.points;
}

}  // namespace

template <class T>
std::uint64_t interest(const WorkingCluster<T>& cluster) {
  return static_cast<std::uint64_t>(cluster.points.size()) * cluster.dimensions.size();
}

template <class T>
std::vector<WorkingCluster<T>> drop_redundant(std::vector<WorkingCluster<T>> clusters, std::size_t n_points,
                                              double coverage, std::uint64_t& dropped) {
  std::sort(clusters.begin(), clusters.end(), [](const WorkingCluster<T>& a, const WorkingCluster<T>& b) {
    if (a.dimensions.size() != b.dimensions.size()) return a.dimensions.size() > b.dimensions.size();
    if (interest(a) != interest(b)) return interest(a) > interest(b);
    return ties_before(a, b);
  });
  std::vector<WorkingCluster<T>> kept;
  // mark[p] == stamp: p lies in a kept cluster of a strict superset subspace of the current one.
  std::vector<std::uint32_t> mark(n_points, 0);
  std::uint32_t stamp = 0;
  for (auto& cluster : clusters) {
    ++stamp;
    bool any_superset = false;
    for (const auto& k : kept) {
      if (!strict_superset(k.dimensions, cluster.dimensions)) continue;
      any_superset = true;
      for (std::uint32_t p : k.points) mark[p] = stamp;
    }
    std::size_t covered = 0;
    if (any_superset)
      for (std::uint32_t p : cluster.points) covered += mark[p] == stamp;
    if (any_superset && static_cast<double>(covered) >= coverage * static_cast<double>(cluster.points.size())) {
      ++dropped;
      continue;
    }
    kept.push_back(std::move(cluster));
  }
  return kept;
}

template <class T>
std::vector<WorkingCluster<T>> order_by_interest(std::vector<WorkingCluster<T>> clusters, std::size_t top_k,
                                                 std::uint64_t& dropped) {
  std::sort(clusters.begin(), clusters.end(), [](const WorkingCluster<T>& a, const WorkingCluster<T>& b) {
    return interest(a) != interest(b) ? interest(a) > interest(b) : ties_before(a, b);
  });
  if (top_k > 0 && clusters.size() > top_k) {
    dropped += clusters.size() - top_k;
    clusters.resize(top_k);
  }
  return clusters;
}

#define SUBSCALE_REDUNDANCY_FOR(T)                                                                            \
  template std::uint64_t interest(const WorkingCluster<T>&);                                                  \
  template std::vector<WorkingCluster<T>> drop_redundant(std::vector<WorkingCluster<T>>, std::size_t, double, \
                                                         std::uint64_t&);                                     \
  template std::vector<WorkingCluster<T>> order_by_interest(std::vector<WorkingCluster<T>>, std::size_t,      \
                                                            std::uint64_t&);
SUBSCALE_REDUNDANCY_FOR(float)
SUBSCALE_REDUNDANCY_FOR(double)
#undef SUBSCALE_REDUNDANCY_FOR

}  // namespace subscale::consolidate
