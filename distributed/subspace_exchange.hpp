#pragma once
// Combining the processes' subspaces by key: every subspace has one owner process, chosen by a
// hash of its dimension mask; an all-to-all sends each process's (mask, bitmap) pairs to their
// owners, which OR the bitmaps. Afterwards each subspace lives, complete, on exactly one process,
// which also clusters it in the merge stage; the root gathers all of them for the output.
#include <cstdint>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "distributed/communicator.hpp"
#include "stages/dense_units/direct/direct_subspace_map.hpp"

namespace subscale::distributed {

// The process that owns the subspace with this mask.
int owner_of(const std::uint64_t* key, std::uint32_t key_words, int processes);

// This process's subspaces after the all-to-all, with where the time went.
struct OwnedSubspaces {
  std::vector<SubspaceCluster> subspaces;  // those it owns, points ORed over every process's map
  double encode_seconds = 0, transfer_seconds = 0, combine_seconds = 0;
  std::uint64_t bytes_sent = 0, bytes_received = 0;  // to and from the other processes
};
OwnedSubspaces exchange_by_owner(const Communicator& comm, const dense_units::direct::DirectSubspaceMap& mine);

// Every process's owned subspaces (each process's list in the subspaces stage's order, |S|
// descending, then S), on the root in that order; empty on the other processes.
struct GatheredSubspaces {
  std::vector<SubspaceCluster> subspaces;
  double transfer_seconds = 0, list_seconds = 0;  // encoding and sending; decoding and merging
  std::uint64_t bytes = 0;                        // received by the root from the others
};
GatheredSubspaces gather_subspaces(const Communicator& comm, const std::vector<SubspaceCluster>& owned);

// encode_clusters() lists, each in the subspaces stage's order, merged into one in that order on
// all threads (read in place, so every subspace is made once, where it belongs).
std::vector<SubspaceCluster> merge_cluster_lists(const std::vector<Bytes>& parts);

}  // namespace subscale::distributed
