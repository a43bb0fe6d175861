#pragma once
// Checks every input reader applies (docs/method.md §1) and the one way they report a bad cell:
// an InputError that names the file, the row and the column as a user sees them, what is wrong
// and what to do about it.
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "common/dataset.hpp"

namespace subscale::io {

// The core numbers points with 32-bit ids, so a larger input is refused up front.
inline constexpr std::uint64_t max_points = 4294967295ull;
// Dimensions are numbered with 32-bit ids too.
inline constexpr std::uint64_t max_dimensions = 4294967295ull;

// Where a problem sits. Text files count lines (what an editor shows, 1-based, comments and the
// header included); HDF5 datasets count rows (1-based, with the 0-based index added for h5py users).
struct CellLocation {
  enum class RowKind { none, line, row };
  RowKind row_kind = RowKind::none;
  std::uint64_t row = 0;     // 1-based
  std::size_t column = 0;    // 1-based; 0 when the whole row is meant
  std::string column_name;   // optional, shown next to the column number
  std::string dataset_path;  // HDF5 only

  static CellLocation line(std::uint64_t line_number, std::size_t column = 0, std::string column_name = {}) {
    return {RowKind::line, line_number, column, std::move(column_name), {}};
  }
};

// Refuses an input path that is not a regular file (or a link to one): missing, a folder, a FIFO,
// a device or a socket, each by name. Readers call it before they open the path: a FIFO blocks the
// opening until something writes to it, and a device such as /dev/zero never ends, so either
// would hang the run or fill its memory instead of failing. `kind` ("CSV", "HDF5", "ground
// truth") completes the message.
void check_input_file(const std::string& path, const std::string& kind);
// Opens a text input file; an InputError names the file when it is missing, not a regular file, or
// unreadable. `kind` ("CSV", "ARFF") completes the message.
std::ifstream open_input_file(const std::string& path, const std::string& kind);
// The InputError for an input path that names nothing, with where relative paths start.
[[noreturn]] void fail_file_not_found(const std::string& path);

// "data.csv, line 7, column 3 (dim2)"
std::string describe_location(const std::string& file, const CellLocation& where);

// Throws InputError("<where>: <problem>; <remedy>").
[[noreturn]] void fail_input(const std::string& file, const CellLocation& where, const std::string& problem,
                             const std::string& remedy);

// Parses a whole cell (no surrounding blanks) as a number. Accepts what strtod accepts for decimal
// numbers, a leading '+', and "nan"/"inf" (which check_finite then refuses with a clear message).
bool parse_number(std::string_view cell, double& value);

// Parses a whole cell as a 64-bit signed integer (labels).
bool parse_integer(std::string_view cell, std::int64_t& value);

// Refuses NaN and +-Inf at `where`.
void check_finite(double value, const std::string& file, const CellLocation& where);

// Refuses a non-numeric cell, a NaN or an Inf at `where`; returns the value.
double parse_cell(std::string_view cell, const std::string& file, const CellLocation& where);

// Refuses an empty matrix (no points or no dimensions), more than max_points points and more than
// max_dimensions dimensions.
void check_shape(const std::string& file, std::uint64_t points, std::uint64_t dimensions,
                 const std::string& what_was_read);

// Checks a finished Dataset: shape (as above), finite values, and that the optional ids,
// labels and column names have one entry per point / dimension. Readers check values as they
// parse them (they know the line numbers); this is the last line of defence for data built in
// code and for the load stage. Rows are reported 1-based, as `row_kind` says.
void validate_dataset(const Dataset& dataset, CellLocation::RowKind row_kind = CellLocation::RowKind::row);

// Label cells as read from a text file, turned into int64 labels:
// - when every cell (other than the missing-value marks "" and "?", which become -1) is an
//   integer, the labels are those integers (the OpenSubspace files use 100, 701, ..., -1);
// - otherwise each distinct text gets a code 0, 1, 2, ... in the order of `declared` (the ARFF
//   nominal values) followed by the order of first appearance.
std::vector<std::int64_t> encode_labels(const std::vector<std::string>& cells,
                                        const std::vector<std::string>& declared = {});

// Trims blanks (space, tab, CR) on both sides.
std::string_view trim(std::string_view text);

// Lower-cases ASCII letters (keywords and names are compared case-insensitively).
std::string to_lower(std::string_view text);

}  // namespace subscale::io
