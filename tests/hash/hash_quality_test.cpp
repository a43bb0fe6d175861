// The analyser: it passes a strong mixer, flags deliberately poor functions, and its counts agree
// with brute force on small tables.
#include "stages/hash/hash_quality.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "datasets/generators/hash_input_generator.hpp"
#include "stages/hash/hash_quality_json.hpp"
#include "stages/hash/hash_rows.hpp"

namespace subscale::hash {
namespace {

template <class H>
QualityReport analyse(const std::vector<std::uint32_t>& words, int k, const RecordHasher<H>& hasher,
                      QualityOptions options = {}) {
  const RowTableView table{words.data(), words.size() / k, k};
  std::vector<H> hashes(table.rows);
  for (std::size_t r = 0; r < table.rows; ++r) hashes[r] = hasher(table.row(r), k);
  options.avalanche_samples = 1000;
  return analyse_hash_quality<H>(table, hashes, hasher, options);
}

const RecordHasher<std::uint64_t> kFmix = [](const std::uint32_t* w, int n) { return fmix64_words(w, n); };

TEST(HashQuality, StrongMixerPasses) {
  for (int k : {1, 2, 4}) {
    const auto words = generate_rows({InputDistribution::normal, 40000, k, 5});
    const auto report = analyse<std::uint64_t>(words, k, kFmix);
    EXPECT_TRUE(report.pass()) << "k=" << k << "\n" << format_quality_table(report);
    const auto report32 = analyse<std::uint32_t>(
        words, k, [](const std::uint32_t* w, int n) { return static_cast<std::uint32_t>(fmix64_words(w, n)); });
    EXPECT_TRUE(report32.pass()) << "k=" << k << "\n" << format_quality_table(report32);
  }
}

TEST(HashQuality, IdentityOnLowEntropyInputIsFlagged) {
  const auto words = generate_rows({InputDistribution::sequential, 40000, 1, 1});
  const auto report = analyse<std::uint32_t>(words, 1, [](const std::uint32_t* w, int) { return w[0]; });
  EXPECT_FALSE(report.pass());
  EXPECT_FALSE(report.balance.pass);     // the high bits are always 0
  EXPECT_FALSE(report.chi_square.pass);  // all values in the lowest bucket
  EXPECT_FALSE(report.avalanche.pass);   // one input bit changes one output bit
  EXPECT_NEAR(report.avalanche.mean_fraction, 1.0 / 32, 1e-9);
  EXPECT_TRUE(report.collisions.pass);  // a bijection: no collisions, and that is fine
  EXPECT_EQ(report.collisions.colliding_records, 0u);
  EXPECT_NE(format_quality_table(report).find("FLAG"), std::string::npos);
}

TEST(HashQuality, ConstantLowBitsAreFlagged) {
  const auto words = generate_rows({InputDistribution::normal, 40000, 2, 2});
  const auto report =
      analyse<std::uint64_t>(words, 2, [](const std::uint32_t* w, int n) { return fmix64_words(w, n) & ~0xFFull; });
  EXPECT_FALSE(report.pass());
  EXPECT_FALSE(report.balance.pass);
  EXPECT_LT(report.balance.worst_bit, 8);
  EXPECT_FALSE(report.avalanche.pass);
  EXPECT_TRUE(report.chi_square.pass);  // the top bits are still fine
  ASSERT_EQ(report.low_bits.size(), 4u);
  // 4 and 8 radix bits: one partition gets everything; 12 bits: 16 of 4096 partitions are used.
  EXPECT_FALSE(report.low_bits[0].pass);
  EXPECT_DOUBLE_EQ(report.low_bits[0].max_over_mean, 16.0);
  EXPECT_FALSE(report.low_bits[1].pass);
  EXPECT_DOUBLE_EQ(report.low_bits[1].max_over_mean, 256.0);
  EXPECT_FALSE(report.low_bits[2].pass);
  EXPECT_GT(report.low_bits[2].max_over_mean, 200.0);
  EXPECT_TRUE(report.low_bits[3].skipped);  // 2^16 partitions for 40,000 records: too few to judge
}

TEST(HashQuality, NarrowFunctionHasTooManyCollisions) {
  const auto words = generate_rows({InputDistribution::uniform, 20000, 2, 8});
  const auto report =
      analyse<std::uint64_t>(words, 2, [](const std::uint32_t* w, int n) { return fmix64_words(w, n) >> 48; });
  EXPECT_FALSE(report.collisions.pass);
  EXPECT_GT(report.collisions.colliding_records, 1000u);
}

TEST(HashQuality, CollisionCountsMatchBruteForceAndIgnoreDuplicates) {
  // 3000 rows drawn from 1000 distinct records (duplicates), hashed by a weak 32-bit XOR.
  const auto pool = generate_rows({InputDistribution::uniform, 1000, 2, 4});
  std::vector<std::uint32_t> words;
  for (int copy = 0; copy < 3; ++copy) words.insert(words.end(), pool.begin(), pool.end());
  const RecordHasher<std::uint32_t> weak = [](const std::uint32_t* w, int) { return (w[0] ^ w[1]) & 0xFFFu; };
  const auto report = analyse<std::uint32_t>(words, 2, weak);
  std::set<std::pair<std::uint32_t, std::uint32_t>> records;
  std::map<std::uint32_t, std::set<std::pair<std::uint32_t, std::uint32_t>>> by_hash;
  for (std::size_t r = 0; r < words.size() / 2; ++r) {
    const std::pair<std::uint32_t, std::uint32_t> rec{words[2 * r], words[2 * r + 1]};
    records.insert(rec);
    by_hash[weak(&words[2 * r], 2)].insert(rec);
  }
  std::size_t largest = 0;
  for (const auto& [h, recs] : by_hash) largest = std::max(largest, recs.size());
  EXPECT_EQ(report.collisions.rows, 3000u);
  EXPECT_EQ(report.collisions.distinct_records, records.size());
  EXPECT_EQ(report.collisions.distinct_hashes, by_hash.size());
  EXPECT_EQ(report.collisions.colliding_records, records.size() - by_hash.size());
  EXPECT_EQ(report.collisions.largest_group, largest);

  // A strong function on the same duplicated table: duplicates are not collisions.
  const auto strong = analyse<std::uint64_t>(words, 2, kFmix);
  EXPECT_EQ(strong.collisions.colliding_records, 0u);
  EXPECT_TRUE(strong.collisions.pass);
}

TEST(HashQuality, ExpectedCollisionsFollowTheBirthdayBound) {
  // 2^16 distinct records into 32 bits: about m^2 / 2^33 = 0.5 expected.
  const auto words = generate_rows({InputDistribution::sequential, 65536, 1, 1});
  const auto report = analyse<std::uint32_t>(
      words, 1, [](const std::uint32_t* w, int n) { return static_cast<std::uint32_t>(fmix64_words(w, n)); });
  EXPECT_NEAR(report.collisions.expected, 65536.0 * 65535.0 / 2.0 / 4294967296.0, 0.01);
}

TEST(HashQuality, ProjectFunctionOverloadAndJson) {
  const auto words = generate_rows({InputDistribution::normal, 20000, 1, 3});
  const RowTableView table{words.data(), 20000, 1};
  const HashSpec spec{HashFunction::fnv1a, 1};
  std::vector<std::uint64_t> hashes(table.rows);
  hash_rows<std::uint64_t>(spec, table, hashes, Backend::cpu);
  QualityOptions options;
  options.avalanche_samples = 500;
  const auto report = analyse_hash_quality<std::uint64_t>(spec, table, hashes, options);
  const auto json = quality_to_json(report);
  EXPECT_EQ(json["width_bits"], 64);
  EXPECT_EQ(json["collisions"]["rows"], 20000);
  EXPECT_EQ(json["bit_balance"]["ones_fraction"].size(), 64u);
  EXPECT_EQ(json["low_bits"].size(), 4u);
  EXPECT_EQ(json["verdict"], report.pass() ? "pass" : "flag");
  // The seed's plain Add is a poor function on this data: its avalanche is flagged.
  const HashSpec add{HashFunction::add, 1};
  hash_rows<std::uint64_t>(add, table, hashes, Backend::cpu);
  EXPECT_FALSE(analyse_hash_quality<std::uint64_t>(add, table, hashes, options).avalanche.pass);
}

TEST(HashQuality, BadArgumentsAreRefused) {
  const auto words = generate_rows({InputDistribution::normal, 100, 1, 3});
  const RowTableView table{words.data(), 100, 1};
  std::vector<std::uint64_t> hashes(99);
  EXPECT_THROW(analyse_hash_quality<std::uint64_t>(table, hashes, kFmix), UsageError);
  hashes.resize(100);
  QualityOptions options;
  options.radix_bits = {0};
  EXPECT_THROW(analyse_hash_quality<std::uint64_t>(table, hashes, kFmix, options), UsageError);
}

TEST(HashQuality, SmallTablesSkipBucketTests) {
  const auto words = generate_rows({InputDistribution::normal, 30, 1, 3});
  const auto report = analyse<std::uint64_t>(words, 1, kFmix);
  EXPECT_TRUE(report.low_bits.back().skipped);  // 2^16 buckets for 30 records
  EXPECT_TRUE(report.low_bits.back().pass);
}

}  // namespace
}  // namespace subscale::hash
