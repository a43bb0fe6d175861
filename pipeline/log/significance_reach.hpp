#pragma once
// What the significance test can pass at all on data of this size, said by `plan` before a run:
// for 2 to 4 dimensions, the smallest cluster whose best case (a box holding only its own points,
// stages/significance/subspace_bound.hpp) reaches the test's bar, and a warning where even a
// cluster of a tenth of the points could not pass in 2 dimensions. On few points in many
// dimensions the search correction (every box of every subspace) outweighs any small cluster, and
// the run would end with nothing: this says so before it starts.
#include <cstdint>
#include <string>
#include <vector>

#include "common/held_values.hpp"

namespace subscale::pipeline {

// The share of the points a cluster may hold for the warning to fire when even it cannot pass.
inline constexpr double kReachShare = 0.1;

// The lines for plan: the smallest passing cluster per dimensionality and, where it exceeds
// kReachShare of the points in 2 dimensions, a line that begins with "warning: ". `distinct` is
// the typical number of distinct values of a dimension; `alpha` the test's level.
std::vector<std::string> significance_reach_lines(std::uint32_t points, std::uint32_t dimensions,
                                                  std::uint32_t distinct, double alpha);

// The median over the dimensions of their numbers of distinct values (u_j of the test's search
// correction).
std::uint32_t median_distinct_values(const HeldValues& held);

}  // namespace subscale::pipeline
