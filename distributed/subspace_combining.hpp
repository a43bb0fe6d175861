#pragma once
// Combining the (mask, bitmap) pairs that a subspace's owner receives from every process of a
// cluster run: one subspace a distinct mask, its points the OR of the bitmaps that came with it.
// The pairs are sorted in the subspaces stage's order instead of ORed into a hash map, so the
// whole step (parsing, ordering, ORing and listing) runs on all threads and yields the owner's
// ordered list directly.
#include <cstdint>
#include <string>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "distributed/communicator.hpp"

namespace subscale::distributed {

// The subspaces in `parts` (encode_pairs() buffers, each with distinct masks; one mask may come in
// several buffers), sorted by |S| descending, then S. Throws Error naming names[i] when parts[i]
// is not such a buffer for these widths.
std::vector<SubspaceCluster> combine_pairs(const std::vector<Bytes>& parts, std::uint32_t key_words,
                                           std::uint32_t point_words, const std::vector<std::string>& names);

}  // namespace subscale::distributed
