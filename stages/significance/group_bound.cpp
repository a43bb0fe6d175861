#include "stages/significance/group_bound.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "stages/merge/point_groups.hpp"
#include "stages/significance/search_correction.hpp"
#include "stages/significance/subspace_bound.hpp"

namespace subscale::significance {
namespace {

// The smallest group size whose bound without tie floors reaches `threshold` (largest + 1 when
// none does). The bound rises with the size up to k* and holds its best after
// (subspace_bound.hpp), so a search by halving finds it.
std::uint32_t smallest_size_that_can_pass(std::uint32_t n, std::size_t s, double log_m, std::uint32_t min_size,
                                          std::uint32_t largest, double threshold) {
  const std::vector<double> no_floors(s, -std::numeric_limits<double>::infinity());
  std::uint32_t lo = std::max<std::uint32_t>(min_size, 1), hi = largest + 1;
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (best_score_within(n, no_floors, log_m, min_size, mid) >= threshold)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// Whether some cluster of `group` could pass: it must gather in two dimensions of S, and its best
// case with the group's own size and tie floors must reach the threshold.
bool group_can_pass(const Marginals& marginals, const SubspaceCluster& subspace, std::span<const std::uint32_t> group,
                    double log_m, std::uint32_t min_size, double threshold, double background_share) {
  const double most = background_share * static_cast<double>(marginals.points());  // as gathering_dimensions
  std::vector<double> log_floors;
  log_floors.reserve(subspace.dimensions.size());
  std::size_t gathering = 0;
  for (const auto j : subspace.dimensions) {
    std::uint32_t smallest_tie = marginals.points();
    for (const auto p : group) smallest_tie = std::min(smallest_tie, marginals.tie_count(j, p));
    if (static_cast<double>(smallest_tie) <= most) ++gathering;
    log_floors.push_back(std::log(static_cast<double>(smallest_tie) / marginals.points()));
  }
  if (gathering < 2) return false;
  return best_score_within(marginals.points(), log_floors, log_m, min_size, static_cast<std::uint32_t>(group.size())) >=
         threshold;
}

template <class T>
GroupBoundCounts trim_one(const ColumnMatrix<T>& values, const Marginals& marginals, SubspaceCluster& subspace,
                          std::uint32_t min_size, double merge_epsilon, double threshold, double background_share) {
  GroupBoundCounts counts;
  const std::size_t before = subspace.points.size();
  const double log_m = log_search_size(marginals, subspace.dimensions);
  const std::uint32_t keep_size = smallest_size_that_can_pass(marginals.points(), subspace.dimensions.size(), log_m,
                                                              min_size, static_cast<std::uint32_t>(before), threshold);
  std::uint64_t set_aside = 0;
  const auto groups = merge::point_groups(values, subspace, merge_epsilon, keep_size, set_aside);
  std::vector<std::uint32_t> kept;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto group = groups.group(g);
    if (!group_can_pass(marginals, subspace, group, log_m, min_size, threshold, background_share)) continue;
    kept.insert(kept.end(), group.begin(), group.end());
    ++counts.groups_kept;
  }
  std::sort(kept.begin(), kept.end());
  counts.groups = groups.size() + set_aside;
  counts.points_dropped = before - kept.size();
  counts.subspaces_dropped = kept.empty() ? 1 : 0;
  subspace.points = std::move(kept);
  return counts;
}

}  // namespace

template <class T>
GroupBoundCounts keep_passing_groups(const ColumnMatrix<T>& values, const Marginals& marginals,
                                     std::vector<SubspaceCluster>& subspaces, std::uint32_t min_size,
                                     double merge_epsilon, const TestParams& params) {
  GroupBoundCounts total;
  if (params.correction != Correction::bonferroni) return total;
  const double threshold = -std::log10(params.alpha);
  std::vector<GroupBoundCounts> counts(subspaces.size());
  tbb::parallel_for(std::size_t{0}, subspaces.size(), [&](std::size_t i) {
    counts[i] = trim_one(values, marginals, subspaces[i], min_size, merge_epsilon, threshold, params.background_share);
  });
  for (const auto& c : counts) {
    total.groups += c.groups;
    total.groups_kept += c.groups_kept;
    total.points_dropped += c.points_dropped;
    total.subspaces_dropped += c.subspaces_dropped;
  }
  std::erase_if(subspaces, [](const SubspaceCluster& s) { return s.points.empty(); });
  return total;
}

template GroupBoundCounts keep_passing_groups(const ColumnMatrix<float>&, const Marginals&,
                                              std::vector<SubspaceCluster>&, std::uint32_t, double, const TestParams&);
template GroupBoundCounts keep_passing_groups(const ColumnMatrix<double>&, const Marginals&,
                                              std::vector<SubspaceCluster>&, std::uint32_t, double, const TestParams&);

}  // namespace subscale::significance
