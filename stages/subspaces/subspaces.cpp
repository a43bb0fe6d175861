#include "stages/subspaces/subspaces.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <numeric>
#include <sstream>

namespace subscale {
namespace {

bool subspace_order(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  if (a.size() != b.size()) return a.size() > b.size();
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

}  // namespace

std::vector<SubspaceCluster> group_subspaces(const MaximalUnits& units) {
  std::vector<std::uint32_t> order(units.size());
  std::iota(order.begin(), order.end(), 0u);
  tbb::parallel_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto da = units.unit_dimensions(a), db = units.unit_dimensions(b);
    if (std::equal(da.begin(), da.end(), db.begin(), db.end())) return a < b;
    return subspace_order(da, db);
  });
  // Runs of equal D(U) become one subspace each.
  std::vector<std::size_t> run_begin;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto current = units.unit_dimensions(order[i]);
    if (i == 0) {
      run_begin.push_back(0);
      continue;
    }
    const auto previous = units.unit_dimensions(order[i - 1]);
    if (!std::equal(current.begin(), current.end(), previous.begin(), previous.end())) run_begin.push_back(i);
  }
  run_begin.push_back(order.size());
  std::vector<SubspaceCluster> subspaces(run_begin.size() - 1);
  tbb::parallel_for(std::size_t{0}, subspaces.size(), [&](std::size_t s) {
    auto& subspace = subspaces[s];
    const auto dims = units.unit_dimensions(order[run_begin[s]]);
    subspace.dimensions.assign(dims.begin(), dims.end());
    for (std::size_t i = run_begin[s]; i < run_begin[s + 1]; ++i) {
      const auto points = units.unit_points(order[i]);
      subspace.points.insert(subspace.points.end(), points.begin(), points.end());
    }
    std::sort(subspace.points.begin(), subspace.points.end());
    subspace.points.erase(std::unique(subspace.points.begin(), subspace.points.end()), subspace.points.end());
  });
  return subspaces;
}

std::string subspaces_text(const std::vector<SubspaceCluster>& subspaces) {
  std::ostringstream out;
  for (const auto& subspace : subspaces) out << subspace << '\n';
  return out.str();
}

}  // namespace subscale
