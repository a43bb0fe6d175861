#pragma once
// (dimension mask, point bitmap) pairs of a subspace map as bytes: the form in which a cluster
// run's processes exchange their subspaces and a checkpoint keeps a work unit's. A bitmap travels
// as words or as the list of its point ids, whichever is shorter (most of a work unit's subspaces
// hold few points).
#include <cstdint>
#include <vector>

#include "cluster/communicator.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/dense_units/direct_subspace_map.hpp"

namespace subscale::cluster {

// Every entry of `map`, with its count in front.
Bytes encode_pairs(const direct::DirectSubspaceMap& map);
// For each of `groups` outputs: out[g] gets the entries e with group[e] == g, in entry order.
// Encoded on all threads (millions of subspaces go to the all-to-all of a cluster run).
std::vector<Bytes> encode_pairs_in_groups(const direct::DirectSubspaceMap& map, std::size_t groups,
                                          const std::vector<std::uint32_t>& group);
// The same with each entry's group given by group_of(key).
template <class GroupOf>
std::vector<Bytes> encode_pairs_by_group(const direct::DirectSubspaceMap& map, std::size_t groups, GroupOf&& group_of);

// ORs the entries of an encode_pairs() buffer into `into`; throws Error naming `what` when the
// bytes are not such a buffer for this map's widths.
void decode_pairs_into(const std::uint8_t* data, std::size_t size, direct::DirectSubspaceMap& into,
                       const std::string& what);

// ORs (S, P_S) lists (the signature path's output) into a map.
void add_subspaces(const std::vector<SubspaceCluster>& subspaces, direct::DirectSubspaceMap& into);

// Clusters (or subspaces) as bytes and back, on all threads: for gathering the subspaces and
// merge's output on the root.
Bytes encode_clusters(const std::vector<SubspaceCluster>& clusters);
std::vector<SubspaceCluster> decode_clusters(const Bytes& bytes);

// ----- template definition

template <class GroupOf>
std::vector<Bytes> encode_pairs_by_group(const direct::DirectSubspaceMap& map, std::size_t groups, GroupOf&& group_of) {
  std::vector<std::uint32_t> group(map.size());
  for (std::uint32_t e = 0; e < map.size(); ++e) group[e] = static_cast<std::uint32_t>(group_of(map.key(e)));
  return encode_pairs_in_groups(map, groups, group);
}

}  // namespace subscale::cluster
