// The cuda backend against the cpu backend: radix partitions bit for bit, join results as
// multisets and in canonical (sorted) order bit for bit. Skips without a device.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "datasets/generators/join_generators.hpp"
#include "gpu/device_info.hpp"
#include "stages/join/hash_join.hpp"
#include "stages/join/join_memory.hpp"
#include "stages/join/radix_partition.hpp"
#include "tests/join/sort_merge_join.hpp"
#include "tests/skip_without_gpu.hpp"

namespace subscale::join {
namespace {

TEST(JoinGpu, CudaBackendWithoutDeviceIsAClearResourceError) {
  if (gpu::query_device().available) GTEST_SKIP() << "a device is available";
  JoinOptions options;
  options.backend = Backend::cuda;
  const std::vector<std::uint64_t> keys{1, 2, 3};
  EXPECT_THROW(hash_join(keys, keys, options), ResourceError);
  EXPECT_THROW(radix_partition(keys, RadixLayout{{2}}, JoinHash::fmix64, Backend::cuda), ResourceError);
}

TEST(JoinGpu, PartitionsEqualCpuBitForBit) {
  SKIP_WITHOUT_GPU();
  const auto uniform = generate_uniform({.r_rows = 300000, .s_rows = 0, .seed = 21}).r_keys;
  const auto skewed = generate_zipf({.r_rows = 1000, .s_rows = 200000, .alpha = 1.0, .seed = 22}).s_keys;
  const std::vector<std::uint64_t> equal(50000, 99), empty;
  for (const auto* keys : {&uniform, &skewed, &equal, &empty}) {
    for (const RadixLayout& layout :
         {RadixLayout{{8}}, RadixLayout{{9, 8}}, RadixLayout{{11}}, RadixLayout{{3, 4, 5}}}) {
      const PartitionedKeys cpu = radix_partition(*keys, layout, JoinHash::fmix64, Backend::cpu);
      const PartitionedKeys gpu = radix_partition(*keys, layout, JoinHash::fmix64, Backend::cuda);
      ASSERT_EQ(gpu.keys, cpu.keys) << keys->size() << " keys, " << layout.passes() << " passes";
      ASSERT_EQ(gpu.rows, cpu.rows);
      ASSERT_EQ(gpu.offsets, cpu.offsets);
    }
  }
}

void expect_gpu_equals_cpu(const JoinRelations& input, JoinOptions options, const std::string& what) {
  options.sort_output = true;
  options.backend = Backend::cpu;
  const JoinPairs cpu = hash_join(input.r_keys, input.s_keys, options);
  options.backend = Backend::cuda;
  const JoinPairs gpu = hash_join(input.r_keys, input.s_keys, options);
  EXPECT_EQ(gpu.r_rows, cpu.r_rows) << what;
  EXPECT_EQ(gpu.s_rows, cpu.s_rows) << what;
  EXPECT_EQ(testing::as_sorted_multiset(gpu), testing::sort_merge_join(input.r_keys, input.s_keys)) << what;
}

TEST(JoinGpu, JoinEqualsCpuOnAllDistributions) {
  SKIP_WITHOUT_GPU();
  JoinOptions options;
  expect_gpu_equals_cpu(generate_uniform({.r_rows = 200000, .s_rows = 300000, .overlap = 0.5, .seed = 1}), options,
                        "uniform");
  expect_gpu_equals_cpu(generate_zipf({.r_rows = 50000, .s_rows = 300000, .alpha = 0.5, .seed = 2}), options,
                        "zipf 0.5");
  expect_gpu_equals_cpu(generate_zipf({.r_rows = 50000, .s_rows = 300000, .alpha = 1.0, .seed = 3}), options,
                        "zipf 1.0");
  expect_gpu_equals_cpu(generate_zipf({.r_rows = 20000, .s_rows = 20000, .alpha = 1.0, .zipf_r = true, .seed = 4}),
                        options, "zipf 1.0 both sides");
  expect_gpu_equals_cpu(generate_uniform({.r_rows = 30000, .s_rows = 30000, .overlap = 0.9, .r_unique = false}),
                        options, "duplicates on both sides");
  expect_gpu_equals_cpu(generate_uniform({.r_rows = 30000, .s_rows = 30000, .overlap = 0.0}), options, "no matches");
  expect_gpu_equals_cpu({std::vector<std::uint64_t>(700, 3), std::vector<std::uint64_t>(500, 3)}, options,
                        "all keys equal (shared-memory table)");
  expect_gpu_equals_cpu({std::vector<std::uint64_t>(5000, 3), std::vector<std::uint64_t>(100, 3)}, options,
                        "all keys equal (prebuilt global table)");
  expect_gpu_equals_cpu({{}, {1, 2}}, options, "empty R");
  expect_gpu_equals_cpu({{1, 2}, {}}, options, "empty S");
}

TEST(JoinGpu, LayoutsChunksAndBatches) {
  SKIP_WITHOUT_GPU();
  const auto input = generate_zipf({.r_rows = 100000, .s_rows = 200000, .alpha = 1.0, .seed = 5});
  JoinOptions options;
  options.radix_bits = 4;  // 2^8 partitions of ~400 R tuples... and some beyond 2048 with 1 pass
  options.passes = 1;
  expect_gpu_equals_cpu(input, options, "one pass of 4 bits: prebuilt tables");
  options.passes = 3;
  options.probe_chunk = 100;
  expect_gpu_equals_cpu(input, options, "three passes, chunks of 100");
  JoinOptions fnv;
  fnv.hash = JoinHash::fnv1a64;
  expect_gpu_equals_cpu(input, fnv, "fnv1a64");
  // A budget that leaves only the minimal output buffer: the output comes in batches.
  const JoinRelations equal{std::vector<std::uint64_t>(1000, 8), std::vector<std::uint64_t>(300, 8)};
  JoinOptions tight;
  tight.backend = Backend::cuda;
  tight.probe_chunk = 16;  // work items of 16 x 1000 pairs
  const JoinSettings settings = resolve_settings(tight, equal.r_keys.size());
  tight.memory_budget_bytes =
      plan_join_memory(1000, 300, settings, Backend::cuda).fixed_bytes() + kMinOutputBatchPairs * kBytesPerOutputPair;
  JoinTimings timings;
  const JoinPairs pairs = hash_join(equal.r_keys, equal.s_keys, tight, &timings);
  EXPECT_EQ(testing::as_sorted_multiset(pairs), testing::sort_merge_join(equal.r_keys, equal.s_keys));
  EXPECT_GE(timings.output_batches, 4U);  // 300000 pairs in batches of at most 65536
  // And a budget below the fixed part is refused before anything is allocated.
  tight.memory_budget_bytes = 1000;
  EXPECT_THROW(hash_join(equal.r_keys, equal.s_keys, tight), ResourceError);
}

}  // namespace
}  // namespace subscale::join
