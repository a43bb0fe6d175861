#pragma once
// (dimension mask, point bitmap) pairs of a subspace map as bytes: the form in which a cluster
// run's processes exchange their subspaces and a checkpoint keeps a work unit's. A bitmap travels
// as words or as the list of its point ids, whichever is shorter (most of a work unit's subspaces
// hold few points).
#include <tbb/parallel_for.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "distributed/communicator.hpp"
#include "stages/dense_units/direct/direct_subspace_map.hpp"

namespace subscale::distributed {

// Every entry of `map`, with its count in front.
Bytes encode_pairs(const dense_units::direct::DirectSubspaceMap& map);
// For each of `groups` outputs: out[g] gets the entries e with group[e] == g, in entry order.
// Encoded on all threads (millions of subspaces go to the all-to-all of a cluster run).
std::vector<Bytes> encode_pairs_in_groups(const dense_units::direct::DirectSubspaceMap& map, std::size_t groups,
                                          const std::vector<std::uint32_t>& group);
// The same with each entry's group given by group_of(key).
template <class GroupOf>
std::vector<Bytes> encode_pairs_by_group(const dense_units::direct::DirectSubspaceMap& map, std::size_t groups,
                                         GroupOf&& group_of);

// ORs the entries of an encode_pairs() buffer into `into`; throws Error naming `what` when the
// bytes are not such a buffer for this map's widths.
void decode_pairs_into(const std::uint8_t* data, std::size_t size, dense_units::direct::DirectSubspaceMap& into,
                       const std::string& what);

// The same buffer read entry by entry: where each entry starts (checked against the buffer's end,
// with the same errors), an entry's key, and its points ORed into a bitmap of `point_words` words.
// Entries need not be aligned.
std::vector<std::uint64_t> pair_offsets(const std::uint8_t* data, std::size_t size, std::uint32_t key_words,
                                        std::uint32_t point_words, const std::string& what);
void read_pair_key(const std::uint8_t* entry, std::uint32_t key_words, std::uint64_t* key);
void or_pair_points(const std::uint8_t* entry, std::uint32_t key_words, std::uint32_t point_words,
                    std::uint64_t* bitmap, const std::string& what);
// An entry's point ids, ascending, appended to `ids` (whose capacity should hold point_words * 64
// ids); ids out of order or beyond the data are refused.
void append_pair_point_ids(const std::uint8_t* entry, std::uint32_t key_words, std::uint32_t point_words,
                           std::vector<std::uint32_t>& ids, const std::string& what);

// ORs (S, P_S) lists (the signature path's output) into a map.
void add_subspaces(const std::vector<SubspaceCluster>& subspaces, dense_units::direct::DirectSubspaceMap& into);

// Clusters (or subspaces) as bytes and back, on all threads: for gathering the subspaces and
// merge's output on the root.
Bytes encode_clusters(const std::vector<SubspaceCluster>& clusters);
std::vector<SubspaceCluster> decode_clusters(const Bytes& bytes);

// A cluster of encode_clusters() bytes read in place: its lists point into the bytes.
struct ClusterView {
  std::span<const std::uint32_t> dimensions, points;
};
// Every cluster of the bytes, checked against their end (the errors of decode_clusters).
std::vector<ClusterView> view_clusters(const Bytes& bytes);
// The viewed clusters copied into lists of their own, on all threads.
std::vector<SubspaceCluster> clusters_of(const std::vector<ClusterView>& views);

// ----- template definition

template <class GroupOf>
std::vector<Bytes> encode_pairs_by_group(const dense_units::direct::DirectSubspaceMap& map, std::size_t groups,
                                         GroupOf&& group_of) {
  std::vector<std::uint32_t> group(map.size());
  tbb::parallel_for(std::uint32_t{0}, map.size(),
                    [&](std::uint32_t e) { group[e] = static_cast<std::uint32_t>(group_of(map.key(e))); });
  return encode_pairs_in_groups(map, groups, group);
}

}  // namespace subscale::distributed
