#include "stages/filter/column_table.hpp"

#include <cstdio>
#include <type_traits>

#include "common/error.hpp"

namespace subscale::filter {

std::string to_string(ColumnType type) {
  switch (type) {
    case ColumnType::int32:
      return "int32";
    case ColumnType::int64:
      return "int64";
    case ColumnType::float32:
      return "float32";
    case ColumnType::float64:
      return "float64";
    case ColumnType::date:
      return "date";
    case ColumnType::decimal:
      return "decimal";
    case ColumnType::string:
      return "string";
  }
  return "?";
}

void StringColumn::push_back(std::string_view text) {
  bytes.insert(bytes.end(), text.begin(), text.end());
  offsets.push_back(static_cast<std::int64_t>(bytes.size()));
}

std::size_t Column::rows() const {
  return std::visit(
      [](const auto& v) -> std::size_t {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, StringColumn>)
          return v.rows();
        else
          return v.size();
      },
      values);
}

const Column* ColumnTable::find(const std::string& name) const {
  for (const auto& column : columns)
    if (column.name == name) return &column;
  return nullptr;
}

std::vector<std::string> ColumnTable::names() const {
  std::vector<std::string> out;
  for (const auto& column : columns) out.push_back(column.name);
  return out;
}

void validate_string_column(const StringColumn& column, const std::string& where) {
  const auto& o = column.offsets;
  if (o.empty()) throw InputError(where + ": a string column needs rows + 1 offsets, got none");
  if (o.front() != 0) throw InputError(where + ": the first offset is " + std::to_string(o.front()) + ", not 0");
  for (std::size_t i = 1; i < o.size(); ++i)
    if (o[i] < o[i - 1])
      throw InputError(where + ": offsets are not monotone: offset " + std::to_string(i) + " is " +
                       std::to_string(o[i]) + " after " + std::to_string(o[i - 1]));
  const auto size = static_cast<std::int64_t>(column.bytes.size());
  if (o.back() > size)
    throw InputError(where + ": the last offset " + std::to_string(o.back()) + " runs past the " +
                     std::to_string(size) + " bytes");
  if (o.back() < size)
    throw InputError(where + ": the last offset " + std::to_string(o.back()) + " leaves " +
                     std::to_string(size - o.back()) + " of the " + std::to_string(size) +
                     " bytes unused (is the final end offset missing?)");
}

void validate_table(const ColumnTable& table, const std::string& where) {
  const std::size_t rows = table.rows();
  for (const auto& column : table.columns) {
    if (column.type == ColumnType::string)
      validate_string_column(std::get<StringColumn>(column.values), where + ": column '" + column.name + "'");
    if (column.rows() != rows)
      throw InputError(where + ": column '" + column.name + "' has " + std::to_string(column.rows()) +
                       " rows, column '" + table.columns.front().name + "' " + std::to_string(rows));
    if (column.type == ColumnType::decimal && (column.scale < 0 || column.scale > 18))
      throw InputError(where + ": column '" + column.name + "' has decimal scale " + std::to_string(column.scale) +
                       " (0..18 allowed)");
  }
}

ColumnTable gather_rows(const ColumnTable& table, const std::vector<std::uint64_t>& ids) {
  ColumnTable out;
  for (const auto& column : table.columns) {
    Column gathered{column.name, column.type, column.scale, {}};
    std::visit(
        [&](const auto& values) {
          using V = std::decay_t<decltype(values)>;
          V picked;
          if constexpr (std::is_same_v<V, StringColumn>) {
            for (auto id : ids) {
              const auto begin = values.bytes.begin() + values.offsets[id];
              const auto end = values.bytes.begin() + values.offsets[id + 1];
              picked.bytes.insert(picked.bytes.end(), begin, end);
              picked.offsets.push_back(static_cast<std::int64_t>(picked.bytes.size()));
            }
          } else {
            picked.reserve(ids.size());
            for (auto id : ids) picked.push_back(values[id]);
          }
          gathered.values = std::move(picked);
        },
        column.values);
    out.columns.push_back(std::move(gathered));
  }
  return out;
}

std::int32_t days_from_civil(int year, unsigned month, unsigned day) {
  year -= month <= 2;
  const int era = (year >= 0 ? year : year - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(year - era * 400);
  const unsigned doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<std::int32_t>(era * 146097 + static_cast<int>(doe) - 719468);
}

std::string civil_from_days(std::int32_t days) {
  const int z = days + 719468;
  const int era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int y = static_cast<int>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", y + (m <= 2), m, d);
  return text;
}

}  // namespace subscale::filter
