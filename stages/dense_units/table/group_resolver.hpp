#pragma once
// Turning a group of units with equal table keys into true units: each member is located from its
// flat index, its points recomputed, and the group split by what must also match (the second
// signature in 128-bit mode, the point ids in exact mode). True units found in two or more
// dimensions are added to the output. Shared by the CPU and GPU backends.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/table/signature_grouping.hpp"
#include "stages/dense_units/unit_enumerator.hpp"

namespace subscale {

// A member of a group of equal keys, resolved to its dimension and points.
struct ResolvedMember {
  // What must match for two members to be one unit: the primary signature S1 (the table may
  // group by a part of it) and S2 in 128-bit mode (else 0); in exact mode the points decide.
  std::uint64_t signature;
  std::uint64_t identity;
  std::uint32_t dimension;
  std::uint64_t flat;
  std::vector<std::uint32_t> points;  // ascending
};

class GroupResolver {
 public:
  GroupResolver(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                const DenseUnitsParams& params)
      : plan_(plan), density_(density), keys_(keys), params_(params), subset_(plan.min_points() - 1) {}

  // Splits the group into true units (by S2 or by point ids) and adds those found in >= 2
  // dimensions to `out` (a MaximalUnits, or anything with add(points, dimensions)).
  template <class Out>
  void resolve(const std::vector<UnitRecord>& group, Out& out) {
    // members_ only grows, so the members' point vectors keep their capacity between groups.
    if (members_.size() < group.size()) members_.resize(group.size());
    const auto members_end = members_.begin() + static_cast<std::ptrdiff_t>(group.size());
    for (std::size_t g = 0; g < group.size(); ++g) resolve_member(group[g].flat, members_[g]);
    const bool by_points = params_.mode == TableMode::exact;
    std::sort(members_.begin(), members_end, [by_points](const ResolvedMember& a, const ResolvedMember& b) {
      if (by_points && a.points != b.points) return a.points < b.points;
      if (a.signature != b.signature) return a.signature < b.signature;
      if (a.identity != b.identity) return a.identity < b.identity;
      return a.dimension != b.dimension ? a.dimension < b.dimension : a.flat < b.flat;
    });
    for (std::size_t a = 0; a < group.size();) {
      std::size_t b = a + 1;
      while (b < group.size() && members_[b].signature == members_[a].signature &&
             members_[b].identity == members_[a].identity && (!by_points || members_[b].points == members_[a].points))
        ++b;
      dimensions_.clear();
      for (std::size_t i = a; i < b; ++i)
        if (dimensions_.empty() || dimensions_.back() != members_[i].dimension)
          dimensions_.push_back(members_[i].dimension);
      // In 64-bit mode a false match could join different point sets; the points of the first
      // member (smallest dimension, then flat index) are kept, so the result stays deterministic.
      if (dimensions_.size() >= 2) out.add(members_[a].points, dimensions_);
      a = b;
    }
  }

 private:
  void resolve_member(std::uint64_t flat, ResolvedMember& member) {
    const UnitLocation location = plan_.locate(flat);
    const auto& dimension = density_.dimensions[location.dimension];
    const std::uint32_t k = plan_.min_points() - 1;
    const std::uint32_t following = dimension.window_end[location.position] - location.position - 1;
    combinadic::unrank(plan_.binomials(), location.rank, following, k, subset_.data());
    member.points.resize(k + 1);
    unit_points(dimension, location.position, subset_.data(), k, member.points.data());
    std::sort(member.points.begin(), member.points.end());
    member.dimension = location.dimension;
    member.flat = flat;
    member.signature = 0;
    member.identity = 0;
    if (params_.mode == TableMode::signature) {
      for (auto p : member.points) member.signature += keys_.primary[p];
      if (params_.signature_bits == 128)
        for (auto p : member.points) member.identity += keys_.secondary[p];
    }
  }

  const UnitPlan& plan_;
  const Density1dResult& density_;
  const SignatureKeys& keys_;
  const DenseUnitsParams& params_;
  std::vector<std::uint32_t> subset_;
  std::vector<ResolvedMember> members_;
  std::vector<std::uint32_t> dimensions_;
};

}  // namespace subscale
