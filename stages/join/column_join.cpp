#include "stages/join/column_join.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "stages/join/hash_join.hpp"

namespace subscale::join {

void validate_table(const ColumnTable& table, const std::string& what) {
  if (table.names.size() != table.columns.size())
    throw InputError(what + ": " + std::to_string(table.columns.size()) + " columns but " +
                     std::to_string(table.names.size()) + " column names");
  for (std::size_t c = 0; c < table.columns.size(); ++c)
    if (table.columns[c].size() != table.rows())
      throw InputError(what + ": column '" + table.names[c] + "' has " + std::to_string(table.columns[c].size()) +
                       " values but the key column has " + std::to_string(table.rows()));
}

ColumnTable join_columns(const ColumnTable& s, const ColumnTable& r, const JoinOptions& options) {
  validate_table(s, "table S");
  validate_table(r, "table R");
  JoinOptions sorted = options;
  sorted.sort_output = true;
  return gather_joined_rows(s, r, hash_join(r.keys, s.keys, sorted));
}

ColumnTable gather_joined_rows(const ColumnTable& s, const ColumnTable& r, const JoinPairs& pairs) {
  ColumnTable out;
  out.signed_keys = s.signed_keys;
  out.keys.resize(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) out.keys[i] = s.keys[pairs.s_rows[i]];
  auto gather = [&](const std::vector<double>& column, const std::vector<std::uint32_t>& rows) {
    std::vector<double> values(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) values[i] = column[rows[i]];
    return values;
  };
  for (std::size_t c = 0; c < s.columns.size(); ++c) {
    out.names.push_back(s.names[c]);
    out.columns.push_back(gather(s.columns[c], pairs.s_rows));
  }
  for (std::size_t c = 0; c < r.columns.size(); ++c) {
    const bool clash = std::find(s.names.begin(), s.names.end(), r.names[c]) != s.names.end();
    out.names.push_back(clash ? r.names[c] + "_r" : r.names[c]);
    out.columns.push_back(gather(r.columns[c], pairs.r_rows));
  }
  return out;
}

}  // namespace subscale::join
