#pragma once
// Column tables in HDF5. A table is a group; each member is one column:
//   - a 1-D numeric dataset (int32, int64, float32, float64; other integer widths are widened),
//     with the optional attribute kind = "date" (int32 days since 1970-01-01) or kind = "decimal"
//     and the integer attribute scale (int64 values scaled by 10^scale);
//   - a string column as a group with the datasets offsets (int64, rows + 1) and bytes (uint8);
//   - or, on input, a 1-D dataset of HDF5 variable-length (or fixed-length) strings.
// The group's attribute columns (names joined by ',') gives the order; without it, name order.
// String attributes and string columns may be ASCII or UTF-8, fixed or variable length (h5py's
// default is variable-length UTF-8).
#include <filesystem>
#include <string>
#include <vector>

#include "stages/filter/column_table.hpp"

namespace subscale::filter {

struct TableSource {
  std::filesystem::path path;
  std::string group = "/";
  std::string path_setting = "table.file";  // named in errors about a missing file
};

// Reads the columns named in `wanted` (all when empty), in the table's order, and validates them
// (string offsets, equal row counts). A wanted column that the table lacks is a UsageError that
// lists the table's columns; unreadable or invalid data is an InputError.
ColumnTable read_column_table(const TableSource& source, const std::vector<std::string>& wanted = {});

// The names of the table's columns without reading them.
std::vector<std::string> column_names(const TableSource& source);

// Writes `table` into `group` of an open file, in the layout above.
void write_column_table(const std::filesystem::path& file_path, const std::string& group, const ColumnTable& table,
                        bool truncate);

}  // namespace subscale::filter
