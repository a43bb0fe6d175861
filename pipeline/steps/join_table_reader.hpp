#pragma once
// Reads a table to join from HDF5: a 1-D integer key dataset and, optionally, a numeric 1-D or
// 2-D (rows, columns) dataset with one row per key. Shared by `subscale join` and the pipeline's
// join: section, which differ only in what they refuse and how they name things.
#include <filesystem>
#include <string>

#include "stages/join/column_join.hpp"

namespace subscale::pipeline {

struct JoinTableSource {
  std::filesystem::path path;
  std::string key_dataset;
  std::string data_dataset;  // empty: keys only
  // The config keys that name the file and the datasets, so an error says what to change.
  std::string path_setting, key_setting, data_setting;
  // Columns joined onto the points to cluster: the keys are point ids (negative ones refused), and
  // the values features (at least one column; NaN and Inf refused with their row and column).
  // Otherwise signed keys keep their bit patterns and any numbers pass.
  bool for_clustering = false;
  std::string column_prefix;  // column c is named column_prefix + c
};

// Throws InputError naming the file, the dataset and the setting to change.
join::ColumnTable read_join_table(const JoinTableSource& source);

// A join compares keys by value. Keys of one signedness compare by their bit patterns; across
// signedness the patterns of -1 and 2^64 - 1 (or -2^63 and 2^63) agree while the values do not, so
// mixed keys are joined only when every key lies in 0..2^63 - 1, where the pattern is the value.
// Throws InputError naming the first key that does not, its table and row, and what to do.
void check_comparable_keys(const join::ColumnTable& r, const std::string& r_key, const join::ColumnTable& s,
                           const std::string& s_key);

}  // namespace subscale::pipeline
