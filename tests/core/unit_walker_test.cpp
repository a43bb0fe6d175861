// The GPU's unit walker, run on the CPU: it must visit exactly the units, flat indices and
// signatures of the CPU enumerator, from any starting point, across window and dimension ends.
#include "gpu/enumeration/unit_walker.hpp"

#include <gtest/gtest.h>

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
      std::vector<std::pair<std::uint64_t, std::uint64_t>> walked;
      for (std::uint64_t begin = 0; begin < plan.total_units(); begin += run)
        enumeration::walk_units(
            space, begin, std::min(plan.total_units(), begin + run),
            [&](std::uint64_t flat, std::uint64_t signature) { walked.emplace_back(flat, signature); });
      EXPECT_EQ(walked, expected) << "m=" << m << " run=" << run;
    }
  }
}

}  // namespace
}  // namespace subscale
