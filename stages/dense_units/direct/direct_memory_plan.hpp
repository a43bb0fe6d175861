#pragma once
// Direct mode's host memory plan. Direct mode keeps no unit table, but it holds one bitmap of n
// bits (and a key of d bits) for every subspace it finds: each thread in its own map, then all of
// them in the merged map, so the tables hold every subspace at least twice while the walk ends.
// The plan's sample of the walk (estimate_direct_walk) finds subspaces that certainly exist, so
// their tables are a lower bound that the run cannot avoid; the units in two or more dimensions
// (each in one subspace) and the number of dimension sets bound the count from above.
#include <cstdint>

#include "stages/dense_units/direct/direct_units.hpp"

namespace subscale {

struct DirectMemoryPlan {
  std::uint64_t bytes_per_subspace = 0;  // bitmap, key and the map's index
  std::uint64_t subspaces_at_least = 0;  // found by the sample (all of them when it was exact)
  std::uint64_t subspaces_at_most = 0;   // min(units in >= 2 dimensions, sets of >= 2 dimensions)
  std::uint64_t values_bytes = 0;        // the walk's copy of the values and the 1-D orders
  bool exact = false;

  // Both saturate at 2^64 - 1. Twice the subspaces: the threads' maps and the merged map.
  std::uint64_t table_bytes_at_least() const;
  std::uint64_t table_bytes_at_most() const;
};

DirectMemoryPlan plan_direct_memory(const DirectSpace& space, const DirectWalkEstimate& estimate);

}  // namespace subscale
