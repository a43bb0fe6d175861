#include "stages/join/radix_partition.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.hpp"
#include "datasets/generators/join_generators.hpp"
#include "stages/join/radix_layout.hpp"

namespace subscale::join {
namespace {

TEST(RadixLayout, AutoAimsAtSmallPartitions) {
  const RadixLayout tiny = choose_radix_layout(10, {});
  EXPECT_EQ(tiny.passes(), 1);
  EXPECT_EQ(tiny.total_bits(), 1);
  const RadixLayout big = choose_radix_layout(1ULL << 27, {});
  EXPECT_EQ(big.total_bits(), 17);  // 2^27 / 2^17 = 1024 tuples per partition
  EXPECT_EQ(big.passes(), 2);
  EXPECT_EQ(big.pass_bits, (std::vector<int>{9, 8}));
  EXPECT_EQ(big.shift(1), 9);
}

TEST(RadixLayout, HonoursGivenBitsAndPasses) {
  JoinOptions options;
  options.radix_bits = 4;
  options.passes = 3;
  EXPECT_EQ(choose_radix_layout(100, options).pass_bits, (std::vector<int>{4, 4, 4}));
  options.passes = 0;  // passes follow from |R|: 2^20 / 1024 -> 10 bits -> 3 passes of 4
  EXPECT_EQ(choose_radix_layout(1 << 20, options).passes(), 3);
  options.radix_bits = 0;
  options.passes = 2;
  EXPECT_EQ(choose_radix_layout(1 << 20, options).pass_bits, (std::vector<int>{5, 5}));
}

TEST(RadixLayout, RejectsBadOptions) {
  JoinOptions options;
  options.radix_bits = 12;
  EXPECT_THROW(choose_radix_layout(100, options), UsageError);
  options.radix_bits = 8;
  options.passes = 4;
  EXPECT_THROW(choose_radix_layout(100, options), UsageError);  // 32 bits > 24
  options = {};
  options.passes = 5;
  EXPECT_THROW(choose_radix_layout(100, options), UsageError);
  options = {};
  options.probe_chunk = 0;
  EXPECT_THROW(choose_radix_layout(100, options), UsageError);
  EXPECT_THROW(radix_partition_cpu(std::vector<std::uint64_t>{1}, RadixLayout{}, JoinHash::fmix64), UsageError);
}

// Every tuple lands in the partition its hash names, partitions are contiguous and ordered,
// rows within a partition keep input order (stable), and the output is a permutation.
void expect_valid_partitioning(const std::vector<std::uint64_t>& keys, const RadixLayout& layout) {
  const PartitionedKeys out = radix_partition_cpu(keys, layout, JoinHash::fmix64);
  ASSERT_EQ(out.keys.size(), keys.size());
  ASSERT_EQ(out.offsets.size(), std::size_t{layout.partitions()} + 1);
  EXPECT_EQ(out.offsets.front(), 0U);
  EXPECT_EQ(out.offsets.back(), keys.size());
  std::vector<bool> seen(keys.size(), false);
  for (std::uint32_t p = 0; p < layout.partitions(); ++p) {
    ASSERT_LE(out.offsets[p], out.offsets[p + 1]);
    for (std::uint32_t i = out.offsets[p]; i < out.offsets[p + 1]; ++i) {
      ASSERT_EQ(partition_of(join_hash(out.keys[i], JoinHash::fmix64), layout.total_bits()), p);
      ASSERT_EQ(keys[out.rows[i]], out.keys[i]);
      ASSERT_FALSE(seen[out.rows[i]]);
      seen[out.rows[i]] = true;
      if (i > out.offsets[p]) {
        ASSERT_LT(out.rows[i - 1], out.rows[i]) << "not stable in partition " << p;
      }
    }
  }
}

TEST(RadixPartitionCpu, UniformKeysOneTwoAndThreePasses) {
  const auto keys = generate_uniform({.r_rows = 100000, .s_rows = 0, .seed = 3}).r_keys;
  expect_valid_partitioning(keys, RadixLayout{{7}});
  expect_valid_partitioning(keys, RadixLayout{{5, 6}});
  expect_valid_partitioning(keys, RadixLayout{{3, 4, 2}});
}

TEST(RadixPartitionCpu, SkewedAndEqualKeysAndEmptyInput) {
  expect_valid_partitioning(generate_zipf({.r_rows = 5000, .s_rows = 50000, .alpha = 1.0, .seed = 9}).s_keys,
                            RadixLayout{{4, 4}});
  expect_valid_partitioning(std::vector<std::uint64_t>(70000, 42), RadixLayout{{6, 5}});
  expect_valid_partitioning({}, RadixLayout{{3}});
}

}  // namespace
}  // namespace subscale::join
