#pragma once
// The filter's aggregate (docs/stages.md §4): sum, count, min or max of an expression of columns over the
// selected rows, computed in the same pass as the selection. An expression of exact columns
// (integers, dates, decimals) and decimal constants is evaluated in integers on the scaled values,
// so TPC-H Q6's sum(l_extendedprice * l_discount) is exact (scale 2 + 2 = 4) and the CPU and GPU
// give the same number; with a float column it is evaluated in doubles. Operators: + - * and
// parentheses (no division: it has no exact result).
#include <cstdint>
#include <string>
#include <vector>

#include "common/host_device.hpp"
#include "stages/filter/column_table.hpp"

namespace subscale::filter {

enum class AggregateFunction { none, sum, count, min, max };
AggregateFunction parse_aggregate_function(const std::string& name);  // UsageError if unknown
std::string to_string(AggregateFunction function);

// One instruction of a postfix program over a small stack.
struct ExpressionOp {
  enum Code : std::int32_t { column, constant, add, subtract, multiply, negate } code = constant;
  std::int32_t column_index = -1;   // column: index in the table
  std::int64_t constant_exact = 0;  // constant: scaled by 10^(its scale)
  double constant_value = 0;
  std::int64_t rescale_below = 1;  // add/subtract (exact): factors that bring both operands to one scale
  std::int64_t rescale_top = 1;
};

struct Expression {
  std::string text;
  std::vector<ExpressionOp> program;
  std::vector<int> columns;  // the table columns it reads
  bool exact = true;
  int scale = 0;  // exact: the result is an integer scaled by 10^scale
  int max_stack = 0;
};

struct Aggregate {
  AggregateFunction function = AggregateFunction::none;
  Expression expression;  // unused by count
};

// Parses `text` against the table; UsageError naming `origin` for an unknown column, a string
// column, division or other syntax, or a scale above 18.
Expression compile_expression(const std::string& text, const ColumnTable& table, const std::string& origin);

struct AggregateResult {
  AggregateFunction function = AggregateFunction::none;
  std::string expression;
  bool exact = true;
  int scale = 0;
  std::int64_t scaled = 0;  // exact: the value times 10^scale
  double value = 0;         // the value as a double (also for exact results)
  std::uint64_t rows = 0;   // rows aggregated
  bool empty = false;       // sum, min or max of no rows: no value (SQL's NULL)

  std::string text() const;  // exact: decimal text; else %.17g
};

// What one pass over the selected rows adds up, on either backend.
struct AggregateTotals {
  std::uint64_t rows = 0;
  __int128 sum = 0;  // exact expressions: the scaled values
  std::int64_t min = 0, max = 0;
  double double_sum = 0, double_min = 0, double_max = 0;  // expressions over floating columns
  std::uint64_t overflow_row = ~std::uint64_t{0};         // the first row whose value overflowed, if any
};

// The aggregate's result from the pass's totals (the same function for CPU and GPU, so both report
// alike); InputError when an exact value leaves the 64-bit range.
AggregateResult aggregate_result(const Aggregate& aggregate, const AggregateTotals& totals);

// A column as the device and the host read it: typed pointer and scale (no ownership).
struct ColumnView {
  ColumnType type = ColumnType::int64;
  std::int32_t scale = 0;
  const void* data = nullptr;
};

inline constexpr int max_expression_stack = 16;

SUBSCALE_HD std::int64_t load_exact(const ColumnView& column, std::uint64_t row) {
  if (column.type == ColumnType::int32 || column.type == ColumnType::date)
    return static_cast<const std::int32_t*>(column.data)[row];
  return static_cast<const std::int64_t*>(column.data)[row];
}

// 10^exponent for 0 <= exponent <= 18, exactly (every such power is a double); a loop, not a
// table, so that device code keeps no array in local memory.
SUBSCALE_HD double power_of_ten_double(int exponent) {
  double p = 1;
  for (int i = 0; i < exponent; ++i) p *= 10;
  return p;
}

SUBSCALE_HD double load_double(const ColumnView& column, std::uint64_t row) {
  switch (column.type) {
    case ColumnType::float32:
      return static_cast<const float*>(column.data)[row];
    case ColumnType::float64:
      return static_cast<const double*>(column.data)[row];
    case ColumnType::decimal:
      return static_cast<double>(static_cast<const std::int64_t*>(column.data)[row]) /
             power_of_ten_double(column.scale);
    default:
      return static_cast<double>(load_exact(column, row));
  }
}

// Evaluates an exact program at `row`; false when an intermediate leaves the int64 range.
SUBSCALE_HD bool evaluate_exact(const ExpressionOp* ops, int count, const ColumnView* columns, std::uint64_t row,
                                std::int64_t& out) {
  __int128 stack[max_expression_stack];
  int top = 0;
  const __int128 low = -(__int128{1} << 63), high = (__int128{1} << 63) - 1;
  for (int i = 0; i < count; ++i) {
    const ExpressionOp& op = ops[i];
    __int128 value;
    switch (op.code) {
      case ExpressionOp::column:
        stack[top++] = load_exact(columns[op.column_index], row);
        continue;
      case ExpressionOp::constant:
        stack[top++] = op.constant_exact;
        continue;
      case ExpressionOp::negate:
        value = -stack[top - 1];
        top -= 1;
        break;
      case ExpressionOp::multiply:
        value = stack[top - 2] * stack[top - 1];
        top -= 2;
        break;
      default: {
        const __int128 a = stack[top - 2] * op.rescale_below, b = stack[top - 1] * op.rescale_top;
        if (a < low || a > high || b < low || b > high) return false;
        value = op.code == ExpressionOp::add ? a + b : a - b;
        top -= 2;
      }
    }
    if (value < low || value > high) return false;
    stack[top++] = value;
  }
  out = static_cast<std::int64_t>(stack[0]);
  return true;
}

SUBSCALE_HD double evaluate_double(const ExpressionOp* ops, int count, const ColumnView* columns, std::uint64_t row) {
  double stack[max_expression_stack];
  int top = 0;
  for (int i = 0; i < count; ++i) {
    const ExpressionOp& op = ops[i];
    switch (op.code) {
      case ExpressionOp::column:
        stack[top++] = load_double(columns[op.column_index], row);
        break;
      case ExpressionOp::constant:
        stack[top++] = op.constant_value;
        break;
      case ExpressionOp::negate:
        stack[top - 1] = -stack[top - 1];
        break;
      case ExpressionOp::multiply:
        stack[top - 2] *= stack[top - 1];
        --top;
        break;
      case ExpressionOp::add:
        stack[top - 2] += stack[top - 1];
        --top;
        break;
      case ExpressionOp::subtract:
        stack[top - 2] -= stack[top - 1];
        --top;
        break;
    }
  }
  return stack[0];
}

// Views of every column of `table` (string columns get a null view; expressions never read them).
std::vector<ColumnView> column_views(const ColumnTable& table);

}  // namespace subscale::filter
