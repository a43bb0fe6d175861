#pragma once
// The quality analyser: how well a hash function spreads a given table. Each measure comes with
// its limit and a pass/flag verdict, so a report says plainly what is wrong with a function.
//
// Balance, chi-square and low-bit balance are computed over the hashes of DISTINCT records
// (duplicate rows hash alike under any function and say nothing about it); collisions count
// distinct records that share a hash with another one.
//
// Limits are statistical: a measure is flagged when it lies more than `z_limit` standard errors
// from what a random function would give (plus a small effect-size floor where noted, so a huge
// table does not flag a negligible bias).
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "gpu/hash/hash_function_id.hpp"
#include "stages/hash/row_table.hpp"

namespace subscale::hash {

struct QualityOptions {
  std::size_t avalanche_samples = 4096;          // records whose input bits are flipped one at a time
  std::vector<int> radix_bits = {4, 8, 12, 16};  // low-bit balance for these radix widths
  std::size_t max_chi_square_buckets = 65536;    // fewer when there are fewer than 10 records per bucket
  double z_limit = 6.0;
  std::uint64_t seed = 1;  // which records the avalanche test samples
};

// Fraction of ones per output bit; ideal 0.5. Flag: worst |p - 0.5| > 0.001 + z / (2 sqrt(n)).
struct BitBalance {
  std::vector<double> ones_fraction;
  int worst_bit = 0;
  double worst_deviation = 0;
  double limit = 0;
  bool pass = true;
};

// Flip one input bit, count output bits that change. mean: fraction changed over all flips,
// ideal 0.5, flag when off by more than 0.01 (+ z standard errors). worst: the (input bit,
// output bit) pair whose flip probability is farthest from 0.5, flag above 0.01 + z / (2 sqrt(S)).
struct Avalanche {
  std::size_t samples = 0;
  double mean_fraction = 0;
  double mean_limit = 0;  // allowed |mean - 0.5|
  int worst_input_bit = 0;
  int worst_output_bit = 0;
  double worst_fraction = 0;  // the flip probability of that pair
  double worst_limit = 0;     // allowed |p - 0.5|
  bool pass = true;
};

// Counts in `buckets` equal ranges of the hash value (its top bits), against the uniform
// expectation. z: the chi-square statistic as a standard normal (Wilson-Hilferty); flag z > z_limit.
struct BucketChiSquare {
  int bits = 0;  // buckets = 2^bits; 0 when skipped (too few records)
  double statistic = 0;
  double degrees_of_freedom = 0;
  double z = 0;
  double max_over_mean = 0;  // the fullest bucket relative to the mean
  bool skipped = false;
  bool pass = true;
};

struct Collisions {
  std::size_t rows = 0;
  std::size_t distinct_records = 0;
  std::size_t distinct_hashes = 0;
  std::size_t colliding_records = 0;  // distinct_records - distinct_hashes
  std::size_t largest_group = 0;      // most distinct records sharing one hash
  double expected = 0;                // for a random function into 2^W values
  double limit = 0;                   // flag above expected + z sqrt(expected) + 1
  bool pass = true;
};

struct QualityReport {
  int width_bits = 64;
  int row_words = 1;
  double z_limit = 6.0;
  BitBalance balance;
  Avalanche avalanche;
  BucketChiSquare chi_square;  // top bits
  Collisions collisions;
  std::vector<BucketChiSquare> low_bits;  // h mod 2^b, one per radix width
  bool pass() const;
};

template <class H>
using RecordHasher = std::function<H(const std::uint32_t* words, int count)>;

// `hashes[r]` must be the hash of row r; `hasher` recomputes hashes of flipped records.
template <class H>
QualityReport analyse_hash_quality(const RowTableView& table, std::span<const H> hashes, const RecordHasher<H>& hasher,
                                   const QualityOptions& options = {});

// The same for one of the project's functions.
template <class H>
QualityReport analyse_hash_quality(const HashSpec& spec, const RowTableView& table, std::span<const H> hashes,
                                   const QualityOptions& options = {});

// A plain-text table: one line per measure, value, limit and PASS / FLAG.
std::string format_quality_table(const QualityReport& report);

}  // namespace subscale::hash
