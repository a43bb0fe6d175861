#include "stages/filter/predicate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "common/error.hpp"
#include "stages/filter/exact_decimal.hpp"
#include "stages/filter/regex_subset.hpp"

namespace subscale::filter {

std::string to_string(StringOp op) {
  switch (op) {
    case StringOp::equals:
      return "equals";
    case StringOp::prefix:
      return "prefix";
    case StringOp::contains:
      return "contains";
    case StringOp::regex:
      return "regex";
  }
  return "?";
}

namespace {

// Operator words and their symbols: a comparison map may use either.
struct Comparison {
  const char* word;
  const char* symbol;
};
constexpr Comparison comparisons[] = {{"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="}, {"eq", "=="}, {"ne", "!="}};
constexpr const char* string_ops[] = {"equals", "prefix", "contains", "regex"};
constexpr std::size_t max_pattern_bytes = 4096;

std::string comparison_word(const std::string& key) {
  for (const auto& c : comparisons)
    if (key == c.word || key == c.symbol) return c.word;
  return {};
}

bool is_string_op(const std::string& key) {
  return std::find_if(std::begin(string_ops), std::end(string_ops), [&](const char* op) { return key == op; }) !=
         std::end(string_ops);
}

// A key or value may be a list or a mapping where a name belongs ({[a]: 1}); it reads as "", which
// each caller refuses with its own message, where as<std::string>() would throw yaml-cpp's own
// exception past the config error the user should see.
std::string scalar_text(const YAML::Node& node) { return node.IsScalar() ? node.Scalar() : std::string(); }

void collect_columns(const YAML::Node& node, std::vector<std::string>& out) {
  if (node.IsSequence()) {
    for (const auto& child : node) collect_columns(child, out);
  } else if (node.IsMap()) {
    for (const auto& item : node) {
      const std::string key = scalar_text(item.first);
      if (key == "column" && item.second.IsScalar()) {
        const std::string name = item.second.Scalar();
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
      } else {
        collect_columns(item.second, out);
      }
    }
  }
}

// A bound on an exact column (an integer, "YYYY-MM-DD" for dates, or a decimal), exactly.
std::optional<ExactDecimal> exact_bound(const YAML::Node& value, const Column& column) {
  if (!value.IsScalar()) return std::nullopt;
  const std::string text = value.Scalar();
  if (column.type == ColumnType::date) {
    int year = 0;
    unsigned month = 0, day = 0;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%d-%u-%u%c", &year, &month, &day, &tail) == 3) {
      if (month < 1 || month > 12 || day < 1 || day > 31) return std::nullopt;
      const std::int32_t days = days_from_civil(year, month, day);
      char expected[48];
      std::snprintf(expected, sizeof expected, "%04d-%02u-%02u", year, month, day);
      if (civil_from_days(days) != expected) return std::nullopt;  // e.g. 1995-02-30
      return ExactDecimal{days, 0};
    }
  }
  return parse_exact_decimal(text);
}

// For a date given on a column that is not a date: the column lacks the attribute that makes it one.
std::string date_hint(const std::string& text, const Column& column) {
  int year = 0;
  unsigned month = 0, day = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%d-%u-%u%c", &year, &month, &day, &tail) != 3) return "";
  return "; it reads as a date, but column '" + column.name + "' is " + to_string(column.type) +
         ", not a date: a date column is int32 days since 1970-01-01 with the attribute kind = \"date\" (set it on "
         "the dataset, e.g. h5py: dataset.attrs[\"kind\"] = \"date\")";
}

class Compiler {
 public:
  Compiler(const ColumnTable& table, const std::string& origin) : table_(table), origin_(origin) {}

  Predicate run(const YAML::Node& where) {
    if (where.IsDefined() && !where.IsNull()) predicate_.root = node(where, "where");
    return std::move(predicate_);
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw UsageError(origin_ + ": " + path + ": " + what);
  }

  int add(PredicateNode node) {
    predicate_.nodes.push_back(std::move(node));
    return static_cast<int>(predicate_.nodes.size() - 1);
  }

  int node(const YAML::Node& yaml, const std::string& path) {
    if (yaml.IsSequence()) return group(NodeKind::all_of, yaml, path);
    if (!yaml.IsMap())
      fail(path, "a predicate is a mapping: {and: [...]}, {or: [...]}, {not: ...} or {column: NAME, OP: VALUE}");
    if (yaml["column"]) return leaf(yaml, path);
    if (yaml.size() != 1) fail(path, "a combination has exactly one key (and, or, not); comparisons need 'column'");
    const auto item = *yaml.begin();
    const std::string key = scalar_text(item.first);
    if (key.empty()) fail(path, "a key is a list, a mapping or empty; keys are names (and, or, not, column)");
    if (key == "and" || key == "all") return group(NodeKind::all_of, item.second, path + "." + key);
    if (key == "or" || key == "any") return group(NodeKind::any_of, item.second, path + "." + key);
    if (key == "not") {
      PredicateNode negation{NodeKind::negation, {node(item.second, path + ".not")}, -1};
      return add(std::move(negation));
    }
    fail(path, "unknown key '" + key + "' (and, or, not, or column with an operator)");
  }

  int group(NodeKind kind, const YAML::Node& list, const std::string& path) {
    if (!list.IsSequence() || list.size() == 0) fail(path, "expects a non-empty list of predicates");
    PredicateNode group{kind, {}, -1};
    for (std::size_t i = 0; i < list.size(); ++i)
      group.children.push_back(node(list[i], path + "[" + std::to_string(i) + "]"));
    return add(std::move(group));
  }

  const Column& column_of(const YAML::Node& yaml, const std::string& path, int& index) const {
    const YAML::Node name_node = yaml["column"];
    if (!name_node.IsScalar() || name_node.Scalar().empty()) fail(path, "'column' names a column");
    const std::string name = name_node.Scalar();
    for (std::size_t i = 0; i < table_.columns.size(); ++i)
      if (table_.columns[i].name == name) {
        index = static_cast<int>(i);
        return table_.columns[i];
      }
    std::string list;
    for (const auto& n : table_.names()) list += (list.empty() ? "" : ", ") + n;
    fail(path, "unknown column '" + name + "' (the table's columns: " + list + ")");
  }

  int leaf(const YAML::Node& yaml, const std::string& path) {
    int index = -1;
    const Column& column = column_of(yaml, path, index);
    const std::string where = path + " (column '" + column.name + "', " + to_string(column.type) + ")";
    bool has_string_op = false, has_comparison = false;
    for (const auto& item : yaml) {
      const std::string key = scalar_text(item.first);
      if (key.empty()) fail(where, "a key is a list, a mapping or empty; operators are names (lt, equals, ...)");
      if (key == "column" || key == "algorithm" || key == "bounds") continue;
      if (is_string_op(key))
        has_string_op = true;
      else if (!comparison_word(key).empty() || key == "between")
        has_comparison = true;
      else
        fail(where, "unknown operator '" + key +
                        "' (numbers: lt le gt ge eq ne between, or < <= > >= == !=; strings: equals prefix "
                        "contains regex)");
    }
    if (!has_string_op && !has_comparison) fail(where, "no operator (e.g. lt: 24, or equals: 'text')");
    if (has_string_op && has_comparison) fail(where, "mixes string operators with numeric comparisons");
    if (has_string_op) {
      if (column.type != ColumnType::string)
        fail(where, "a string operator on a numeric column; compare numbers with lt/le/gt/ge/eq/ne/between");
      return string_leaf(yaml, index, where);
    }
    if (column.type == ColumnType::string)
      fail(where, "compares a string column with a number; use equals, prefix, contains or regex");
    return numeric_leaf(yaml, index, column, where);
  }

  // ---- numeric ----
  struct Bound {
    YAML::Node value;
    bool inclusive;
  };

  int numeric_leaf(const YAML::Node& yaml, int index, const Column& column, const std::string& where) {
    std::vector<Bound> lows, highs;
    bool negate = false;
    if (yaml["bounds"] && !yaml["between"]) fail(where, "'bounds' applies to 'between'");
    for (const auto& item : yaml) {
      const std::string key = scalar_text(item.first);
      const std::string word = comparison_word(key);
      if (word == "lt") highs.push_back({item.second, false});
      if (word == "le") highs.push_back({item.second, true});
      if (word == "gt") lows.push_back({item.second, false});
      if (word == "ge") lows.push_back({item.second, true});
      if (word == "eq" || word == "ne") {
        lows.push_back({item.second, true});
        highs.push_back({item.second, true});
        negate = word == "ne";
      }
      if (key == "between") {
        if (!item.second.IsSequence() || item.second.size() != 2)
          fail(where, "between takes a list of two bounds: between: [low, high]");
        std::string bounds = yaml["bounds"] ? scalar_text(yaml["bounds"]) : "[]";
        if (bounds != "[]" && bounds != "[)" && bounds != "(]" && bounds != "()")
          fail(where, "bounds is '" + bounds + "'; one of [] [) (] () (inclusive [ ], exclusive ( ))");
        lows.push_back({item.second[0], bounds[0] == '['});
        highs.push_back({item.second[1], bounds[1] == ']'});
      }
    }
    if (negate && (lows.size() != 1 || highs.size() != 1)) fail(where, "ne cannot be combined with other bounds");
    NumericLeaf leaf;
    leaf.column = index;
    leaf.exact = is_exact(column.type);
    for (const auto& b : lows) tighten(leaf, b, true, column, where);
    for (const auto& b : highs) tighten(leaf, b, false, column, where);
    if (leaf.exact && leaf.low > leaf.high) leaf.empty = true;
    predicate_.numeric.push_back(leaf);
    const int id = add({NodeKind::numeric, {}, static_cast<int>(predicate_.numeric.size() - 1)});
    return negate ? add({NodeKind::negation, {id}, -1}) : id;
  }

  void tighten(NumericLeaf& leaf, const Bound& bound, bool is_low, const Column& column, const std::string& where) {
    const std::string text = bound.value.IsScalar() ? bound.value.Scalar() : std::string("a list or mapping");
    if (leaf.exact) {
      const auto value = exact_bound(bound.value, column);
      if (!value)
        fail(where, "the bound '" + text + "' is not " +
                        (column.type == ColumnType::date ? "a date (YYYY-MM-DD) or a day number"
                                                         : "a number" + date_hint(text, column)));
      const int scale = column.type == ColumnType::decimal ? column.scale : 0;
      // Inclusive integer bounds on the stored (scaled) values.
      const __int128 limit_low = std::numeric_limits<std::int64_t>::min();
      const __int128 limit_high = std::numeric_limits<std::int64_t>::max();
      if (is_low) {
        __int128 low = bound.inclusive ? scaled_ceil(*value, scale) : scaled_floor(*value, scale) + 1;
        if (low > limit_high) {
          leaf.empty = true;
          low = limit_high;
        }
        leaf.low = static_cast<std::int64_t>(std::max<__int128>(std::max<__int128>(low, limit_low), leaf.low));
        leaf.has_low = true;
      } else {
        __int128 high = bound.inclusive ? scaled_floor(*value, scale) : scaled_ceil(*value, scale) - 1;
        if (high < limit_low) {
          leaf.empty = true;
          high = limit_low;
        }
        leaf.high = static_cast<std::int64_t>(std::min<__int128>(std::min<__int128>(high, limit_high), leaf.high));
        leaf.has_high = true;
      }
      return;
    }
    double value = 0;
    try {
      std::size_t used = 0;
      value = std::stod(text, &used);
      if (used != text.size() || std::isnan(value)) throw std::invalid_argument(text);
    } catch (...) {
      fail(where, "the bound '" + text + "' is not a number" + date_hint(text, column));
    }
    if (is_low) {
      if (!leaf.has_low || value > leaf.low_value || (value == leaf.low_value && !bound.inclusive)) {
        leaf.low_value = value;
        leaf.low_inclusive = bound.inclusive;
      }
      leaf.has_low = true;
    } else {
      if (!leaf.has_high || value < leaf.high_value || (value == leaf.high_value && !bound.inclusive)) {
        leaf.high_value = value;
        leaf.high_inclusive = bound.inclusive;
      }
      leaf.has_high = true;
    }
  }

  // ---- strings ----
  int string_leaf(const YAML::Node& yaml, int index, const std::string& where) {
    StringLeaf leaf;
    leaf.column = index;
    int ops = 0;
    for (std::size_t i = 0; i < std::size(string_ops); ++i) {
      const YAML::Node value = yaml[string_ops[i]];
      if (!value) continue;
      ++ops;
      if (!value.IsScalar()) fail(where, std::string(string_ops[i]) + " takes one string");
      leaf.op = static_cast<StringOp>(i);
      leaf.pattern = value.Scalar();
    }
    if (ops != 1) fail(where, "one string operator per predicate (combine several with and/or)");
    if (leaf.pattern.size() > max_pattern_bytes)
      fail(where, "the pattern has " + std::to_string(leaf.pattern.size()) + " bytes; at most " +
                      std::to_string(max_pattern_bytes));
    if (yaml["algorithm"] && leaf.op != StringOp::contains) fail(where, "'algorithm' applies to contains");
    if (leaf.op == StringOp::contains) {
      const std::string name = yaml["algorithm"] ? scalar_text(yaml["algorithm"]) : "auto";
      SearchAlgorithm algorithm;
      if (name == "naive")
        algorithm = SearchAlgorithm::naive;
      else if (name == "kmp")
        algorithm = SearchAlgorithm::kmp;
      else if (name == "bmh")
        algorithm = SearchAlgorithm::bmh;
      else if (name == "auto")
        algorithm = SearchAlgorithm::automatic;
      else
        fail(where, "algorithm is '" + name + "'; one of naive, kmp, bmh, auto");
      leaf.algorithm = resolve_algorithm(algorithm, leaf.pattern.size());
      leaf.kmp_failure = kmp_failure_table(leaf.pattern);
      leaf.bmh_shift = bmh_shift_table(leaf.pattern);
    }
    if (leaf.op == StringOp::regex) {
      leaf.automaton = compile_regex_subset(leaf.pattern, origin_ + ": " + where);
    }
    predicate_.strings.push_back(std::move(leaf));
    return add({NodeKind::string, {}, static_cast<int>(predicate_.strings.size() - 1)});
  }

  const ColumnTable& table_;
  const std::string& origin_;
  Predicate predicate_;
};

}  // namespace

std::vector<std::string> predicate_columns(const YAML::Node& where) {
  std::vector<std::string> out;
  if (where.IsDefined()) collect_columns(where, out);
  return out;
}

Predicate compile_predicate(const YAML::Node& where, const ColumnTable& table, const std::string& origin) {
  return Compiler(table, origin).run(where);
}

}  // namespace subscale::filter
