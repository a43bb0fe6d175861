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

// Appends one entry (key_words words of key, point_words words of bitmap).
void append_pair(Bytes& out, const std::uint64_t* key, const std::uint64_t* bitmap, std::uint32_t key_words,
                 std::uint32_t point_words);

// Every entry of `map`, with its count in front.
Bytes encode_pairs(const direct::DirectSubspaceMap& map);
// Only the entries `select(entry)` keeps, for each of `groups` outputs: out[g] gets the entries
// with group(entry) == g.
template <class GroupOf>
std::vector<Bytes> encode_pairs_by_group(const direct::DirectSubspaceMap& map, std::size_t groups, GroupOf&& group_of);

// ORs the entries of an encode_pairs() buffer into `into`; throws Error naming `what` when the
// bytes are not such a buffer for this map's widths.
void decode_pairs_into(const std::uint8_t* data, std::size_t size, direct::DirectSubspaceMap& into,
                       const std::string& what);

// ORs (S, P_S) lists (the signature path's output) into a map.
void add_subspaces(const std::vector<SubspaceCluster>& subspaces, direct::DirectSubspaceMap& into);

// Clusters (or subspaces) as bytes and back: for gathering merge's output on the root.
Bytes encode_clusters(const std::vector<SubspaceCluster>& clusters);
std::vector<SubspaceCluster> decode_clusters(const Bytes& bytes);

// ----- template definition

template <class GroupOf>
std::vector<Bytes> encode_pairs_by_group(const direct::DirectSubspaceMap& map, std::size_t groups, GroupOf&& group_of) {
  std::vector<Bytes> out(groups, Bytes(sizeof(std::uint64_t), 0));
  std::vector<std::uint64_t> counts(groups, 0);
  for (std::uint32_t e = 0; e < map.size(); ++e) {
    const std::size_t g = group_of(map.key(e));
    append_pair(out[g], map.key(e), map.points(e), map.key_words(), map.point_words());
    ++counts[g];
  }
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t b = 0; b < sizeof(std::uint64_t); ++b) out[g][b] = static_cast<std::uint8_t>(counts[g] >> (8 * b));
  return out;
}

}  // namespace subscale::cluster
