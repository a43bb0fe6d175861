#include "io/arff_reader.hpp"

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

constexpr std::size_t no_attribute = std::numeric_limits<std::size_t>::max();

struct Attribute {
  enum class Kind { numeric, nominal, unsupported };
  std::string name;
  Kind kind = Kind::numeric;
  std::string type;                 // as written, for messages
  std::vector<std::string> values;  // nominal values, in declared order
  std::uint64_t line = 0;
};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view unquote(std::string_view text) {
  text = trim(text);
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') && text.back() == text.front())
    return text.substr(1, text.size() - 2);
  return text;
}

// Splits on commas that are not inside quotes; cells are trimmed and unquoted.
void split_values(std::string_view text, std::vector<std::string_view>& cells) {
  cells.clear();
  char quote = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size()) {
      const char c = text[i];
      if (quote) {
        if (c == quote) quote = 0;
        continue;
      }
      if (c == '\'' || c == '"') {
        quote = c;
        continue;
      }
      if (c != ',') continue;
    }
    cells.push_back(unquote(text.substr(start, i - start)));
    start = i + 1;
  }
}

// The first word of a header line, lower-cased ("@attribute"), and the rest.
std::pair<std::string, std::string_view> keyword(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && !is_blank(text[end])) ++end;
  return {to_lower(text.substr(0, end)), trim(text.substr(end))};
}

Attribute parse_attribute(std::string_view rest, const std::string& source, std::uint64_t line_number) {
  Attribute attribute;
  attribute.line = line_number;
  std::size_t end = 0;
  if (!rest.empty() && (rest.front() == '\'' || rest.front() == '"')) {
    end = rest.find(rest.front(), 1);
    if (end == std::string_view::npos)
      fail_input(source, CellLocation::line(line_number), "the attribute name has no closing quote",
                 "close the quote around the name");
    attribute.name = std::string(rest.substr(1, end - 1));
    ++end;
  } else {
    while (end < rest.size() && !is_blank(rest[end]) && rest[end] != '{') ++end;
    attribute.name = std::string(rest.substr(0, end));
  }
  const std::string_view type = trim(rest.substr(end));
  attribute.type = std::string(type);
  if (attribute.name.empty() || type.empty())
    fail_input(source, CellLocation::line(line_number), "an @attribute line needs a name and a type",
               "write it as '@attribute NAME numeric' or '@attribute class {a,b,c}'");
  const std::string lower = to_lower(type);
  if (lower == "numeric" || lower == "real" || lower == "integer") {
    attribute.kind = Attribute::Kind::numeric;
  } else if (type.front() == '{') {
    if (type.back() != '}')
      fail_input(source, CellLocation::line(line_number),
                 "the nominal values of attribute '" + attribute.name + "' have no closing '}'",
                 "list the values as {a,b,c}");
    attribute.kind = Attribute::Kind::nominal;
    std::vector<std::string_view> cells;
    split_values(type.substr(1, type.size() - 2), cells);
    for (auto cell : cells) attribute.values.emplace_back(cell);
  } else {
    attribute.kind = Attribute::Kind::unsupported;
  }
  return attribute;
}

// The label attribute's index (or no_attribute), after checking every other attribute is numeric.
std::size_t choose_label(const std::vector<Attribute>& attributes, const ArffOptions& options,
                         const std::string& source, std::uint64_t data_line) {
  std::size_t label = no_attribute;
  const std::string wanted = options.label_attribute.empty() ? "class" : options.label_attribute;
  for (std::size_t j = 0; j < attributes.size() && label == no_attribute; ++j)
    if (attributes[j].name == wanted) label = j;
  for (std::size_t j = 0; j < attributes.size() && label == no_attribute; ++j)
    if (to_lower(attributes[j].name) == to_lower(wanted)) label = j;
  if (label == no_attribute && !options.label_attribute.empty()) {
    std::vector<std::string> names;
    for (const auto& attribute : attributes) names.push_back(attribute.name);
    const std::string nearest = nearest_word(wanted, names);
    fail_input(source, CellLocation::line(data_line), "there is no attribute named '" + wanted + "'",
               nearest.empty() ? "give the name of one of the @attribute lines" : "did you mean '" + nearest + "'?");
  }
  if (label != no_attribute && attributes[label].kind == Attribute::Kind::unsupported)
    fail_input(source, CellLocation::line(attributes[label].line),
               "the label attribute '" + attributes[label].name + "' has type '" + attributes[label].type + "'",
               "labels must be nominal ({a,b,c}) or integer");
  for (std::size_t j = 0; j < attributes.size(); ++j) {
    if (j == label || attributes[j].kind == Attribute::Kind::numeric) continue;
    fail_input(source, CellLocation::line(attributes[j].line),
               "attribute '" + attributes[j].name + "' has type '" + attributes[j].type +
                   "', but only numeric attributes (numeric, real, integer) and one label attribute are supported",
               "remove the attribute, or make it the label (the label column option)");
  }
  return label;
}

}  // namespace

Dataset read_arff(const std::string& path, const ArffOptions& options) {
  std::ifstream input = open_input_file(path, "ARFF");
  // The lines after @data that are not comments; every value counts (the label overestimates a little).
  bool in_data = false;
  std::vector<std::string_view> cells;
  const TextSizeEstimate size = estimate_text_numbers(path, [&](std::string_view line) -> std::uint64_t {
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '%') return 0;
    if (!in_data) {
      in_data = to_lower(text.substr(0, 5)) == "@data";
      return 0;
    }
    split_values(text, cells);
    return cells.size();
  });
  check_text_fits_in_memory(path, "ARFF", size);
  return read_arff(input, path, options);
}

Dataset read_arff(std::istream& input, const std::string& source, const ArffOptions& options) {
  std::string line;
  std::uint64_t line_number = 0;
  std::vector<Attribute> attributes;
  bool in_data = false;
  std::size_t label = no_attribute;
  std::size_t dimensions = 0;
  std::vector<std::string_view> cells;
  std::vector<double> values;  // row-major, label left out
  std::vector<std::string> label_cells;
  std::uint64_t rows = 0;

  while (std::getline(input, line)) {
    ++line_number;
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '%') continue;

    if (!in_data) {
      if (text.front() != '@')
        fail_input(source, CellLocation::line(line_number), "expected an @relation, @attribute or @data line",
                   "is this an ARFF file? (set the input format to csv for delimited text)");
      const auto [word, rest] = keyword(text);
      if (word == "@relation") continue;
      if (word == "@attribute") {
        attributes.push_back(parse_attribute(rest, source, line_number));
        continue;
      }
      if (word == "@data") {
        if (attributes.empty())
          fail_input(source, CellLocation::line(line_number), "@data comes before any @attribute line",
                     "declare one @attribute line per column before @data");
        label = choose_label(attributes, options, source, line_number);
        dimensions = attributes.size() - (label == no_attribute ? 0 : 1);
        in_data = true;
        continue;
      }
      fail_input(source, CellLocation::line(line_number), "unknown keyword '" + word + "'",
                 "the header may hold only @relation, @attribute and @data lines");
    }

    if (text.front() == '{')
      fail_input(source, CellLocation::line(line_number), "sparse ARFF rows ({index value, ...}) are not supported",
                 "write the data section in dense form (one value per attribute, comma-separated)");
    split_values(text, cells);
    if (cells.size() != attributes.size())
      fail_input(source, CellLocation::line(line_number),
                 "the row has " + std::to_string(cells.size()) + " values but " + std::to_string(attributes.size()) +
                     " attributes are declared",
                 "every data row needs one comma-separated value per @attribute");
    for (std::size_t j = 0; j < cells.size(); ++j) {
      if (j == label) {
        const Attribute& attribute = attributes[j];
        if (attribute.kind == Attribute::Kind::nominal && cells[j] != "?") {
          bool declared = false;
          for (const auto& value : attribute.values) declared = declared || value == cells[j];
          if (!declared)
            fail_input(source, CellLocation::line(line_number, j + 1, attribute.name),
                       "'" + std::string(cells[j]) + "' is not one of the values declared for '" + attribute.name + "'",
                       "add it to the {...} list of the @attribute line or fix the value");
        }
        label_cells.emplace_back(cells[j]);
        continue;
      }
      double value = 0.0;
      if (parse_number(cells[j], value) && std::isfinite(value)) {
        values.push_back(value);
        continue;
      }
      parse_cell(cells[j], source, CellLocation::line(line_number, j + 1, attributes[j].name));
    }
    if (++rows > max_points) check_shape(source, rows, dimensions, "the file");
  }
  if (input.bad()) throw InputError(source + ": read error after line " + std::to_string(line_number));
  if (!in_data)
    fail_input(source, {}, "no @data line was found",
               attributes.empty() ? "is this an ARFF file? (set the input format to csv for delimited text)"
                                  : "add an @data line after the @attribute lines, then the data rows");
  check_shape(source, rows, dimensions, dimensions == 0 ? "the numeric attributes" : "the @data section");

  Dataset dataset;
  dataset.source = source;
  dataset.values.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(dimensions));
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < dimensions; ++j)
      dataset.values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = values[i * dimensions + j];
  for (std::size_t j = 0; j < attributes.size(); ++j)
    if (j != label) dataset.column_names.push_back(attributes[j].name);
  if (label != no_attribute)
    dataset.labels =
        encode_labels(label_cells, attributes[label].kind == Attribute::Kind::nominal ? attributes[label].values
                                                                                      : std::vector<std::string>{});
  return dataset;
}

}  // namespace subscale::io
