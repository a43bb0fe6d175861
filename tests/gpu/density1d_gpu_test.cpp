// density1d on the GPU gives the CPU's result bit for bit: the same sorted order (ties by point
// id, -0.0 with +0.0), window ends, labels, cluster and core counts, in one batch or many.
// Skips where no CUDA device is usable.
#include <gtest/gtest.h>

#include "gpu/device_info.hpp"
#include "stages/density1d/density1d_cuda.hpp"
#include "tests/core/core_test_data.hpp"
#include "tests/gpu/density1d_compare.hpp"

namespace subscale {
namespace {

TEST(Density1dGpu, EqualsCpuWithTiesSignedZerosAndBatches) {
  const auto device = gpu::query_device();
  if (!device.available) GTEST_SKIP() << "no CUDA device: " << device.reason;
  for (std::uint64_t seed : {3u, 4u}) {
    Matrix values = testing::tied_data(2000, 7, seed, 150);
    // Zeros of both signs in one dimension: the CPU's comparison finds them equal.
    for (Eigen::Index i = 0; i < values.rows(); i += 3) values(i, 2) = (i % 2) ? -0.0 : 0.0;
    for (double eps : {0.004, 0.02, 0.1}) {
      for (std::uint32_t m : {2u, 4u, 9u}) {
        const Density1dParams params{eps, m};
        const Density1dResult cpu = run_density1d(values, params);
        const std::string what =
            "seed=" + std::to_string(seed) + " eps=" + std::to_string(eps) + " m=" + std::to_string(m);
        testing::expect_same_density(run_density1d_cuda(values, params), cpu, what);
        testing::expect_same_density(run_density1d_cuda(values, params, {.batch_values = 2 * 2000}), cpu,
                                     what + " batches of 2");
        testing::expect_same_density(run_density1d_cuda(values, params, {.batch_values = 1}), cpu,
                                     what + " batches of 1");
      }
    }
  }
}

TEST(Density1dGpu, TinyInputs) {
  const auto device = gpu::query_device();
  if (!device.available) GTEST_SKIP() << "no CUDA device: " << device.reason;
  Matrix one(1, 3);
  one << 0.5, 0.25, 0.0;
  testing::expect_same_density(run_density1d_cuda(one, {0.1, 2}), run_density1d(one, {0.1, 2}), "one point");
  const Matrix same = Matrix::Constant(50, 2, 0.3);
  testing::expect_same_density(run_density1d_cuda(same, {0.1, 5}), run_density1d(same, {0.1, 5}), "all equal");
}

}  // namespace
}  // namespace subscale
