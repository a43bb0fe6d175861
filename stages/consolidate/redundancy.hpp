#pragma once
// Steps 3 and 4 of the consolidate stage (consolidate.hpp): redundancy removal, then order by
// interest and the optional top K.
#include <cstdint>
#include <vector>

#include "stages/consolidate/cluster_join.hpp"

namespace subscale::consolidate {

// Interest of a cluster: |O| * |S|, the micro-objects (point, dimension) it explains; a
// cluster in its full subspace explains more of them than any of its projections.
template <class T>
std::uint64_t interest(const WorkingCluster<T>& cluster);

// Clusters are visited by dimensionality descending (then interest descending, then dimensions
// and points ascending). A cluster is dropped when at least `coverage` of its points lie in the
// union of the kept clusters whose subspace is a strict superset of its own; otherwise it is
// kept. Judging against kept clusters only means a cluster is never dropped on account of one
// that was dropped itself. Returns the kept clusters in visiting order; `dropped` counts the rest.
template <class T>
std::vector<WorkingCluster<T>> drop_redundant(std::vector<WorkingCluster<T>> clusters, std::size_t n_points,
                                              double coverage, std::uint64_t& dropped);

// By interest descending, then dimensions and points ascending; keeps the first top_k (all when
// top_k is 0). `dropped` counts the others.
template <class T>
std::vector<WorkingCluster<T>> order_by_interest(std::vector<WorkingCluster<T>> clusters, std::size_t top_k,
                                                 std::uint64_t& dropped);

}  // namespace subscale::consolidate
