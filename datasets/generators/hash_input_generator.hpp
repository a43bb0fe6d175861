#pragma once
// Seeded inputs for hashing, as in the seed's quality tests: each word drawn independently from
// a normal(0.5, 0.1) scaled to 2^32 (a narrow band of values, like real keys, with some from
// everywhere), records of 1 to 4 (or more) words, duplicates allowed. Also uniform words and a
// low-entropy sequence (row r is r, then zeros) for testing the analyser.
//
// Word i of the table depends only on (seed, i): the output is the same for any thread count.
#include <cstdint>
#include <string_view>
#include <vector>

#include "stages/hash/row_table.hpp"

namespace subscale::hash {

enum class InputDistribution { normal, uniform, sequential };

struct InputSpec {
  InputDistribution distribution = InputDistribution::normal;
  std::size_t rows = 100000;  // the seed's 100,000 elements
  int row_words = 1;
  std::uint64_t seed = 1;
  double mean = 0.5;    // normal only, in units of 2^32
  double stddev = 0.1;  // normal only, in units of 2^32
};

InputDistribution parse_input_distribution(std::string_view name, std::string_view where = "distribution");
std::string_view input_distribution_name(InputDistribution d);

// rows * row_words words, row-major.
std::vector<std::uint32_t> generate_rows(const InputSpec& spec);

}  // namespace subscale::hash
