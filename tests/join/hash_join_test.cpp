#include "stages/join/hash_join.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "datasets/generators/join_generators.hpp"
#include "stages/join/join_memory.hpp"
#include "stages/join/probe_plan.hpp"
#include "tests/join/sort_merge_join.hpp"

namespace subscale::join {
namespace {

using testing::as_sorted_multiset;
using testing::sort_merge_join;

// Layouts that exercise one, two and three passes, and probe chunks small enough that skewed
// partitions are probed by several work items.
std::vector<JoinOptions> cpu_variants() {
  std::vector<JoinOptions> variants(5);
  variants[1].radix_bits = 3;
  variants[1].passes = 1;
  variants[2].radix_bits = 4;
  variants[2].passes = 2;
  variants[2].probe_chunk = 16;
  variants[3].radix_bits = 2;
  variants[3].passes = 3;
  variants[3].probe_chunk = 7;
  variants[4].hash = JoinHash::fnv1a64;  // the seed's hash
  return variants;
}

void expect_equals_sort_merge(const JoinRelations& input, const std::string& what) {
  const auto expected = sort_merge_join(input.r_keys, input.s_keys);
  for (const JoinOptions& options : cpu_variants()) {
    const JoinPairs pairs = hash_join(input.r_keys, input.s_keys, options);
    EXPECT_EQ(as_sorted_multiset(pairs), expected) << what << " with " << options.passes << " passes of "
                                                   << options.radix_bits << " bits, chunk " << options.probe_chunk;
  }
}

TEST(HashJoinCpu, UniformWithPartialOverlap) {
  expect_equals_sort_merge(generate_uniform({.r_rows = 20000, .s_rows = 30000, .overlap = 0.5, .seed = 1}),
                           "uniform, overlap 0.5");
}

TEST(HashJoinCpu, ZipfHalfAndOne) {
  expect_equals_sort_merge(generate_zipf({.r_rows = 5000, .s_rows = 40000, .alpha = 0.5, .seed = 2}), "zipf 0.5");
  expect_equals_sort_merge(generate_zipf({.r_rows = 5000, .s_rows = 40000, .alpha = 1.0, .seed = 3}), "zipf 1.0");
  // Skew on both sides: the hot keys repeat in R too, so their pairs multiply.
  expect_equals_sort_merge(generate_zipf({.r_rows = 3000, .s_rows = 3000, .alpha = 1.0, .zipf_r = true, .seed = 4}),
                           "zipf 1.0 on both sides");
}

TEST(HashJoinCpu, AllKeysEqual) {
  JoinRelations input{std::vector<std::uint64_t>(300, 7), std::vector<std::uint64_t>(200, 7)};
  expect_equals_sort_merge(input, "all keys equal");
  EXPECT_EQ(hash_join(input.r_keys, input.s_keys, {}).size(), 300U * 200U);
}

TEST(HashJoinCpu, NoMatches) {
  const auto input = generate_uniform({.r_rows = 10000, .s_rows = 10000, .overlap = 0.0, .seed = 5});
  EXPECT_EQ(hash_join(input.r_keys, input.s_keys, {}).size(), 0U);
  expect_equals_sort_merge(input, "no matches");
}

TEST(HashJoinCpu, DuplicatesOnBothSides) {
  expect_equals_sort_merge(
      generate_uniform({.r_rows = 4000, .s_rows = 6000, .overlap = 0.8, .r_unique = false, .seed = 6}),
      "duplicates in R and S");
  // Keys that differ only above the partition and bucket bits' reach still must not match:
  // 0 and 2^63 and a few neighbours.
  const std::vector<std::uint64_t> r{0, 1ULL << 63, 1, 1, ~0ULL};
  const std::vector<std::uint64_t> s{1ULL << 63, 1, 0, 0, ~0ULL, 2};
  expect_equals_sort_merge({r, s}, "hand-made keys");
}

TEST(JoinOptions, ParsesNamesAndRejectsUnknownOnes) {
  EXPECT_EQ(parse_join_hash("fnv1a64"), JoinHash::fnv1a64);
  EXPECT_EQ(to_string(parse_join_hash("fmix64")), "fmix64");
  EXPECT_THROW(parse_join_hash("md5"), UsageError);
  EXPECT_EQ(parse_backend("cuda"), Backend::cuda);
  EXPECT_THROW(parse_backend("gpu"), UsageError);
}

TEST(HashJoinCpu, EmptyInputs) {
  const std::vector<std::uint64_t> some{1, 2, 3}, none;
  EXPECT_EQ(hash_join(none, some, {}).size(), 0U);
  EXPECT_EQ(hash_join(some, none, {}).size(), 0U);
  EXPECT_EQ(hash_join(none, none, {}).size(), 0U);
}

TEST(HashJoinCpu, SortedOutputIsBySRowThenRRow) {
  const auto input = generate_uniform({.r_rows = 2000, .s_rows = 3000, .overlap = 0.9, .r_unique = false, .seed = 7});
  JoinOptions options;
  options.sort_output = true;
  const JoinPairs pairs = hash_join(input.r_keys, input.s_keys, options);
  ASSERT_EQ(as_sorted_multiset(pairs), sort_merge_join(input.r_keys, input.s_keys));
  for (std::size_t k = 1; k < pairs.size(); ++k) {
    ASSERT_TRUE(pairs.s_rows[k - 1] < pairs.s_rows[k] ||
                (pairs.s_rows[k - 1] == pairs.s_rows[k] && pairs.r_rows[k - 1] < pairs.r_rows[k]));
  }
}

TEST(HashJoinCpu, DeterministicOrder) {
  const auto input = generate_zipf({.r_rows = 3000, .s_rows = 20000, .alpha = 1.0, .zipf_r = true, .seed = 8});
  const JoinPairs a = hash_join(input.r_keys, input.s_keys, {});
  const JoinPairs b = hash_join(input.r_keys, input.s_keys, {});
  EXPECT_EQ(a.r_rows, b.r_rows);
  EXPECT_EQ(a.s_rows, b.s_rows);
}

TEST(JoinMemory, RefusesBeforeAllocatingWhenTablesDoNotFit) {
  const auto input = generate_uniform({.r_rows = 10000, .s_rows = 10000, .seed = 9});
  JoinOptions options;
  options.memory_budget_bytes = 100000;  // far below 2 x 10^4 x 24 bytes of partition buffers
  try {
    hash_join(input.r_keys, input.s_keys, options);
    FAIL() << "expected a ResourceError";
  } catch (const ResourceError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("budget"), std::string::npos) << message;
    EXPECT_NE(message.find("nothing was allocated"), std::string::npos) << message;
  }
}

TEST(JoinMemory, LargeOutputIsSplitIntoBatchesThatFit) {
  // 400 x 400 equal keys = 160000 pairs; the budget leaves room for the minimal output buffer
  // only, so the output comes in several batches.
  const JoinRelations input{std::vector<std::uint64_t>(400, 5), std::vector<std::uint64_t>(400, 5)};
  JoinOptions options;
  options.probe_chunk = 8;  // work items of 8 x 400 = 3200 pairs
  const JoinSettings settings = resolve_settings(options, input.r_keys.size());
  const JoinMemoryPlan plan = plan_join_memory(400, 400, settings, Backend::cpu);
  options.memory_budget_bytes = plan.fixed_bytes() + kMinOutputBatchPairs * kBytesPerOutputPair;
  std::uint64_t announced = 0, received = 0, batches = 0;
  PairSink sink;
  sink.on_total = [&](std::uint64_t total) { announced = total; };
  sink.on_batch = [&](std::span<const std::uint32_t> r, std::span<const std::uint32_t> s) {
    EXPECT_EQ(r.size(), s.size());
    EXPECT_LE(r.size(), kMinOutputBatchPairs);
    received += r.size();
    ++batches;
  };
  JoinTimings timings;
  hash_join_batches(input.r_keys, input.s_keys, options, sink, &timings);
  EXPECT_EQ(announced, 160000U);
  EXPECT_EQ(received, 160000U);
  EXPECT_GE(batches, 3U);
  EXPECT_EQ(timings.output_batches, batches);
}

TEST(ProbePlan, ChunksSkipsEmptyAndSplitsBatches) {
  // Partitions: R sizes 2, 0, 5; S sizes 10, 4, 0.
  const std::vector<std::uint32_t> r_offsets{0, 2, 2, 7}, s_offsets{0, 10, 14, 14};
  const ProbePlan plan = make_probe_plan(r_offsets, s_offsets, 4, 3);
  ASSERT_EQ(plan.items.size(), 3U);  // partition 0 in chunks of 4: [0,4) [4,8) [8,10)
  EXPECT_EQ(plan.items[2].s_begin, 8U);
  EXPECT_EQ(plan.items[2].s_end, 10U);
  EXPECT_TRUE(plan.tables.empty());  // partition 0's R side (2) fits the fast table (3)
  const ProbePlan prebuilt = make_probe_plan(r_offsets, s_offsets, 4, 1);
  ASSERT_EQ(prebuilt.tables.size(), 1U);
  EXPECT_EQ(prebuilt.heads_total, 2U);
  EXPECT_EQ(prebuilt.items[0].prebuilt, 1);

  const std::vector<std::uint64_t> offsets{0, 3, 3, 7, 9};
  const auto batches = split_into_batches(offsets, 5);
  ASSERT_EQ(batches.size(), 3U);
  EXPECT_EQ(batches[0], (std::pair<std::size_t, std::size_t>{0, 2}));
  EXPECT_EQ(batches[1], (std::pair<std::size_t, std::size_t>{2, 3}));
  EXPECT_EQ(batches[2], (std::pair<std::size_t, std::size_t>{3, 4}));
  EXPECT_THROW(split_into_batches(offsets, 3), ResourceError);
}

}  // namespace
}  // namespace subscale::join
