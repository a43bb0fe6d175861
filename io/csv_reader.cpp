#include "io/csv_reader.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include "common/error.hpp"
#include "common/text_distance.hpp"
#include "io/data_validation.hpp"
#include "io/text_size_estimate.hpp"

namespace subscale::io {
namespace {

constexpr std::size_t no_column = std::numeric_limits<std::size_t>::max();

std::string_view unquote(std::string_view cell) {
  if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"') return trim(cell.substr(1, cell.size() - 2));
  return cell;
}

// Splits `line` into `cells` (views into `line`), trimmed and unquoted.
void split(std::string_view line, CsvSeparator separator, std::vector<std::string_view>& cells) {
  cells.clear();
  if (separator == CsvSeparator::whitespace) {
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
      if (i == line.size()) break;
      const std::size_t start = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
      cells.push_back(unquote(line.substr(start, i - start)));
    }
    return;
  }
  const char delimiter = separator == CsvSeparator::comma ? ',' : '\t';
  std::size_t start = 0;
  while (true) {
    const std::size_t end = line.find(delimiter, start);
    cells.push_back(unquote(trim(line.substr(start, end == std::string_view::npos ? line.npos : end - start))));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
}

const char* separator_name(CsvSeparator separator) {
  switch (separator) {
    case CsvSeparator::comma:
      return "comma";
    case CsvSeparator::tab:
      return "tab";
    case CsvSeparator::whitespace:
      return "blank";
  }
  return "?";
}

// The 0-based index of the label column given as a 1-based number, or no_column.
std::size_t label_by_number(const std::string& label_column, std::size_t width, const std::string& source,
                            std::uint64_t line_number) {
  std::int64_t number = 0;
  if (!parse_integer(label_column, number)) return no_column;
  if (number < 1 || static_cast<std::uint64_t>(number) > width)
    fail_input(source, CellLocation::line(line_number),
               "label column " + label_column + " does not exist: the line has " + std::to_string(width) + " columns",
               "give a column number from 1 to " + std::to_string(width) + " or a header name");
  return static_cast<std::size_t>(number - 1);
}

bool is_missing_mark(std::string_view cell) { return cell.empty() || cell == "?"; }

// The first line's verdict: header or data, and the sentence that tells the user why.
struct HeaderChoice {
  bool header = false;
  std::string reason;
};

std::string quoted_cell(std::string_view cell) {
  std::string shown(cell.substr(0, 40));
  if (cell.size() > 40) shown += "...";
  return "'" + shown + "'";
}

HeaderChoice choose_header(const std::vector<std::string_view>& cells, std::size_t label_index,
                           const CsvOptions& options) {
  if (options.header == CsvHeader::present) return {true, "input.header: true"};
  if (options.header == CsvHeader::absent) return {false, "input.header: false"};
  for (std::size_t j = 0; j < cells.size(); ++j) {
    // A label column given by name can only be found in a header.
    if (label_index == no_column && !options.label_column.empty() && cells[j] == options.label_column)
      return {true, "it holds the label column's name " + quoted_cell(cells[j])};
    double ignored = 0.0;
    if (j != label_index && !is_missing_mark(cells[j]) && !parse_number(cells[j], ignored))
      return {true, "cell " + std::to_string(j + 1) + ", " + quoted_cell(cells[j]) + ", is not a number"};
  }
  return {false, "its cells are all numbers or missing values"};
}

std::string header_note(const HeaderChoice& choice, std::uint64_t line_number, bool byte_order_mark) {
  const std::string line = "line " + std::to_string(line_number);
  std::string note = choice.header ? "header: " + line + " names the columns (" + choice.reason + ")"
                                   : "header: none, " + line + " is data (" + choice.reason + ")";
  if (choice.reason.rfind("input.header", 0) != 0)
    note +=
        choice.header ? "; set input.header: false if it is data" : "; set input.header: true if it names the columns";
  if (byte_order_mark) note += "; a UTF-8 byte-order mark at the start was skipped";
  return note;
}

}  // namespace

CsvSeparator detect_csv_separator(std::string_view line) {
  if (line.find(',') != std::string_view::npos) return CsvSeparator::comma;
  if (line.find('\t') != std::string_view::npos) return CsvSeparator::tab;
  return CsvSeparator::whitespace;
}

Dataset read_csv(const std::string& path, const CsvOptions& options) {
  std::ifstream input = open_input_file(path, "CSV");
  // Every cell of a data line counts (a label column or a header line overestimate a little).
  std::vector<std::string_view> cells;
  const TextSizeEstimate size = estimate_text_numbers(path, [&](std::string_view line) -> std::uint64_t {
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') return 0;
    split(text, detect_csv_separator(text), cells);
    return cells.size();
  });
  check_text_fits_in_memory(path, "CSV", size);
  return read_csv(input, path, options);
}

Dataset read_csv(std::istream& input, const std::string& source, const CsvOptions& options) {
  std::string line;
  std::uint64_t line_number = 0;
  std::uint64_t layout_line = 0;  // the line that fixed the number of columns
  CsvSeparator separator = CsvSeparator::comma;
  std::size_t width = 0;  // cells per line
  std::size_t label_index = no_column;
  std::vector<std::string> header;  // all cells of the header line, when there is one
  std::vector<std::string_view> cells;
  std::vector<double> values;  // row-major, label column left out
  std::vector<std::string> label_cells;
  std::uint64_t rows = 0;
  bool byte_order_mark = false;
  std::string note;

  while (std::getline(input, line)) {
    ++line_number;
    // Spreadsheets save "CSV UTF-8" with a byte-order mark, which would make the first cell text.
    if (line_number == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) {
      line.erase(0, 3);
      byte_order_mark = true;
    }
    const std::string_view text = trim(line);
    // CR-only line ends (classic Mac OS) make the whole file one line, every row in it.
    if (layout_line == 0 && text.find('\r') != std::string_view::npos)
      fail_input(source, CellLocation::line(line_number),
                 "the lines end in a carriage return (CR) alone, so the whole file reads as one line",
                 "convert the line ends to LF (e.g. tr '\\r' '\\n' < in.csv > out.csv) or CRLF");
    if (text.empty() || text.front() == '#') continue;

    if (layout_line == 0) {
      layout_line = line_number;
      separator = detect_csv_separator(text);
      split(text, separator, cells);
      width = cells.size();
      if (!options.label_column.empty())
        label_index = label_by_number(options.label_column, width, source, line_number);
      const HeaderChoice choice = choose_header(cells, label_index, options);
      note = header_note(choice, line_number, byte_order_mark);
      if (choice.header) {
        header.assign(cells.begin(), cells.end());
        if (!options.label_column.empty()) {
          std::size_t by_name = no_column;
          for (std::size_t j = 0; j < width && by_name == no_column; ++j)
            if (header[j] == options.label_column) by_name = j;
          for (std::size_t j = 0; j < width && by_name == no_column; ++j)
            if (to_lower(header[j]) == to_lower(options.label_column)) by_name = j;
          if (by_name != no_column) label_index = by_name;
          if (label_index == no_column) {
            const std::string nearest = nearest_word(options.label_column, header);
            fail_input(source, CellLocation::line(line_number),
                       "the header has no column named '" + options.label_column + "'",
                       nearest.empty() ? "give one of the header's names or a 1-based column number"
                                       : "did you mean '" + nearest + "'?");
          }
        }
        continue;
      }
      if (!options.label_column.empty() && label_index == no_column)
        fail_input(source, CellLocation::line(line_number),
                   "label column '" + options.label_column + "' was given by name but the file has no header line (" +
                       note + ")",
                   "give the label column as a 1-based column number instead");
    } else {
      split(text, separator, cells);
    }

    if (cells.size() != width)
      fail_input(source, CellLocation::line(line_number),
                 "the line has " + std::to_string(cells.size()) + " " + separator_name(separator) +
                     "-separated cells but line " + std::to_string(layout_line) + " has " + std::to_string(width),
                 "every line needs the same number of columns: look for a missing or extra separator");
    for (std::size_t j = 0; j < width; ++j) {
      if (j == label_index) {
        label_cells.emplace_back(cells[j]);
        continue;
      }
      // Only a bad cell pays for building its location.
      double value = 0.0;
      if (parse_number(cells[j], value) && std::isfinite(value)) {
        values.push_back(value);
        continue;
      }
      parse_cell(cells[j], source, CellLocation::line(line_number, j + 1, header.empty() ? "" : header[j]));
    }
    if (++rows > max_points) check_shape(source, rows, width, "the file");
  }
  if (input.bad()) throw InputError(source + ": read error after line " + std::to_string(line_number));

  const std::size_t dimensions = width - (label_index == no_column ? 0 : 1);
  check_shape(source, rows, layout_line == 0 ? 0 : dimensions,
              layout_line == 0 ? "the file (no data lines)" : "the numeric columns");

  Dataset dataset;
  dataset.source = source;
  dataset.reader_note = note;
  dataset.values.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(dimensions));
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < dimensions; ++j)
      dataset.values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = values[i * dimensions + j];
  if (!header.empty())
    for (std::size_t j = 0; j < width; ++j)
      if (j != label_index) dataset.column_names.push_back(header[j]);
  if (label_index != no_column) dataset.labels = encode_labels(label_cells);
  return dataset;
}

}  // namespace subscale::io
