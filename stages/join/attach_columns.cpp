#include "stages/join/attach_columns.hpp"

#include "common/error.hpp"
#include "stages/join/hash_join.hpp"

namespace subscale::join {

UnmatchedRows parse_unmatched_rows(const std::string& text) {
  if (text == "drop") return UnmatchedRows::drop;
  if (text == "error") return UnmatchedRows::error;
  throw UsageError("join.unmatched = '" + text + "': use drop or error");
}

AttachedColumns attach_columns(std::span<const std::uint64_t> data_ids, std::span<const std::uint64_t> table_ids,
                               const std::vector<std::vector<double>>& table_columns, UnmatchedRows unmatched,
                               const JoinOptions& options) {
  for (std::size_t c = 0; c < table_columns.size(); ++c)
    if (table_columns[c].size() != table_ids.size())
      throw InputError("attach_columns: column " + std::to_string(c) + " of the joined table has " +
                       std::to_string(table_columns[c].size()) + " values but the table has " +
                       std::to_string(table_ids.size()) + " ids");
  JoinOptions sorted = options;
  sorted.sort_output = true;  // by data row, so one pass finds each row's matches
  const JoinPairs pairs = hash_join(table_ids, data_ids, sorted);

  AttachedColumns out;
  out.columns.assign(table_columns.size(), {});
  std::size_t unmatched_count = 0;
  std::size_t first_unmatched = data_ids.size();
  std::size_t k = 0;
  for (std::size_t row = 0; row < data_ids.size(); ++row) {
    if (k == pairs.size() || pairs.s_rows[k] != row) {
      if (unmatched_count++ == 0) first_unmatched = row;
      continue;
    }
    const std::uint32_t table_row = pairs.r_rows[k++];
    if (k < pairs.size() && pairs.s_rows[k] == row)
      throw InputError("attach_columns: id " + std::to_string(data_ids[row]) + " of data row " + std::to_string(row) +
                       " appears in rows " + std::to_string(table_row) + " and " + std::to_string(pairs.r_rows[k]) +
                       " of the joined table; its ids must be unique to attach columns");
    out.rows.push_back(row);
    for (std::size_t c = 0; c < table_columns.size(); ++c) out.columns[c].push_back(table_columns[c][table_row]);
  }
  if (unmatched == UnmatchedRows::error && unmatched_count > 0)
    throw InputError("attach_columns: " + std::to_string(unmatched_count) + " of " + std::to_string(data_ids.size()) +
                     " data rows have no row in the joined table (the first: row " + std::to_string(first_unmatched) +
                     ", id " + std::to_string(data_ids[first_unmatched]) +
                     "); set join.unmatched=drop to drop them, or complete the table");
  return out;
}

void attach_columns(Dataset& data, std::span<const std::uint64_t> table_ids,
                    const std::vector<std::string>& table_names, const std::vector<std::vector<double>>& table_columns,
                    UnmatchedRows unmatched, const JoinOptions& options) {
  const std::string where = data.source.empty() ? std::string("the data") : data.source;
  if (data.ids.size() != data.points())
    throw InputError(where + " has no id column (" + std::to_string(data.ids.size()) + " ids for " +
                     std::to_string(data.points()) + " rows); attaching columns by id needs one");
  if (table_names.size() != table_columns.size())
    throw InputError("attach_columns: " + std::to_string(table_columns.size()) + " columns but " +
                     std::to_string(table_names.size()) + " names");
  if (!data.labels.empty() && data.labels.size() != data.points())
    throw InputError(where + " has " + std::to_string(data.labels.size()) + " labels for " +
                     std::to_string(data.points()) + " rows");
  const AttachedColumns attached = attach_columns(data.ids, table_ids, table_columns, unmatched, options);
  const std::size_t kept = attached.rows.size();
  const std::size_t old_columns = data.dimensions();
  Matrix values(static_cast<Eigen::Index>(kept), static_cast<Eigen::Index>(old_columns + table_columns.size()));
  for (std::size_t c = 0; c < old_columns; ++c)
    for (std::size_t i = 0; i < kept; ++i)
      values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) =
          data.values(static_cast<Eigen::Index>(attached.rows[i]), static_cast<Eigen::Index>(c));
  for (std::size_t c = 0; c < table_columns.size(); ++c)
    for (std::size_t i = 0; i < kept; ++i)
      values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(old_columns + c)) = attached.columns[c][i];
  std::vector<std::uint64_t> ids(kept);
  for (std::size_t i = 0; i < kept; ++i) ids[i] = data.ids[attached.rows[i]];
  if (kept < data.points() || !data.input_rows.empty()) {
    std::vector<std::uint64_t> input_rows(kept);
    for (std::size_t i = 0; i < kept; ++i)
      input_rows[i] = data.input_rows.empty() ? attached.rows[i] : data.input_rows[attached.rows[i]];
    data.input_rows = std::move(input_rows);
  }
  if (!data.labels.empty()) {
    std::vector<std::int64_t> labels(kept);
    for (std::size_t i = 0; i < kept; ++i) labels[i] = data.labels[attached.rows[i]];
    data.labels = std::move(labels);
  }
  if (!data.column_names.empty() || !table_names.empty()) {
    if (data.column_names.size() != old_columns) {
      data.column_names.resize(old_columns);
      for (std::size_t c = 0; c < old_columns; ++c)
        if (data.column_names[c].empty()) {
          // Built this way because GCC 12 warns falsely (-Wrestrict) on assigning "x" + ....
          std::string name = std::to_string(c);
          name.insert(name.begin(), 'x');
          data.column_names[c] = std::move(name);
        }
    }
    data.column_names.insert(data.column_names.end(), table_names.begin(), table_names.end());
  }
  data.values = std::move(values);
  data.ids = std::move(ids);
}

}  // namespace subscale::join
