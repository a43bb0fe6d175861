#pragma once
// Freeing many clusters' lists from all threads. A run's subspaces can number tens of millions
// (29.5 M on one tie-heavy file: 59 M lists), and one thread freeing them took 1.2-1.6 s on the
// 16-core GPU machine, after the results were already written.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstddef>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale {

// Leaves `clusters` empty, its memory returned.
inline void release_in_parallel(std::vector<SubspaceCluster>& clusters) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, clusters.size(), 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      std::vector<std::uint32_t>().swap(clusters[i].dimensions);
      std::vector<std::uint32_t>().swap(clusters[i].points);
    }
  });
  std::vector<SubspaceCluster>().swap(clusters);
}

}  // namespace subscale
