#include "stages/dense_units/group_resolver.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace subscale {

MaximalUnits resolve_groups(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                            const DenseUnitsParams& params, const std::vector<UnitRecord>& records,
                            const std::vector<std::uint64_t>& group_begin) {
  const std::size_t groups = group_begin.empty() ? 0 : group_begin.size() - 1;
  constexpr std::size_t kGroupsPerTask = 4096;
  const std::size_t tasks = (groups + kGroupsPerTask - 1) / kGroupsPerTask;
  std::vector<MaximalUnits> found(tasks);
  tbb::parallel_for(std::size_t{0}, tasks, [&](std::size_t t) {
    GroupResolver resolver(plan, density, keys, params);
    std::vector<UnitRecord> group;
    found[t].min_points = plan.min_points();
    for (std::size_t g = t * kGroupsPerTask; g < std::min(groups, (t + 1) * kGroupsPerTask); ++g) {
      group.assign(records.begin() + static_cast<std::ptrdiff_t>(group_begin[g]),
                   records.begin() + static_cast<std::ptrdiff_t>(group_begin[g + 1]));
      if (group.size() >= 2) resolver.resolve(group, found[t]);
    }
  });
  MaximalUnits all;
  all.min_points = plan.min_points();
  for (const auto& part : found) all.append(part);
  return all;
}

}  // namespace subscale
