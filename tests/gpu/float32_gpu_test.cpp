// input.precision: float32 on the GPU gives the CPU's float32 result bit for bit: density1d (one
// batch or many) and the core in direct and signature modes (exact mode has no device path), on
// data whose spans lie within rounding of epsilon, where float32 and float64 disagree
// (tests/core/held_precision_test.cpp shows they do). Skips
// where no CUDA device is usable.
#include <gtest/gtest.h>

#include <string>

#include "stages/core/core.hpp"
#include "stages/density1d/density1d_cuda.hpp"
#include "stages/subspaces/subspaces.hpp"
#include "tests/core/core_test_data.hpp"
#include "tests/gpu/density1d_compare.hpp"
#include "tests/skip_without_gpu.hpp"

namespace subscale {
namespace {

TEST(Float32Gpu, Density1dEqualsCpu) {
  SKIP_WITHOUT_GPU();
  for (std::uint64_t seed : {1u, 2u}) {
    const Matrix32 values = testing::near_epsilon_data(2000, 5, seed, 0.1).cast<float>();
    Matrix32 signed_zeros = values;
    signed_zeros(3, 1) = -0.0f;
    signed_zeros(7, 1) = 0.0f;
    for (std::uint32_t m : {2u, 4u}) {
      const Density1dParams params{0.1, m};
      const std::string what = "seed " + std::to_string(seed) + " m " + std::to_string(m);
      const Density1dResult cpu = run_density1d(values, params);
      testing::expect_same_density(run_density1d_cuda(values, params), cpu, what);
      testing::expect_same_density(run_density1d_cuda(values, params, {.batch_values = 2 * 2000}), cpu,
                                   what + " batches of 2");
      testing::expect_same_density(run_density1d_cuda(signed_zeros, params), run_density1d(signed_zeros, params),
                                   what + " zeros");
    }
  }
}

std::string subspaces_with(const Matrix32& values, CoreParams params, Backend backend) {
  params.backend = backend;
  return subspaces_text(core::run_core(values, params).subspaces);
}

TEST(Float32Gpu, CoreModesEqualCpu) {
  SKIP_WITHOUT_GPU();
  for (std::uint64_t seed : {3u, 4u}) {
    // 160 points: the spilling runs (16 entries, items of 40 units) walk every item many times.
    const Matrix32 values = testing::near_epsilon_data(160, 8, seed, 0.1).cast<float>();
    for (TableMode mode : {TableMode::direct, TableMode::signature}) {
      for (std::uint32_t m : {3u, 4u}) {
        CoreParams params;
        params.epsilon = 0.1;
        params.min_points = m;
        params.units.mode = mode;
        params.units.seed = 9;
        const std::string cpu = subspaces_with(values, params, Backend::cpu);
        ASSERT_FALSE(cpu.empty());
        EXPECT_EQ(subspaces_with(values, params, Backend::cuda), cpu)
            << "seed " << seed << " mode " << to_string(mode) << " m " << m;
        if (mode == TableMode::direct) {
          params.units.device_subspace_capacity = 16;  // spills and redoes
          params.units.device_units_per_run = 40;
          EXPECT_EQ(subspaces_with(values, params, Backend::cuda), cpu) << "seed " << seed << " spilling, m " << m;
        } else {
          params.units.partitions = 5;
          EXPECT_EQ(subspaces_with(values, params, Backend::cuda), cpu) << "seed " << seed << " 5 partitions, m " << m;
        }
      }
    }
  }
}

}  // namespace
}  // namespace subscale
