#include "io/data_validation.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>

#include "common/error.hpp"

namespace subscale::io {

void fail_file_not_found(const std::string& path) {
  throw InputError(path +
                   ": file not found; check the input path (in a config, a relative path starts from the config "
                   "file's folder; on the command line, from the current folder)");
}

void check_input_file(const std::string& path, const std::string& kind) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);  // follows links: a link to a file is a file
  if (status.type() == fs::file_type::not_found) fail_file_not_found(path);
  if (error && status.type() == fs::file_type::none)
    throw InputError(path + ": cannot look up the file (" + error.message() + "); check the path and its folders' " +
                     "permissions");
  const char* what = nullptr;
  switch (status.type()) {
    case fs::file_type::regular:
      return;
    case fs::file_type::directory:
      throw InputError(path + ": is a folder, not a file; give the " + kind + " file itself");
    case fs::file_type::fifo:
      what = "a FIFO (named pipe)";
      break;
    case fs::file_type::character:
      what = "a character device";
      break;
    case fs::file_type::block:
      what = "a block device";
      break;
    case fs::file_type::socket:
      what = "a socket";
      break;
    default:
      what = "not a regular file";
      break;
  }
  throw InputError(path + ": is " + std::string(what) + ", and " + kind +
                   " input is read from a regular file only (a pipe or a device may never end); save the data to "
                   "a file and give its path");
}

std::ifstream open_input_file(const std::string& path, const std::string& kind) {
  check_input_file(path, kind);
  std::ifstream input(path, std::ios::binary);
  if (!input) throw InputError(path + ": cannot open the file for reading; check its permissions");
  return input;
}

std::string describe_location(const std::string& file, const CellLocation& where) {
  std::string text = file;
  if (!where.dataset_path.empty()) text += ", dataset " + where.dataset_path;
  switch (where.row_kind) {
    case CellLocation::RowKind::line:
      text += ", line " + std::to_string(where.row);
      break;
    case CellLocation::RowKind::row:
      text += ", row " + std::to_string(where.row) + " (index " + std::to_string(where.row - 1) + ")";
      break;
    case CellLocation::RowKind::none:
      break;
  }
  if (where.column > 0) {
    text += ", column " + std::to_string(where.column);
    if (!where.column_name.empty()) text += " (" + where.column_name + ")";
  }
  return text;
}

// Control bytes of a cell (a NUL above all, which ends the C string a message is printed from)
// are shown as \xNN, so the message is printed whole.
std::string visible(const std::string& text) {
  std::string shown;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t') || byte == 0x7f) {
      static constexpr char digits[] = "0123456789abcdef";
      shown += "\\x";
      shown += digits[byte >> 4];
      shown += digits[byte & 15];
    } else {
      shown += c;
    }
  }
  return shown;
}

void fail_input(const std::string& file, const CellLocation& where, const std::string& problem,
                const std::string& remedy) {
  throw InputError(visible(describe_location(file, where) + ": " + problem) + "; " + remedy);
}

std::string_view trim(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

std::string to_lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return lower;
}

bool parse_number(std::string_view cell, double& value) {
  // from_chars is locale-independent (a German locale must not turn "1.5" into 1) and does not
  // allocate; it refuses a leading '+', which spreadsheets write, so that is skipped here.
  if (!cell.empty() && cell.front() == '+') {
    cell.remove_prefix(1);
    if (!cell.empty() && (cell.front() == '-' || cell.front() == '+')) return false;
  }
  if (cell.empty()) return false;
  const char* end = cell.data() + cell.size();
  const auto result = std::from_chars(cell.data(), end, value, std::chars_format::general);
  if (result.ec == std::errc::result_out_of_range && result.ptr == end) {
    // Too large (1e400) is reported as infinite rather than as text; too small (1e-400) is a
    // perfectly good zero. Which one it is follows from the decimal exponent of the leading digit.
    const bool negative = cell.front() == '-';
    const std::size_t e = cell.find_first_of("eE");
    const std::string_view mantissa = cell.substr(0, e).substr(negative ? 1 : 0);
    long long exponent = 0;
    if (e != std::string_view::npos) {
      std::string_view digits = cell.substr(e + 1);
      if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
      if (std::from_chars(digits.data(), digits.data() + digits.size(), exponent).ec != std::errc())
        exponent = digits.front() == '-' ? -1000000 : 1000000;
    }
    const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
    const std::size_t first_nonzero = mantissa.find_first_of("123456789");
    if (first_nonzero == std::string_view::npos) {
      value = 0.0;
    } else {
      const long long leading = first_nonzero < point ? static_cast<long long>(point - first_nonzero) - 1
                                                      : -static_cast<long long>(first_nonzero - point);
      const bool overflow = leading + exponent > 0;
      value = overflow ? HUGE_VAL : 0.0;
    }
    if (negative) value = -value;
    return true;
  }
  return result.ec == std::errc() && result.ptr == end;
}

bool parse_integer(std::string_view cell, std::int64_t& value) {
  if (!cell.empty() && cell.front() == '+') {
    cell.remove_prefix(1);
    if (!cell.empty() && cell.front() == '-') return false;
  }
  if (cell.empty()) return false;
  const char* end = cell.data() + cell.size();
  const auto result = std::from_chars(cell.data(), end, value);
  return result.ec == std::errc() && result.ptr == end;
}

void check_finite(double value, const std::string& file, const CellLocation& where) {
  if (std::isnan(value))
    fail_input(file, where, "the value is NaN",
               "missing or undefined values are not supported: remove the row or fill in a number");
  if (std::isinf(value))
    fail_input(file, where, std::string("the value is ") + (value > 0 ? "+Inf" : "-Inf"),
               "infinite values (or numbers beyond +-1.8e308) are not supported: remove the row or fix the value");
}

double parse_cell(std::string_view cell, const std::string& file, const CellLocation& where) {
  double value = 0.0;
  if (!parse_number(cell, value)) {
    if (cell.empty())
      fail_input(file, where, "the cell is empty", "every cell must hold a number: fill it in or remove the row");
    if (cell == "?")
      fail_input(file, where, "the value is missing ('?')",
                 "missing values are not supported: remove the row or fill in a number");
    std::string shown(cell.substr(0, 40));
    if (cell.size() > 40) shown += "...";
    fail_input(file, where, "'" + shown + "' is not a number",
               "every cell must hold a decimal number such as 0.25 or -1e-3: fix the cell or remove the row");
  }
  check_finite(value, file, where);
  return value;
}

void check_shape(const std::string& file, std::uint64_t points, std::uint64_t dimensions,
                 const std::string& what_was_read) {
  if (points == 0 || dimensions == 0)
    fail_input(file, {},
               "the data matrix is empty (" + std::to_string(points) + " points x " + std::to_string(dimensions) +
                   " dimensions in " + what_was_read + ")",
               "give a file with at least one row of numbers and at least one numeric column");
  if (points > max_points)
    fail_input(file, {}, std::to_string(points) + " points is more than the limit of 2^32 - 1 = 4294967295",
               "split the input or sample it down");
  if (dimensions > max_dimensions)
    fail_input(file, {}, std::to_string(dimensions) + " dimensions is more than the limit of 2^32 - 1 = 4294967295",
               "check the shape of the data (is it transposed?)");
}

void validate_dataset(const Dataset& dataset, CellLocation::RowKind row_kind) {
  const std::string& file = dataset.source.empty() ? std::string("(dataset)") : dataset.source;
  check_shape(file, dataset.points(), dataset.dimensions(), "the dataset");
  const auto n = dataset.values.rows();
  const auto d = dataset.values.cols();
  // Column-major: find the first bad row of every column, report the smallest (row, column).
  Eigen::Index bad_row = n, bad_column = 0;
  for (Eigen::Index j = 0; j < d; ++j) {
    const double* column = dataset.values.col(j).data();
    for (Eigen::Index i = 0; i < std::min(n, bad_row); ++i)
      if (!std::isfinite(column[i])) {
        bad_row = i;
        bad_column = j;
        break;
      }
  }
  if (bad_row < n) {
    CellLocation where{row_kind,
                       static_cast<std::uint64_t>(bad_row) + 1,
                       static_cast<std::size_t>(bad_column) + 1,
                       dataset.column_names.size() == static_cast<std::size_t>(d)
                           ? dataset.column_names[static_cast<std::size_t>(bad_column)]
                           : std::string(),
                       {}};
    check_finite(dataset.values(bad_row, bad_column), file, where);
  }
  const auto count_mismatch = [&](const char* what, std::size_t have, std::size_t want, const char* per) {
    throw InputError(file + ": " + what + " has " + std::to_string(have) + " entries but the data has " +
                     std::to_string(want) + " " + per + "; give exactly one per " +
                     (std::string(per) == "points" ? "point" : "dimension") + " or none");
  };
  if (!dataset.ids.empty() && dataset.ids.size() != dataset.points())
    count_mismatch("ids", dataset.ids.size(), dataset.points(), "points");
  if (!dataset.labels.empty() && dataset.labels.size() != dataset.points())
    count_mismatch("labels", dataset.labels.size(), dataset.points(), "points");
  if (!dataset.column_names.empty() && dataset.column_names.size() != dataset.dimensions())
    count_mismatch("column_names", dataset.column_names.size(), dataset.dimensions(), "dimensions");
}

std::vector<std::int64_t> encode_labels(const std::vector<std::string>& cells,
                                        const std::vector<std::string>& declared) {
  const auto missing = [](const std::string& cell) { return cell.empty() || cell == "?"; };
  std::vector<std::int64_t> labels(cells.size(), -1);
  bool all_integers = true;
  for (std::size_t i = 0; i < cells.size() && all_integers; ++i)
    if (!missing(cells[i])) all_integers = parse_integer(cells[i], labels[i]);
  if (all_integers) return labels;

  std::map<std::string, std::int64_t> codes;
  for (const std::string& name : declared) codes.emplace(name, static_cast<std::int64_t>(codes.size()));
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (missing(cells[i])) {
      labels[i] = -1;
      continue;
    }
    labels[i] = codes.emplace(cells[i], static_cast<std::int64_t>(codes.size())).first->second;
  }
  return labels;
}

}  // namespace subscale::io
