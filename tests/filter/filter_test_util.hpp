#pragma once
// Shared helpers of the filter tests: tables from literals, predicates from YAML text.
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

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

inline std::vector<std::uint64_t> select(const ColumnTable& table, const std::string& yaml,
                                         Backend backend = Backend::cpu) {
  FilterOptions options;
  options.backend = backend;
  return run_filter(table, where(yaml, table), Aggregate{}, options).ids;
}

}  // namespace subscale::filter::testing
