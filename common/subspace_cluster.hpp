#pragma once
// A set of points together with the subspace (set of dimensions) it lives in. The same plain
// shape serves the subspaces stage's (S, P_S) output, the merge stage's clusters and the hidden
// clusters of a ground-truth file. Both vectors are sorted ascending and free of duplicates.
#include <cstdint>
#include <ostream>
#include <vector>

namespace subscale {

struct SubspaceCluster {
  std::vector<std::uint32_t> dimensions;
  std::vector<std::uint32_t> points;

  friend bool operator==(const SubspaceCluster&, const SubspaceCluster&) = default;
};

// The original SUBSCALE text form: {d1, d2}-[p1, p2, ...]
inline std::ostream& operator<<(std::ostream& out, const SubspaceCluster& cluster) {
  out << '{';
  for (std::size_t i = 0; i < cluster.dimensions.size(); ++i) out << (i ? ", " : "") << cluster.dimensions[i];
  out << "}-[";
  for (std::size_t i = 0; i < cluster.points.size(); ++i) out << (i ? ", " : "") << cluster.points[i];
  return out << ']';
}

}  // namespace subscale
