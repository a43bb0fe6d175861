#pragma once
// Stage consolidate: turns the merge stage's clusters, which show one hidden cluster as many of
// its low-dimensional projections, into few clusters, each in its full subspace.
//
// Input: the normalised data matrix and merge's clusters (S, O), dimensions and points sorted.
// Steps, each documented where it is done:
// 1. join: two clusters whose point sets overlap strongly,
//      |O_a ∩ O_b| / min(|O_a|, |O_b|) >= overlap,
//    become one cluster in the union of their subspaces when the joined points pass the span
//    test (central_span.hpp) in every dimension of the union (cluster_union.hpp). Two parts:
//    a. gather (gather_join.hpp): the input clusters, by interest descending, each join the
//       gathered cluster they overlap most whose union passes the test, or found one of their
//       own; one that brings a gathered cluster no dimension and no point inside its box is
//       absorbed, the gathered cluster standing as it is. Cost: linear in the input's
//       memberships (times the few gathered clusters holding a point), where trying every pair
//       of the input grew with its square.
//    b. rounds (cluster_join.hpp): every pair of the gathered clusters over the threshold is
//       tried, strongest first, greedily, in rounds until a round joins nothing.
//    Without gathering (ConsolidateParams::gather false) the rounds run on the input itself, as
//    the stage did before. On the benchmark suites both find as many clusters with F1 and E4SC
//    within 0.001 on 15 of 16 files; on D75 gathering finds 11 clusters against 10.
// 2. extend (optional): a cluster takes every further dimension in which its points pass the
//    same span test, so that it stands in its full subspace even where no projection was found
//    in that dimension; then joining is tried again (at most kMaxPasses passes).
// 3. redundancy (redundancy.hpp): a cluster whose points are covered, to at least `coverage`,
//    by the kept clusters in strict superset subspaces is dropped (the idea of OSCLU and RESCU).
// 4. order and size: by interest |O| * |S| (the micro-objects it explains), descending; with
//    top_k > 0 only the first top_k are kept.
// Output: the clusters (S, sorted points) in that order. Every step is either sequential in a
// fixed order or computes per-cluster values independently, so the output does not depend on
// the number of threads.
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"
#include "common/stage_progress.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::consolidate {

struct ConsolidateParams {
  double overlap = 0.5;           // join candidates: |O_a ∩ O_b| / min(|O_a|, |O_b|) >= overlap, in (0, 1]
  double span_fraction = 0.9;     // the span test looks at the central span_fraction of the points, in (0, 1]
  double span_tolerance = 3.0;    // dense when that span <= span_tolerance * the cluster's reference span, > 0
  bool extend_dimensions = true;  // step 2
  double coverage = 0.8;          // redundancy: dropped when covered to at least this fraction, in (0, 1]
  std::size_t top_k = 0;          // keep the top_k most interesting clusters; 0 keeps all
  // The reference span is at least the dimension's level gap ((max - min) / (distinct values - 1)):
  // on integer-level data a projection whose points share one level has span 0, and any
  // dimension it could join would fail the test. Set with significance (pipeline); false keeps
  // the published behaviour. On continuous data the gap is about 1/n and changes nothing.
  bool level_gap_floor = false;
  // Step 1a (gather_join.hpp) before the pairwise rounds; false tries every pair of the input
  // (the cost grows with the square of the input clusters). Not a config key: for comparisons.
  bool gather = true;
};

struct ConsolidateStats {
  std::uint64_t input_clusters = 0;
  std::uint64_t candidate_pairs = 0;  // pairs over the overlap threshold: gathering's (input, gathered) and the rounds'
  std::uint64_t joins = 0;            // accepted joins
  std::uint64_t rejected_joins = 0;   // candidates whose union failed the span test
  std::uint64_t extended_dimensions = 0;  // dimensions added by step 2, summed over clusters
  std::uint64_t passes = 0;               // join + extend passes run
  std::uint64_t redundant = 0;            // dropped by step 3
  std::uint64_t over_top_k = 0;           // dropped by step 4
  std::uint64_t clusters = 0;             // in the output
};

struct ConsolidateResult {
  std::vector<SubspaceCluster> clusters;  // by interest, descending
  std::vector<std::uint64_t> sizes;       // sizes[i] == clusters[i].points.size()
  std::vector<std::uint32_t> sources;     // how many input clusters were joined into clusters[i]
  ConsolidateStats stats;
};

// Throws UsageError for an option out of its range (naming the consolidate.* key) and
// InputError for a cluster whose dimensions or points are out of range or not sorted.
// T is the held precision: the span test and the box run in it.
// `progress` hears of each phase: "gathering" (input clusters), then per pass "pass N joining
// (finding pairs)" (clusters), "pass N joining"
// (candidate pairs) and "pass N extending" (clusters).
template <class T>
ConsolidateResult consolidate_clusters(const ColumnMatrix<T>& values, const std::vector<SubspaceCluster>& clusters,
                                       const ConsolidateParams& params, const StageProgress& progress = {});

}  // namespace subscale::consolidate
