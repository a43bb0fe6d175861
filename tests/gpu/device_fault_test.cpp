// Device out-of-memory in every GPU stage, made on purpose with SUBSCALE_FAIL_DEVICE_ALLOC
// (gpu/allocation_faults.hpp). Each stage runs once cleanly to count its device allocations, then
// once with each of them failing: every run must either give the clean result (the stage fell back:
// a smaller table and more partitions, or a spill) or stop with a ResourceError (exit 4) that says
// the device ran out of memory. Never a crash, another error or a different result. The core's
// tables must show the documented fallback at least once. The counting test runs everywhere;
// the others skip without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <string>

#include "common/error.hpp"
#include "gpu/allocation_faults.hpp"
#include "gpu/device_info.hpp"
#include "stages/core/core.hpp"
#include "stages/density1d/density1d_cuda.hpp"
#include "stages/filter/filter.hpp"
#include "stages/join/hash_join.hpp"
#include "stages/subspaces/subspaces.hpp"
#include "tests/core/core_test_data.hpp"
#include "tests/filter/filter_test_util.hpp"
#include "tests/skip_without_gpu.hpp"

namespace subscale {
namespace {

constexpr const char* kVariable = "SUBSCALE_FAIL_DEVICE_ALLOC";

// Sets the variable for one scope and starts the count from 1.
class FailDeviceAllocations {
 public:
  explicit FailDeviceAllocations(const std::string& spec) {
    setenv(kVariable, spec.c_str(), 1);
    gpu::reset_device_allocation_count();
  }
  FailDeviceAllocations(const FailDeviceAllocations&) = delete;
  FailDeviceAllocations& operator=(const FailDeviceAllocations&) = delete;
  ~FailDeviceAllocations() { unsetenv(kVariable); }
};

TEST(DeviceFaults, VariableSelectsTheNthAllocationAndLaterOnes) {
  {
    const FailDeviceAllocations fail("3");
    EXPECT_FALSE(gpu::next_device_allocation_fails());
    EXPECT_FALSE(gpu::next_device_allocation_fails());
    EXPECT_TRUE(gpu::next_device_allocation_fails());
    EXPECT_FALSE(gpu::next_device_allocation_fails());
    EXPECT_EQ(gpu::device_allocations_counted(), 4u);
  }
  {
    const FailDeviceAllocations fail("2+");
    EXPECT_FALSE(gpu::next_device_allocation_fails());
    EXPECT_TRUE(gpu::next_device_allocation_fails());
    EXPECT_TRUE(gpu::next_device_allocation_fails());
  }
  EXPECT_FALSE(gpu::next_device_allocation_fails());  // unset: nothing fails, nothing counted
  EXPECT_EQ(gpu::device_allocations_counted(), 0u);
  for (const char* bad : {"0", "x", "-1", "+", "3++"}) {
    const FailDeviceAllocations fail(bad);
    EXPECT_THROW(gpu::next_device_allocation_fails(), UsageError) << bad;
  }
}

struct SweepOutcome {
  std::uint64_t allocations = 0;
  std::uint64_t fell_back = 0;  // a failed allocation, and still the clean result
  std::uint64_t refused = 0;    // a ResourceError about device memory
};

// `stage` returns a text that must equal the clean run's whenever it returns.
SweepOutcome sweep_allocation_faults(const std::function<std::string()>& stage, const std::string& what) {
  SweepOutcome outcome;
  std::string clean;
  {
    const FailDeviceAllocations count_only("1000000000");
    clean = stage();
    outcome.allocations = gpu::device_allocations_counted();
  }
  EXPECT_GT(outcome.allocations, 0u) << what << ": the stage made no device allocation";
  for (std::uint64_t n = 1; n <= outcome.allocations; ++n)
    for (const char* suffix : {"", "+"}) {
      const std::string spec = std::to_string(n) + suffix;
      const FailDeviceAllocations fail(spec);
      try {
        const std::string result = stage();
        EXPECT_EQ(result, clean) << what << " with allocation " << spec << " failing";
        ++outcome.fell_back;
      } catch (const ResourceError& error) {
        EXPECT_NE(std::string(error.what()).find("out of memory"), std::string::npos) << what << ": " << error.what();
        ++outcome.refused;
      } catch (const std::exception& error) {
        ADD_FAILURE() << what << " with allocation " << spec << " failing: not a resource error: " << error.what();
      }
    }
  return outcome;
}

std::string core_on_gpu(const Matrix& values, TableMode mode, std::vector<std::string>* notes = nullptr) {
  CoreParams params;
  params.epsilon = 0.03;
  params.min_points = 3;
  params.units.mode = mode;
  params.backend = subscale::Backend::cuda;
  const CoreResult result = core::run_core(values, params);
  if (notes) notes->insert(notes->end(), result.dense_units.notes.begin(), result.dense_units.notes.end());
  return subspaces_text(result.subspaces);
}

TEST(DeviceFaults, CoreSignatureModeTakesASmallerTableOrStopsWithExit4) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(300, 6, 11, 120);
  std::vector<std::string> notes;
  const SweepOutcome outcome =
      sweep_allocation_faults([&] { return core_on_gpu(values, TableMode::signature, &notes); }, "signature");
  EXPECT_GT(outcome.fell_back, 0u) << "no allocation failure led to a smaller table";
  EXPECT_GT(outcome.refused, 0u);
  bool halved = false;
  for (const auto& note : notes) halved = halved || note.find("took half as many") != std::string::npos;
  EXPECT_TRUE(halved) << "the log never says the table was halved";
}

TEST(DeviceFaults, CoreDirectModeTakesASmallerSubspaceTableOrStopsWithExit4) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(300, 6, 13, 120);
  std::vector<std::string> notes;
  const SweepOutcome outcome =
      sweep_allocation_faults([&] { return core_on_gpu(values, TableMode::direct, &notes); }, "direct");
  EXPECT_GT(outcome.refused, 0u);
  bool halved = false;
  for (const auto& note : notes) halved = halved || note.find("took half as many") != std::string::npos;
  EXPECT_TRUE(halved) << "the log never says the subspace table was halved";
}

TEST(DeviceFaults, Density1dStopsWithExit4) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(2000, 5, 14, 300);
  sweep_allocation_faults(
      [&] {
        const Density1dResult result = run_density1d_cuda(values, {0.01, 4});
        std::string text;
        for (const auto& d : result.dimensions)
          text += std::to_string(d.clusters) + " " + std::to_string(d.core_points) + ";";
        return text;
      },
      "density1d");
}

TEST(DeviceFaults, JoinStopsWithExit4) {
  SKIP_WITHOUT_GPU();
  std::vector<std::uint64_t> r(5000), s(20000);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = i * 7;
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = (i * 13) % 40000;
  sweep_allocation_faults(
      [&] {
        join::JoinOptions options;
        options.backend = subscale::Backend::cuda;
        options.sort_output = true;
        const join::JoinPairs pairs = join::hash_join(r, s, options);
        std::string text;
        for (std::size_t i = 0; i < pairs.r_rows.size(); ++i)
          text += std::to_string(pairs.r_rows[i]) + ":" + std::to_string(pairs.s_rows[i]) + " ";
        return text;
      },
      "join");
}

TEST(DeviceFaults, FilterStopsWithExit4) {
  SKIP_WITHOUT_GPU();
  filter::ColumnTable table;
  std::vector<std::int64_t> numbers(10000);
  for (std::size_t i = 0; i < numbers.size(); ++i) numbers[i] = static_cast<std::int64_t>((i * 37) % 1000);
  table.columns.push_back({"n", filter::ColumnType::int64, 0, numbers});
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < numbers.size(); ++i) texts.push_back(i % 3 ? "PROMO" + std::to_string(i) : "STANDARD");
  table.columns.push_back(filter::testing::string_column("s", texts));
  const filter::Predicate predicate =
      filter::testing::where("{and: [{column: n, lt: 500}, {column: s, prefix: PROMO}]}", table);
  sweep_allocation_faults(
      [&] {
        filter::FilterOptions options;
        options.backend = subscale::Backend::cuda;
        const filter::FilterResult result = filter::run_filter(table, predicate, filter::Aggregate{}, options);
        std::string text;
        for (const auto id : result.ids) text += std::to_string(id) + " ";
        return text;
      },
      "filter");
}

}  // namespace
}  // namespace subscale
