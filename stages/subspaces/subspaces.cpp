#include "stages/subspaces/subspaces.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <span>
#include <sstream>
#include <unordered_map>

#include "gpu/hash/hash_functions.hpp"

namespace subscale {
namespace {

bool subspace_order(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  if (a.size() != b.size()) return a.size() > b.size();
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

}  // namespace

std::vector<SubspaceCluster> group_subspaces(const MaximalUnits& units) {
  // Distinct subspaces are few next to units: one hash map from D(U) to its subspace, then every
  // unit's points appended to it, then each subspace's points sorted and deduplicated in parallel.
  struct DimsHash {
    std::size_t operator()(std::span<const std::uint32_t> dims) const noexcept {
      std::uint64_t h = dims.size();
      for (auto d : dims) h = hash::fmix64(h ^ d);
      return static_cast<std::size_t>(h);
    }
  };
  struct DimsEqual {
    bool operator()(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) const noexcept {
      return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
  };
  std::unordered_map<std::span<const std::uint32_t>, std::size_t, DimsHash, DimsEqual> index;
  std::vector<SubspaceCluster> subspaces;
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto dims = units.unit_dimensions(u);
    auto [where, added] = index.try_emplace(dims, subspaces.size());
    if (added) subspaces.push_back({{dims.begin(), dims.end()}, {}});
    const auto points = units.unit_points(u);
    auto& target = subspaces[where->second].points;
    target.insert(target.end(), points.begin(), points.end());
  }
  tbb::parallel_for(std::size_t{0}, subspaces.size(), [&](std::size_t s) {
    auto& points = subspaces[s].points;
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
  });
  std::sort(subspaces.begin(), subspaces.end(), [](const SubspaceCluster& a, const SubspaceCluster& b) {
    return subspace_order(a.dimensions, b.dimensions);
  });
  return subspaces;
}

std::string subspaces_text(const std::vector<SubspaceCluster>& subspaces) {
  std::ostringstream out;
  for (const auto& subspace : subspaces) out << subspace << '\n';
  return out.str();
}

}  // namespace subscale
