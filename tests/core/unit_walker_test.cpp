// The GPU's unit walker, run on the CPU: it must visit exactly the units, flat indices and
// signatures of the CPU enumerator, from any starting point, across window and dimension ends.
#include "stages/dense_units/enumeration/unit_walker.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "stages/dense_units/unit_enumerator.hpp"
#include "stages/dense_units/unit_space.hpp"
#include "tests/core/core_test_data.hpp"

namespace subscale {
namespace {

TEST(UnitWalker, MatchesTheCpuEnumeratorFromEveryKindOfStart) {
  for (std::uint32_t m : {2u, 3u, 4u, 6u}) {
    const Matrix values = testing::tied_data(120, 5, 11 + m, 60);
    const Density1dResult density = run_density1d(values, {0.05, m});
    const UnitPlan plan(density, m);
    const SignatureKeys keys = make_signature_keys(plan.points(), KeyScheme::uniform, 3);
    const UnitSpaceArrays arrays(plan, density, keys);
    const auto space = arrays.view(plan);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> expected;
    enumerate_units(plan, density, keys.primary.data(), 0, plan.total_units(),
                    [&](const UnitView& unit) { expected.emplace_back(unit.flat, unit.signature); });
    ASSERT_EQ(expected.size(), plan.total_units());
    ASSERT_GT(expected.size(), 1000u);
    for (std::uint64_t run : {1ull, 7ull, 32ull, 1000ull}) {
      // The subset size at run time, and fixed at compile time as the GPU kernels have it.
      std::vector<std::pair<std::uint64_t, std::uint64_t>> walked, walked_fixed;
      for (std::uint64_t begin = 0; begin < plan.total_units(); begin += run) {
        const std::uint64_t end = std::min(plan.total_units(), begin + run);
        auto record = [](auto& into) {
          return [&into](std::uint64_t flat, std::uint64_t signature) { into.emplace_back(flat, signature); };
        };
        enumeration::walk_units(space, begin, end, record(walked));
        switch (m) {
          case 2:
            enumeration::walk_units<1>(space, begin, end, record(walked_fixed));
            break;
          case 3:
            enumeration::walk_units<2>(space, begin, end, record(walked_fixed));
            break;
          case 4:
            enumeration::walk_units<3>(space, begin, end, record(walked_fixed));
            break;
          default:
            enumeration::walk_units<5>(space, begin, end, record(walked_fixed));
            break;
        }
      }
      // Four walkers dealing out each run of the lowest element visit every unit once.
      std::vector<std::pair<std::uint64_t, std::uint64_t>> dealt;
      for (std::uint64_t begin = 0; begin < plan.total_units(); begin += run)
        for (std::uint32_t lane = 0; lane < 4; ++lane)
          enumeration::walk_units_dealt<0, 4>(
              space, begin, std::min(plan.total_units(), begin + run), lane,
              [&](std::uint64_t flat, std::uint64_t signature) { dealt.emplace_back(flat, signature); });
      std::sort(dealt.begin(), dealt.end());
      EXPECT_EQ(dealt, expected) << "m=" << m << " run=" << run << " (dealt to 4 walkers)";
      EXPECT_EQ(walked, expected) << "m=" << m << " run=" << run;
      EXPECT_EQ(walked_fixed, expected) << "m=" << m << " run=" << run << " (compile-time subset size)";
    }
  }
}

}  // namespace
}  // namespace subscale
