#pragma once
// Combining the processes' subspaces by key: every subspace has one owner process, chosen by a
// hash of its dimension mask; an all-to-all sends each process's (mask, bitmap) pairs to their
// owners, which OR the bitmaps. Afterwards each subspace lives, complete, on exactly one process,
// which also clusters it in the merge stage; the root gathers all of them for the output.
#include <cstdint>
#include <vector>

#include "cluster/communicator.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/dense_units/direct_subspace_map.hpp"

namespace subscale::cluster {

// The process that owns the subspace with this mask.
int owner_of(const std::uint64_t* key, std::uint32_t key_words, int processes);

// This process's subspaces after the all-to-all: those it owns, their points ORed over every
// process's `mine`.
direct::DirectSubspaceMap exchange_by_owner(const Communicator& comm, const direct::DirectSubspaceMap& mine);

// Every process's owned subspaces (each process's list in the subspaces stage's order, |S|
// descending, then S), on the root in that order; empty on the other processes. No subspace is
// owned twice, so the root only merges the lists.
std::vector<SubspaceCluster> gather_subspaces(const Communicator& comm, const std::vector<SubspaceCluster>& owned);

}  // namespace subscale::cluster
