#pragma once
// The greedy narrowing that trimmed_box.hpp and turned_rectangle.hpp share: a cluster's points
// have a coordinate on each of some axes (its dimensions, or the directions along and across a
// turned rectangle), and each step takes away, at one end of one axis, the points of the outermost
// one to four coordinates there, choosing the removal that raises the strength most, until none
// raises it, 64 steps were taken or half the points are gone.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale::significance {

// The ends of every axis over the points still in: lo[i], hi[i].
struct Ends {
  std::vector<double> lo, hi;
};

// The strength of `points` points whose ends are `ends` (higher is stronger).
using Strength = std::function<double(const Ends& ends, std::size_t points)>;

// coordinates[i][at]: point `at`'s coordinate on axis i (every axis as long). Returns the
// positions kept, ascending; all of them where no removal raises the strength.
std::vector<std::uint32_t> peel_while_stronger(const std::vector<std::vector<double>>& coordinates,
                                               const Strength& strength);

// `cluster` with only its points at the positions `kept` (ascending).
SubspaceCluster keeping(SubspaceCluster cluster, const std::vector<std::uint32_t>& kept);

}  // namespace subscale::significance
