#pragma once
// Seeded generators of filter inputs (docs/stages.md §4): lineitem's four Q6 columns with TPC-H's
// distributions, and string columns with uniform or Zipf-skewed lengths, either random text or
// text full of partial matches of a needle (where naive search does the most work per byte).
#include <cstdint>
#include <string>

#include "stages/filter/column_table.hpp"

namespace subscale::filter {

inline constexpr std::uint64_t lineitem_rows_per_scale_factor = 6001215;

// l_quantity (decimal(2): 1..50), l_discount (decimal(2): 0.00..0.10), l_extendedprice
// (decimal(2): l_quantity * p_retailprice of a random part), l_shipdate (date: an order date in
// 1992-01-01..1998-08-02 plus 1..121 days). rows = round(scale_factor * 6,001,215).
ColumnTable generate_lineitem(double scale_factor, std::uint64_t seed);

enum class LengthDistribution { uniform, zipf };
enum class TextKind { random, partial_matches };

struct StringGeneratorOptions {
  std::uint64_t rows = 1000;
  std::uint32_t min_length = 0;
  std::uint32_t max_length = 64;
  LengthDistribution lengths = LengthDistribution::uniform;
  double alpha = 1.0;  // zipf: skew of the lengths (short strings most frequent)
  TextKind text = TextKind::random;
  std::uint32_t alphabet = 26;       // random: letters a.. of this many
  std::string needle = "needle";     // partial_matches: the text repeats needle without its last byte + a byte it lacks
  double needle_probability = 0.01;  // the chance that a string contains the whole needle
  std::string column = "text";
  std::uint64_t seed = 1;
};

ColumnTable generate_strings(const StringGeneratorOptions& options);

}  // namespace subscale::filter
