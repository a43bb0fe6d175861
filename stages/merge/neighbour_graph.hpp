#pragma once
// The epsilon-neighbours of the places of one subspace cluster, kept, so that DBSCAN can be run
// again on any part of it at any min_points without a neighbour search.
//
// The denser parts of a failing cluster (stages/significance/denser_parts.hpp) cluster its points
// again at min_points 4, 8, ... 256, then each part that comes out again: up to seven DBSCANs over
// most of the same points, each searching the same neighbours. Searched once and kept, the
// neighbours make each later DBSCAN a pass over the edges inside the part. A part's clusters are
// exactly dbscan_in_subspace's on the part's points (subspace_dbscan.hpp: the same neighbour test
// on the same held coordinates, the same core, cluster and border rules), since a point's
// neighbours within the part are its neighbours in the cluster that lie in the part.
//
// Nodes are places (coincident_points.hpp): a part never splits a place, whose points are core
// points or not together and share their cluster.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/merge/coincident_points.hpp"

namespace subscale::merge {

class NeighbourGraph {
 public:
  // The graph of `cluster`'s places at `epsilon`, or nothing when it would hold more than
  // `max_edges` edges (each counted from both ends): the caller then clusters the points directly.
  // Points sorted ascending and in range. With `parallel`, the search runs on oneTBB's threads.
  template <class T>
  static std::optional<NeighbourGraph> of(const ColumnMatrix<T>& values, const SubspaceCluster& cluster, double epsilon,
                                          std::size_t max_edges, bool parallel);

  std::size_t places() const { return places_.places.points.size(); }
  const std::vector<std::uint32_t>& dimensions() const { return places_.places.dimensions; }

  // Every place, ascending: the whole cluster, the first part to split.
  std::vector<std::uint32_t> all_places() const;

  struct Part {
    std::vector<std::uint32_t> places;  // ascending
    std::vector<std::uint32_t> points;  // their point ids, ascending
  };
  // DBSCAN at `min_points` on the points of `places` (ascending, no repeats): its clusters, in the
  // order of their point lists, as dbscan_in_subspace gives them.
  std::vector<Part> dbscan(const std::vector<std::uint32_t>& places, std::size_t min_points) const;

 private:
  NeighbourGraph(CoincidentPoints places, std::vector<std::uint32_t> points)
      : places_(std::move(places)), points_(std::move(points)) {}

  void gather_points(const std::vector<std::uint32_t>& places, const std::vector<std::uint32_t>& slot,
                     const std::vector<std::uint32_t>& part_of_slot, std::size_t points_in_parts,
                     std::vector<Part>& parts) const;

  CoincidentPoints places_;
  std::vector<std::uint32_t> points_;      // the cluster's points, ascending: places_.place's positions
  std::vector<std::uint64_t> first_edge_;  // places() + 1 offsets into neighbours_
  std::vector<std::uint32_t> neighbours_;  // of each place, the other places within epsilon
};

}  // namespace subscale::merge
