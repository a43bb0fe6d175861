#include "stages/merge/subspace_dbscan.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <limits>

#include "common/held_values.hpp"
#include "stages/merge/cell_index.hpp"
#include "stages/merge/coincident_points.hpp"
#include "stages/merge/concurrent_union_find.hpp"
#include "stages/merge/neighbour_test.hpp"

namespace subscale::merge {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// Runs body(cell, distance_counter) for every cell, in parallel when asked; returns the sum of
// the counters.
template <class T, class Body>
std::uint64_t for_each_cell(const CellIndex<T>& index, bool parallel, Body&& body) {
  if (!parallel) {
    std::uint64_t distances = 0;
    for (std::size_t c = 0; c < index.cells(); ++c) body(c, distances);
    return distances;
  }
  std::atomic<std::uint64_t> total{0};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, index.cells()), [&](const tbb::blocked_range<std::size_t>& r) {
    std::uint64_t distances = 0;
    for (std::size_t c = r.begin(); c != r.end(); ++c) body(c, distances);
    total.fetch_add(distances, std::memory_order_relaxed);
  });
  return total.load();
}

}  // namespace

void build_clusters(std::span<const std::uint32_t> points, std::span<const std::uint32_t> place_of_position,
                    std::span<const std::uint32_t> cluster_of_place, std::span<const std::size_t> sizes,
                    const ClusterFilter* filter, SubspaceDbscanResult& result) {
  // Members in ascending order by walking the subspace's points in order, into one buffer first,
  // so that a cluster the filter refuses costs no list of its own (on tie-heavy data merge finds
  // tens of millions of such pairs and triples).
  std::vector<std::size_t> start(sizes.size() + 1, 0);
  for (std::size_t c = 0; c < sizes.size(); ++c) start[c + 1] = start[c] + sizes[c];
  std::vector<std::uint32_t> members(start.back());
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (std::size_t p = 0; p < points.size(); ++p) {
    const std::uint32_t c = cluster_of_place[place_of_position[p]];
    if (c != kNoCluster) members[next[c]++] = points[p];
  }
  // The list is sized for the clusters kept, not for all found: reserving room for every refused
  // one too touched half a gigabyte of fresh pages on tie-heavy data.
  std::vector<std::uint32_t> kept;
  for (std::size_t c = 0; c < sizes.size(); ++c) {
    if (filter && !(*filter)(std::span<const std::uint32_t>(members.data() + start[c], sizes[c]))) {
      ++result.counters.clusters_left_out;
      continue;
    }
    kept.push_back(static_cast<std::uint32_t>(c));
  }
  auto& clusters = result.clusters;
  clusters.reserve(clusters.size() + kept.size());
  for (const auto c : kept) clusters.emplace_back(members.data() + start[c], members.data() + start[c] + sizes[c]);
}

template <class T>
SubspaceDbscanResult dbscan_in_subspace(const ColumnMatrix<T>& values, const SubspaceCluster& subspace, double epsilon,
                                        std::size_t min_points, bool parallel, const ClusterFilter* filter) {
  SubspaceDbscanResult result;
  if (subspace.points.empty()) return result;

  // The index holds one point of each place (coincident_points.hpp); a place counts as many
  // neighbours as it has points, and its points share its label.
  const CoincidentPoints places = coincident_points(values, subspace);
  const std::size_t count = places.places.points.size();
  using Range = typename CellIndex<T>::Range;
  const CellIndex<T> index(values, subspace.dimensions, places.places.points, epsilon, parallel);
  const std::size_t width = index.width();
  const T held = held_epsilon<T>(epsilon);
  const T limit = held * held;
  const auto weight = [&](std::uint32_t i) -> std::size_t { return places.count(index.position(i)); };

  // Pass 1: core points. Counting stops as soon as a point has min_points neighbours.
  std::vector<std::uint8_t> core(count, 0);
  std::uint64_t distances = 0;
  if (min_points <= 1) {
    std::fill(core.begin(), core.end(), 1);
  } else {
    distances += for_each_cell(index, parallel, [&](std::size_t c, std::uint64_t& computed) {
      const auto ranges = index.candidates(c);
      const Range cell = index.cell(c);
      for (std::uint32_t i = cell.begin; i < cell.end; ++i) {
        const T* xi = index.coordinates(i);
        std::size_t neighbours = weight(i);  // the point itself and those at its place
        for (const Range& range : ranges) {
          for (std::uint32_t j = range.begin; j < range.end && neighbours < min_points; ++j) {
            if (j == i) continue;
            ++computed;
            if (within(xi, index.coordinates(j), width, limit)) neighbours += weight(j);
          }
          if (neighbours >= min_points) break;
        }
        core[i] = neighbours >= min_points ? 1 : 0;
      }
    });
  }

  // Pass 2: join core points within epsilon; find each border point's core neighbour with the
  // smallest id. A core pair is looked at once (from its smaller index), and not at all once the
  // two are already in one set.
  ConcurrentUnionFind sets(count);
  std::vector<std::uint32_t> attach(count, kNone);
  distances += for_each_cell(index, parallel, [&](std::size_t c, std::uint64_t& computed) {
    const auto ranges = index.candidates(c);
    const Range cell = index.cell(c);
    for (std::uint32_t i = cell.begin; i < cell.end; ++i) {
      const T* xi = index.coordinates(i);
      if (core[i]) {
        for (const Range& range : ranges) {
          for (std::uint32_t j = std::max(range.begin, i + 1); j < range.end; ++j) {
            if (!core[j] || sets.find(i) == sets.find(j)) continue;
            ++computed;
            if (within(xi, index.coordinates(j), width, limit)) sets.unite(i, j);
          }
        }
      } else {
        std::uint32_t best = kNone;
        std::uint32_t best_position = kNone;
        for (const Range& range : ranges) {
          for (std::uint32_t j = range.begin; j < range.end; ++j) {
            if (!core[j] || index.position(j) >= best_position) continue;
            ++computed;
            if (within(xi, index.coordinates(j), width, limit)) {
              best = j;
              best_position = index.position(j);
            }
          }
        }
        attach[i] = best;
      }
    }
  });
  result.counters.distance_computations = distances;

  // Label: one cluster per set of core points, then the borders. Places are ordered by their
  // first point, so numbering the clusters as their places come gives clusters ordered by their
  // first point; disjoint, they are then in lexicographic order too.
  std::vector<std::uint32_t> cluster_of_root(count, kNone);
  std::vector<std::uint32_t> cluster_of_place(count, kNone);
  std::vector<std::size_t> sizes;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t points = weight(i);
    std::uint32_t anchor = kNone;
    if (core[i]) {
      anchor = i;
      result.counters.core_points += points;
    } else if (attach[i] != kNone) {
      anchor = attach[i];
      result.counters.border_points += points;
    } else {
      result.counters.noise_points += points;
      continue;
    }
    const std::uint32_t root = sets.find(anchor);
    cluster_of_place[index.position(i)] = root;
  }
  for (std::uint32_t r = 0; r < count; ++r) {
    const std::uint32_t root = cluster_of_place[r];
    if (root == kNone) continue;
    if (cluster_of_root[root] == kNone) {
      cluster_of_root[root] = static_cast<std::uint32_t>(sizes.size());
      sizes.push_back(0);
    }
    cluster_of_place[r] = cluster_of_root[root];
    sizes[cluster_of_place[r]] += places.count(r);
  }
  build_clusters(subspace.points, places.place, cluster_of_place, sizes, filter, result);
  return result;
}

template SubspaceDbscanResult dbscan_in_subspace(const Matrix32&, const SubspaceCluster&, double, std::size_t, bool,
                                                 const ClusterFilter*);
template SubspaceDbscanResult dbscan_in_subspace(const Matrix&, const SubspaceCluster&, double, std::size_t, bool,
                                                 const ClusterFilter*);

}  // namespace subscale::merge
