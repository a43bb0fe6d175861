#pragma once
// Reads a numeric matrix from delimited text: one point a line, one dimension a column.
//
// - Separator: detected from the first data (or header) line: a comma if it has one, else a tab
//   if it has one, else runs of blanks (spaces and tabs).
// - A UTF-8 byte-order mark at the start of the file is skipped.
// - Header (CsvHeader::automatic): the first line (after empty lines and comments) is a header
//   when one of its cells (other than a label column given by number) is text: neither a number
//   nor a missing value (an empty cell or "?"), or when it holds the label column's name. A line of
//   numbers with empty cells or "?" is data (and its missing values are refused as such); a
//   header whose names are all numbers is read as data. CsvHeader::present and ::absent decide it
//   instead (config key input.header: true / false). Dataset::reader_note says which it took.
// - Empty lines and lines starting with '#' are skipped (they still count for line numbers).
// - Cells may be quoted ("1.5"); quotes are removed. CR LF line ends are accepted.
// - Label column (optional): a header name, or a 1-based column number. Integer cells are kept as
//   labels; other texts are coded 0, 1, ... in order of first appearance; "" and "?" become -1.
// Bad cells are refused with the file, line and column (see io/data_validation.hpp).
#include <istream>
#include <string>
#include <string_view>

#include "common/dataset.hpp"

namespace subscale::io {

// Whether the first line is a header: decided by the rule above, or given.
enum class CsvHeader { automatic, present, absent };

struct CsvOptions {
  std::string label_column;  // header name or 1-based column number; empty: no labels
  CsvHeader header = CsvHeader::automatic;
};

enum class CsvSeparator { comma, tab, whitespace };

// The separator a line uses (the rule above).
CsvSeparator detect_csv_separator(std::string_view line);

// Reads the file at `path`.
Dataset read_csv(const std::string& path, const CsvOptions& options = {});

// Reads from a stream; `source` names it in messages and in Dataset::source.
Dataset read_csv(std::istream& input, const std::string& source, const CsvOptions& options = {});

}  // namespace subscale::io
