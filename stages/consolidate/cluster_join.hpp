#pragma once
// Steps 1 and 2 of the consolidate stage (consolidate.hpp): joining clusters that overlap
// strongly into the union of their subspaces, and extending a cluster to every dimension in
// which its points are dense.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/dataset.hpp"
#include "common/stage_progress.hpp"
#include "stages/consolidate/central_span.hpp"
#include "stages/consolidate/column_sorter.hpp"
#include "stages/consolidate/consolidate.hpp"
#include "stages/consolidate/rank_set.hpp"

namespace subscale::consolidate {

// A cluster while it is being consolidated; T is the held precision of its values.
template <class T>
struct WorkingCluster {
  std::vector<std::uint32_t> dimensions;  // sorted
  std::vector<std::uint32_t> points;      // sorted
  // The ranks of `points` in each of `dimensions` (rank_set.hpp): the central spans are read off
  // them, and a join adds the few points the other side brings instead of selecting again.
  std::vector<RankSet> columns;
  // Its ranks in dimensions outside `dimensions`, by dimension ascending, built when a join first
  // asks for one (cluster_union.hpp); empty when none was, and emptied whenever the points or
  // the dimensions change. Only the dimensions asked for: a slot for every dimension of the data
  // (500 on tie-heavy files) made each of tens of thousands of clusters tens of KiB.
  std::vector<std::pair<std::uint32_t, RankSet>> outside_columns;
  T reference_span = 0;       // central_span.hpp: the widest central span where merge found it
  std::uint32_t sources = 1;  // input clusters joined into it
  // extend_dimensions found no dimension to add, and nothing (points, dimensions, reference
  // span) changed since: a later pass would find none again.
  bool extended = false;
};

// The central span (central_span.hpp) of the points whose ranks in `dimension` are `column`.
template <class T>
Interval<T> central_span_of(const ColumnSorter<T>& columns, const RankSet& column, std::uint32_t dimension,
                            double fraction);

struct JoinCounters {
  std::uint64_t candidate_pairs = 0;
  std::uint64_t joins = 0;
  std::uint64_t rejected = 0;
};

// One round: every pair over the overlap threshold, strongest first (ties by index), is tried
// once. A pair whose clusters were already joined into one is skipped. Otherwise the two current
// clusters a and b (the results of earlier joins of this round) are joined when
//   - their current point sets still overlap by at least params.overlap, and
//   - O_a ∪ O_b passes the span test in every dimension of S_a ∪ S_b, against the larger of the
//     two reference spans;
// the joined cluster is (S_a ∪ S_b, the points of O_a ∪ O_b inside their box), with the larger
// reference span. The greedy order makes the result independent of threads.
// The span test runs in T: span widths against span_tolerance (rounded to T) times the reference.
// `progress` hears of the round as phase `phase`, counted in candidate pairs.
template <class T>
std::vector<WorkingCluster<T>> join_round(const ColumnSorter<T>& columns, std::vector<WorkingCluster<T>> clusters,
                                          const ConsolidateParams& params, JoinCounters& counters,
                                          const StageProgress& progress = {}, const std::string& phase = "joining");

// Adds to each cluster every other dimension in which its points pass the span test against its
// reference span, then keeps the points inside the box of the extended subspace. Returns the
// number of dimensions added. `progress` counts the clusters done (the caller begins the phase).
template <class T>
std::uint64_t extend_dimensions(const ColumnSorter<T>& columns, std::vector<WorkingCluster<T>>& clusters,
                                const ConsolidateParams& params, const StageProgress& progress = {});

}  // namespace subscale::consolidate
