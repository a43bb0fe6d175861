#include "stages/merge/neighbour_graph.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#include <numeric>
#include <span>

#include "common/held_values.hpp"
#include "stages/merge/cell_index.hpp"
#include "stages/merge/neighbour_test.hpp"
#include "stages/merge/serial_union_find.hpp"

namespace subscale::merge {
// Named, not anonymous: the unity build puts this file beside others with helpers of these names.
namespace graph {

constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();

template <class Body>
void for_each_cell(std::size_t cells, bool parallel, Body&& body) {
  if (!parallel) {
    for (std::size_t c = 0; c < cells; ++c) body(c);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cells), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) body(c);
  });
}

// Calls visit(j) for every point j of the index within epsilon of point i, i itself left out.
template <class T, class Visit>
void for_each_neighbour(const CellIndex<T>& index, std::size_t cell, std::uint32_t i, T limit, Visit&& visit) {
  const T* xi = index.coordinates(i);
  for (const auto& range : index.candidates(cell))
    for (std::uint32_t j = range.begin; j < range.end; ++j)
      if (j != i && within(xi, index.coordinates(j), index.width(), limit)) visit(j);
}

}  // namespace graph

template <class T>
std::optional<NeighbourGraph> NeighbourGraph::of(const ColumnMatrix<T>& values, const SubspaceCluster& cluster,
                                                 double epsilon, std::size_t max_edges, bool parallel) {
  NeighbourGraph out(coincident_points(values, cluster), cluster.points);
  const SubspaceCluster& places = out.places_.places;
  const std::size_t count = places.points.size();
  const CellIndex<T> index(values, places.dimensions, places.points, epsilon, parallel);
  const T held = held_epsilon<T>(epsilon);
  const T limit = held * held;

  // One search; it stops once the edges found pass the budget, so that a graph over it costs at
  // most the budget's memory.
  std::vector<std::vector<std::uint32_t>> lists(count);  // by place
  std::atomic<std::uint64_t> edges{0};
  std::atomic<bool> over{false};
  graph::for_each_cell(index.cells(), parallel, [&](std::size_t c) {
    for (std::uint32_t i = index.cell(c).begin; i < index.cell(c).end && !over.load(std::memory_order_relaxed); ++i) {
      auto& list = lists[index.position(i)];
      graph::for_each_neighbour(index, c, i, limit, [&](std::uint32_t j) { list.push_back(index.position(j)); });
      if (edges.fetch_add(list.size(), std::memory_order_relaxed) + list.size() > max_edges)
        over.store(true, std::memory_order_relaxed);
    }
  });
  if (over.load()) return std::nullopt;
  out.first_edge_.assign(count + 1, 0);
  for (std::size_t p = 0; p < count; ++p) out.first_edge_[p + 1] = out.first_edge_[p] + lists[p].size();
  out.neighbours_.reserve(out.first_edge_.back());
  for (auto& list : lists) {
    out.neighbours_.insert(out.neighbours_.end(), list.begin(), list.end());
    std::vector<std::uint32_t>().swap(list);
  }
  return out;
}

std::vector<std::uint32_t> NeighbourGraph::all_places() const {
  std::vector<std::uint32_t> all(places());
  std::iota(all.begin(), all.end(), 0u);
  return all;
}

std::vector<NeighbourGraph::Part> NeighbourGraph::dbscan(const std::vector<std::uint32_t>& places,
                                                         std::size_t min_points) const {
  const std::size_t count = places.size();
  std::vector<std::uint32_t> slot(this->places(), graph::kAbsent);  // each place's index in `places`
  for (std::uint32_t s = 0; s < count; ++s) slot[places[s]] = s;
  const auto neighbours = [&](std::uint32_t place) {
    return std::span<const std::uint32_t>(neighbours_.data() + first_edge_[place],
                                          neighbours_.data() + first_edge_[place + 1]);
  };

  // Core places: a place counts its own points and those of its neighbours in the part.
  std::vector<std::uint8_t> core(count, 1);
  if (min_points > 1) {
    for (std::uint32_t s = 0; s < count; ++s) {
      std::size_t reached = places_.count(places[s]);
      for (const auto q : neighbours(places[s])) {
        if (reached >= min_points) break;
        if (slot[q] != graph::kAbsent) reached += places_.count(q);
      }
      core[s] = reached >= min_points ? 1 : 0;
    }
  }
  // Core neighbours joined; a border place follows its core neighbour with the smallest id, the
  // smallest place (places are ordered by their smallest point id).
  SerialUnionFind sets(count);
  std::vector<std::uint32_t> attach(count, graph::kAbsent);
  for (std::uint32_t s = 0; s < count; ++s) {
    if (core[s]) {
      // Each edge is in the lists of both its places: joined from its lower end only, against the
      // root of s's set as it grows.
      std::uint32_t root = sets.find(s);
      for (const auto q : neighbours(places[s])) {
        const std::uint32_t t = slot[q];
        if (t == graph::kAbsent || t < s || !core[t]) continue;
        root = sets.join_root(root, t);
      }
      continue;
    }
    std::uint32_t nearest_core = graph::kAbsent;
    for (const auto q : neighbours(places[s])) {
      const std::uint32_t t = slot[q];
      if (t != graph::kAbsent && core[t]) nearest_core = std::min(nearest_core, q);
    }
    if (nearest_core != graph::kAbsent) attach[s] = slot[nearest_core];
  }
  std::vector<Part> parts;
  std::vector<std::uint32_t> part_of_root(count, graph::kAbsent);
  std::vector<std::uint32_t> part_of_slot(count, graph::kAbsent);
  std::size_t points_in_parts = 0;
  for (std::uint32_t s = 0; s < count; ++s) {
    const std::uint32_t anchor = core[s] ? s : attach[s];
    if (anchor == graph::kAbsent) continue;  // noise
    const std::uint32_t root = sets.find(anchor);
    if (part_of_root[root] == graph::kAbsent) {
      part_of_root[root] = static_cast<std::uint32_t>(parts.size());
      parts.emplace_back();
    }
    part_of_slot[s] = part_of_root[root];
    parts[part_of_root[root]].places.push_back(places[s]);
    points_in_parts += places_.count(places[s]);
  }
  gather_points(places, slot, part_of_slot, points_in_parts, parts);
  std::sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.points < b.points; });
  return parts;
}

// Each part's points ascending. Where the parts hold most of the cluster, one pass over the
// cluster's points in order puts them there already sorted; where they hold few, their places'
// members are joined and sorted, which then costs less than the pass.
void NeighbourGraph::gather_points(const std::vector<std::uint32_t>& places, const std::vector<std::uint32_t>& slot,
                                   const std::vector<std::uint32_t>& part_of_slot, std::size_t points_in_parts,
                                   std::vector<Part>& parts) const {
  const std::size_t sort_cost = points_in_parts * std::bit_width(points_in_parts);
  if (sort_cost >= points_.size()) {
    for (std::size_t p = 0; p < points_.size(); ++p) {
      const std::uint32_t s = slot[places_.place[p]];
      if (s == graph::kAbsent || part_of_slot[s] == graph::kAbsent) continue;
      parts[part_of_slot[s]].points.push_back(points_[p]);
    }
    return;
  }
  for (std::uint32_t s = 0; s < places.size(); ++s) {
    if (part_of_slot[s] == graph::kAbsent) continue;
    auto& points = parts[part_of_slot[s]].points;
    points.insert(points.end(), places_.members.begin() + places_.first[places[s]],
                  places_.members.begin() + places_.first[places[s] + 1]);
  }
  for (auto& part : parts) std::sort(part.points.begin(), part.points.end());
}

template std::optional<NeighbourGraph> NeighbourGraph::of(const Matrix32&, const SubspaceCluster&, double, std::size_t,
                                                          bool);
template std::optional<NeighbourGraph> NeighbourGraph::of(const Matrix&, const SubspaceCluster&, double, std::size_t,
                                                          bool);

}  // namespace subscale::merge
