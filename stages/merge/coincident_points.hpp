#pragma once
// Points of a subspace S that sit at the same place (equal coordinates in every dimension of S, in
// the held precision) are neighbours of each other at distance 0 and have the same neighbours, so
// DBSCAN decides them together: they are core points or not together, and they join the same
// cluster. subspace_dbscan.cpp looks at one of them, weighted by how many there are. On data of
// integer levels this is most of the work saved: in a subspace of two 60-level dimensions 800
// points take at most 3,600 places, and a few hundred in practice, each compared with all the
// others near it.
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::merge {

struct CoincidentPoints {
  // S, and for each place the smallest id of its points, ascending.
  SubspaceCluster places;
  // places.points.size() + 1 offsets into `members`; place r holds members[first[r] .. first[r+1]),
  // ascending (first[r]'s id is places.points[r]).
  std::vector<std::uint32_t> first;
  std::vector<std::uint32_t> members;
  // Per position of the subspace's points, its place.
  std::vector<std::uint32_t> place;

  std::uint32_t count(std::size_t place) const { return first[place + 1] - first[place]; }
};

// `subspace.points` sorted ascending and indexing rows of `values`; `subspace.dimensions` its
// columns. Every point is a member of exactly one place. Places are found through a hash table
// keyed by their coordinates, in time linear in the points; places whose hashes collide are told
// apart by comparing them, and `hash_bits` < 64 keeps that many bits of the hash, so that tests
// can make most places collide.
template <class T>
CoincidentPoints coincident_points(const ColumnMatrix<T>& values, const SubspaceCluster& subspace,
                                   unsigned hash_bits = 64);

}  // namespace subscale::merge
