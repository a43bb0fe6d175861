#pragma once
// Stage subspaces (docs/method.md §8): a unit found in two or more dimensions is a dense unit of the
// subspace D(U). For every subspace S that occurs, P_S is the union of the points of all units
// with D(U) = S exactly. Output sorted by |S| descending, then by S (lexicographic), which is
// what the original SUBSCALE code writes to maximaldense.csv.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "stages/dense_units/maximal_units.hpp"

namespace subscale {

// The stage's order of two subspaces (sorted dimension lists): the larger first, then
// lexicographic.
bool subspace_order(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b);

std::vector<SubspaceCluster> group_subspaces(const MaximalUnits& units);

// The same grouping fed one batch of units at a time (dense_units hands over a partition's units
// as soon as they are found), so the units need never be held all at once. add() is called from
// one thread at a time and works in parallel inside.
class SubspaceAccumulator {
 public:
  explicit SubspaceAccumulator(std::uint32_t points);
  ~SubspaceAccumulator();
  SubspaceAccumulator(const SubspaceAccumulator&) = delete;
  SubspaceAccumulator& operator=(const SubspaceAccumulator&) = delete;

  void add(const MaximalUnits& batch);
  // One unit, from any thread (each thread keeps its own subspaces until finish()).
  void add_unit(std::span<const std::uint32_t> points, std::span<const std::uint32_t> dimensions);
  // Subspaces grouped elsewhere (the GPU backend): each one's points join those seen so far.
  void add(const std::vector<SubspaceCluster>& subspaces);
  // The subspaces so far, sorted by |S| descending, then S.
  std::vector<SubspaceCluster> finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The text form, one subspace a line: {d1, d2}-[p1, p2, ...]
std::string subspaces_text(const std::vector<SubspaceCluster>& subspaces);

}  // namespace subscale
