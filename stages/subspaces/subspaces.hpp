#pragma once
// Stage subspaces (SPEC 7): a unit found in two or more dimensions is a dense unit of the
// subspace D(U). For every subspace S that occurs, P_S is the union of the points of all units
// with D(U) = S exactly. Output sorted by |S| descending, then by S (lexicographic), which is
// what the original SUBSCALE code writes to maximaldense.csv.
#include <string>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "stages/dense_units/maximal_units.hpp"

namespace subscale {

std::vector<SubspaceCluster> group_subspaces(const MaximalUnits& units);

// The text form, one subspace a line: {d1, d2}-[p1, p2, ...]
std::string subspaces_text(const std::vector<SubspaceCluster>& subspaces);

}  // namespace subscale
