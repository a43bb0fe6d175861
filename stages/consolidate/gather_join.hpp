#pragma once
// Step 1a of the consolidate stage (consolidate.hpp): gathering merge's clusters into few, one
// input cluster at a time, before the pairwise rounds of cluster_join.hpp join what is left.
//
// Merge reports each hidden cluster as hundreds of its projections that share most of their
// points. Trying every pair of them (cluster_join.hpp) costs the sum over points of (clusters
// holding the point)^2, quadratic in the number of projections; most of those pairs end up
// inside one joined cluster anyway. Gathering compares each input cluster only with the
// clusters gathered so far (a handful per hidden cluster), through an index of the points they
// hold, so its cost grows with the input's memberships times the gathered clusters holding a
// point, not with the square of the input.
//
// Order: the input clusters by interest |O| x |S| descending (ties: input order), so that the
// largest projections, the least likely to be chance clusters, found the gathered ones. Each
// input cluster c is tried against the gathered clusters g it overlaps strongly,
//   |O_c ∩ O_g| / min(|O_c|, |O_g|) >= overlap    (the points g holds now),
// strongest first (ties: the earlier gathered), and joins the first whose union passes the span
// test (cluster_union.hpp, the same join as the pairwise rounds'); when none does, c becomes a
// gathered cluster of its own. A c that brings g no dimension, and no point inside g's box (its
// central spans doubled, central_span.hpp), is absorbed without computing the join: g keeps its
// points and subspace, and takes the wider reference span (the exact join would trim c's other
// points and g's box again, a few points at most). Sequential and in a fixed order: the result does not depend on
// the number of threads.
#include <vector>

#include "stages/consolidate/cluster_join.hpp"

namespace subscale::consolidate {

// Returns the gathered clusters, in the order they were founded. Adds to counters the pairs
// (input cluster, gathered cluster) over the overlap threshold, the joins and the refusals.
// `progress` counts the input clusters done (the caller begins the phase).
template <class T>
std::vector<WorkingCluster<T>> gather_clusters(const ColumnSorter<T>& columns, std::vector<WorkingCluster<T>> clusters,
                                               const ConsolidateParams& params, JoinCounters& counters,
                                               const StageProgress& progress = {});

}  // namespace subscale::consolidate
