// The GPU convention's three rules (gpu/README.md): one budget rule, one execution stream per
// caller, one no-CUDA stand-in per stage. Runs in every build; the stand-ins only without CUDA.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "common/error.hpp"
#include "gpu/cuda_unavailable.hpp"
#include "gpu/device_budget.hpp"
#include "gpu/device_info.hpp"
#include "gpu/execution_stream.hpp"
#include "stages/density1d/density1d_cuda.hpp"
#include "stages/filter/filter_cuda.hpp"
#include "stages/hash/hash_rows_cuda.hpp"
#include "stages/join/join_cuda.hpp"

namespace subscale {
namespace {

TEST(DeviceBudget, AskedBytesCappedAtNinetyPercentOfTheFree) {
  EXPECT_EQ(gpu::device_budget(0, 1000), 900u) << "nothing asked: 90% of the free memory";
  EXPECT_EQ(gpu::device_budget(100, 1000), 100u);
  EXPECT_EQ(gpu::device_budget(900, 1000), 900u);
  EXPECT_EQ(gpu::device_budget(901, 1000), 900u) << "more than the free memory allows is capped";
  EXPECT_EQ(gpu::device_budget(5, 0), 0u);
  const std::uint64_t free_bytes = std::uint64_t{80} << 30;
  EXPECT_EQ(gpu::device_budget(0, free_bytes), free_bytes / 10 * 9);
}

TEST(ExecutionStream, OneStreamForEveryContextAndTheAskedBudget) {
  gpu::ExecutionStream stream;
  const gpu::ExecutionContext first = stream.context(42);
  const gpu::ExecutionContext second = stream.context();
  EXPECT_EQ(first.device_bytes, 42u);
  EXPECT_EQ(second.device_bytes, 0u);
  EXPECT_EQ(first.stream, second.stream) << "a caller's stages share its one stream";
  if (gpu::cuda_backend_built() && gpu::query_device().available)
    EXPECT_NE(first.stream, nullptr) << "a device is usable: a stream of its own, not the legacy default stream";
  else
    EXPECT_EQ(first.stream, nullptr) << "no device: the null stream, and the stage says why it cannot run";
  EXPECT_EQ(gpu::ExecutionContext{}.stream, nullptr);
}

void expect_unavailable(const std::function<void()>& call, const std::string& stage, const std::string& setting) {
  try {
    call();
    ADD_FAILURE() << stage << ": no error";
  } catch (const ResourceError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(stage), std::string::npos) << message;
    EXPECT_NE(message.find("no CUDA backend"), std::string::npos) << message;
    EXPECT_NE(message.find(setting), std::string::npos) << message;
  }
}

TEST(NoCudaRule, TheErrorNamesTheStageAndTheCpuSetting) {
  expect_unavailable([] { gpu::throw_cuda_unavailable("the join", "join.backend=cpu"); }, "the join",
                     "join.backend=cpu");
}

TEST(NoCudaRule, EveryStageEntryPointThrowsTheSameWay) {
  if (gpu::cuda_backend_built()) GTEST_SKIP() << "the stand-ins are built only without CUDA";
  const gpu::ExecutionContext context;
  expect_unavailable(
      [&] {
        run_density1d_cuda(Matrix{}, Density1dParams{0.1, 2}, {}, context);
      },
      "density1d", "backend: cpu");
  expect_unavailable([&] { join::radix_partition_cuda({}, join::RadixLayout{{2}}, join::JoinHash::fmix64, context); },
                     "radix partitioning", "join.backend=cpu");
  expect_unavailable(
      [&] {
        filter::run_filter_cuda(filter::ColumnTable{}, filter::Predicate{}, filter::Aggregate{},
                                filter::FilterOptions{}, context);
      },
      "the filter", "filter.backend=cpu");
  expect_unavailable(
      [&] {
        std::vector<std::uint32_t> out;
        hash::hash_rows_cuda<std::uint32_t>(hash::HashSpec{}, hash::RowTableView{}, std::span(out), context);
      },
      "hash", "hash.backend=cpu");
}

}  // namespace
}  // namespace subscale
