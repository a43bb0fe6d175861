#pragma once
// The merge stage's input built the slow, exact way, for the benchmark only: every dense unit of
// every dimension (docs/method.md §3-§4: m points whose values in that dimension span less than
// epsilon) is enumerated with its sorted point ids packed into one 64-bit key together with the
// dimension; a parallel sort brings the copies of a unit from different dimensions together;
// every unit found in two or more dimensions adds its points to P_S of that subspace.
// This is not the project's core (no signatures, no partitions): it exists so that the merge
// benchmark sees the (S, P_S) lists the core produces for a file, without depending on it.
// It needs m * ceil(log2 n) + ceil(log2 d) <= 64 bits and d <= 64.
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::bench {

struct ExactSubspaces {
  std::vector<SubspaceCluster> subspaces;  // sorted by |S| descending, then S
  std::uint64_t dense_units = 0;           // summed over dimensions
  std::uint64_t multi_dimensional_units = 0;
};

ExactSubspaces exact_subspaces(const Matrix& values, double epsilon, std::size_t min_points);

}  // namespace subscale::bench
