#pragma once
// A table of typed columns, the filter stage's input (docs/stages.md §4). Numeric columns keep their stored
// type so that bounds compare exactly: dates are int32 days since 1970-01-01, decimals are int64
// scaled by 10^scale (TPC-H's 0.05 is 5 at scale 2). String columns are one byte array plus
// rows + 1 offsets: string i is bytes[offsets[i], offsets[i + 1]).
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace subscale::filter {

enum class ColumnType { int32, int64, float32, float64, date, decimal, string };

std::string to_string(ColumnType type);

// True for the types whose values are integers (compared and aggregated exactly).
inline bool is_exact(ColumnType type) {
  return type == ColumnType::int32 || type == ColumnType::int64 || type == ColumnType::date ||
         type == ColumnType::decimal;
}
inline bool is_numeric(ColumnType type) { return type != ColumnType::string; }

struct StringColumn {
  std::vector<std::int64_t> offsets{0};  // rows + 1 entries, offsets[0] == 0, non-decreasing
  std::vector<std::uint8_t> bytes;

  std::size_t rows() const noexcept { return offsets.empty() ? 0 : offsets.size() - 1; }
  void push_back(std::string_view text);
  bool operator==(const StringColumn&) const = default;
};

using ColumnValues = std::variant<std::vector<std::int32_t>, std::vector<std::int64_t>, std::vector<float>,
                                  std::vector<double>, StringColumn>;

struct Column {
  std::string name;
  ColumnType type = ColumnType::int64;
  int scale = 0;  // decimals: the stored value is the number times 10^scale
  ColumnValues values;

  std::size_t rows() const;
};

struct ColumnTable {
  std::vector<Column> columns;

  std::size_t rows() const { return columns.empty() ? 0 : columns.front().rows(); }
  const Column* find(const std::string& name) const;
  std::vector<std::string> names() const;
};

// Checks a string column's offsets (first 0, non-decreasing, last == bytes); throws InputError
// starting with `where`.
void validate_string_column(const StringColumn& column, const std::string& where);

// Checks that every column has the table's row count and a valid layout; throws InputError.
void validate_table(const ColumnTable& table, const std::string& where);

// The rows `ids` (ascending or not) of every column, in that order.
ColumnTable gather_rows(const ColumnTable& table, const std::vector<std::uint64_t>& ids);

// Days since 1970-01-01 of a proleptic Gregorian date, and back (civil-from-days, H. Hinnant).
std::int32_t days_from_civil(int year, unsigned month, unsigned day);
std::string civil_from_days(std::int32_t days);

}  // namespace subscale::filter
