#pragma once
// The compiled form of a filter's `where:` (docs/stages.md §4): a tree of and/or/not over leaves, stored
// flat (indices, not pointers) so that it copies to a device as plain arrays. Numeric leaves on
// exact columns (integers, dates, decimals) hold inclusive int64 bounds on the stored values, so
// "x < 0.065" on a decimal of scale 2 becomes "x <= 6" without any rounding doubt; on float
// columns they keep the given double bounds and whether each is inclusive. String leaves hold the
// pattern with what the chosen algorithm needs (KMP failure or BMH shift table, the regex's
// automaton, which both backends run).
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stages/filter/byte_automaton.hpp"
#include "stages/filter/column_table.hpp"
#include "stages/filter/string_search.hpp"

namespace subscale::filter {

struct NumericLeaf {
  int column = -1;  // index in the table
  bool exact = true;
  std::int64_t low = INT64_MIN, high = INT64_MAX;  // exact: low <= value <= high
  double low_value = 0, high_value = 0;            // float: the bounds as given
  bool has_low = false, has_high = false;
  bool low_inclusive = true, high_inclusive = true;
  bool empty = false;  // the bounds admit no stored value (e.g. x > 5 and x < 6 on integers)
};

enum class StringOp { equals, prefix, contains, regex };
std::string to_string(StringOp op);

struct StringLeaf {
  int column = -1;
  StringOp op = StringOp::equals;
  std::string pattern;
  SearchAlgorithm algorithm = SearchAlgorithm::naive;  // contains: resolved, never automatic
  std::vector<std::int32_t> kmp_failure;               // contains with kmp
  std::vector<std::int32_t> bmh_shift;                 // contains with bmh (256 entries)
  std::shared_ptr<const ByteAutomaton> automaton;      // regex
};

enum class NodeKind { all_of, any_of, negation, numeric, string };

struct PredicateNode {
  NodeKind kind = NodeKind::all_of;
  std::vector<int> children;  // all_of, any_of: any number; negation: one
  int leaf = -1;              // index into numeric or strings
};

struct Predicate {
  std::vector<PredicateNode> nodes;
  int root = -1;  // -1: no predicate, every row is selected
  std::vector<NumericLeaf> numeric;
  std::vector<StringLeaf> strings;

  bool selects_all() const noexcept { return root < 0; }
};

// The column names a `where:` tree mentions, in first-mention order (to read only those).
std::vector<std::string> predicate_columns(const YAML::Node& where);

// Compiles `where` against the table's columns. Every problem is a UsageError naming `origin` and
// the node: an unknown operator or column, a number compared with a string column or a string
// operator on a numeric column, a bound that is not a number (or date), a malformed regex.
Predicate compile_predicate(const YAML::Node& where, const ColumnTable& table, const std::string& origin);

}  // namespace subscale::filter
