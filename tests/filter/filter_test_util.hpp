#pragma once
// Shared helpers of the filter tests: tables from literals, predicates from YAML text.
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "stages/filter/aggregate.hpp"
#include "stages/filter/column_table.hpp"
#include "stages/filter/filter.hpp"
#include "stages/filter/predicate.hpp"

namespace subscale::filter::testing {

inline Column string_column(const std::string& name, const std::vector<std::string>& texts) {
  StringColumn values;
  for (const auto& text : texts) values.push_back(text);
  return {name, ColumnType::string, 0, std::move(values)};
}

inline Predicate where(const std::string& yaml, const ColumnTable& table) {
  return compile_predicate(YAML::Load(yaml), table, "test");
}

// TPC-H Q6's predicate and its aggregate (`function` of l_extendedprice * l_discount).
inline constexpr const char* kQ6Where =
    "{and: [{column: l_shipdate, ge: 1994-01-01, lt: 1995-01-01},"
    "       {column: l_discount, between: [0.05, 0.07]},"
    "       {column: l_quantity, lt: 24}]}";

inline FilterResult run_q6(const ColumnTable& table, const std::string& function = "sum") {
  Aggregate aggregate;
  aggregate.function = parse_aggregate_function(function);
  aggregate.expression = compile_expression("l_extendedprice * l_discount", table, "test");
  return run_filter(table, where(kQ6Where, table), aggregate, FilterOptions{});
}

// A file name of its own under the temporary folder: CTest runs the tests of one executable in
// processes of their own at the same time, so the process id is part of it.
inline std::filesystem::path temporary_h5(const std::string& name) {
  const auto folder = std::filesystem::temp_directory_path() / "subscale_filter_test";
  std::filesystem::create_directories(folder);
  return folder / (name + "_" + std::to_string(::getpid()) + ".h5");
}

inline std::vector<std::uint64_t> select(const ColumnTable& table, const std::string& yaml,
                                         Backend backend = Backend::cpu) {
  FilterOptions options;
  options.backend = backend;
  return run_filter(table, where(yaml, table), Aggregate{}, options).ids;
}

// A random pattern of the subset over a, b, c.
inline std::string random_pattern(std::mt19937_64& rng, int depth) {
  std::uniform_int_distribution<int> pick(0, 9);
  std::string out;
  const int pieces = 1 + pick(rng) % 4;
  for (int i = 0; i < pieces; ++i) {
    const int kind = pick(rng);
    std::string atom;
    if (kind < 4)
      atom = std::string(1, "abc"[pick(rng) % 3]);
    else if (kind == 4)
      atom = ".";
    else if (kind == 5)
      atom = "[a-b]";
    else if (kind == 6)
      atom = "[^a]";
    else if (depth < 2)
      atom = "(" + random_pattern(rng, depth + 1) + (pick(rng) < 5 ? "|" + random_pattern(rng, depth + 1) : "") + ")";
    else
      atom = "c";
    const int quantifier = pick(rng);
    if (quantifier == 0) atom += "*";
    if (quantifier == 1) atom += "+";
    if (quantifier == 2) atom += "?";
    out += atom;
  }
  if (depth == 0) {
    if (pick(rng) < 2) out = "^" + out;
    if (pick(rng) < 2) out += "$";
  }
  return out;
}

}  // namespace subscale::filter::testing
