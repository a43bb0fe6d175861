#pragma once
// Attaching a second table's columns to the data matrix by an id column, before clustering (the
// pipeline's `join:` section). Each data row takes the values of the table row with the same id;
// a data row whose id the table lacks is dropped or is an error, by choice. A table id that
// matches a data row more than once is an error (the values to attach would be ambiguous).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "stages/join/join_options.hpp"

namespace subscale::join {

enum class UnmatchedRows { drop, error };
UnmatchedRows parse_unmatched_rows(const std::string& text);  // "drop" | "error"

struct AttachedColumns {
  std::vector<std::size_t> rows;             // the data rows kept, ascending
  std::vector<std::vector<double>> columns;  // per table column: rows.size() values, in that order
};

// Plain vectors: data_ids (one per data row), the table's ids and columns (each table_ids.size()
// values). Throws InputError for an unmatched row under UnmatchedRows::error, for a duplicate
// matching table id, or for a column of the wrong length.
AttachedColumns attach_columns(std::span<const std::uint64_t> data_ids, std::span<const std::uint64_t> table_ids,
                               const std::vector<std::vector<double>>& table_columns, UnmatchedRows unmatched,
                               const JoinOptions& options = {});

// The same on a Dataset (its ids are required): rows are dropped from values, ids and labels
// alike, and the table's columns are appended with their names (table_names: one per column).
void attach_columns(Dataset& data, std::span<const std::uint64_t> table_ids,
                    const std::vector<std::string>& table_names, const std::vector<std::vector<double>>& table_columns,
                    UnmatchedRows unmatched, const JoinOptions& options = {});

}  // namespace subscale::join
