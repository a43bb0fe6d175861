#include "stages/filter/aggregate.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/error.hpp"
#include "stages/filter/exact_decimal.hpp"

namespace subscale::filter {

AggregateFunction parse_aggregate_function(const std::string& name) {
  if (name == "none") return AggregateFunction::none;
  if (name == "sum") return AggregateFunction::sum;
  if (name == "count") return AggregateFunction::count;
  if (name == "min") return AggregateFunction::min;
  if (name == "max") return AggregateFunction::max;
  throw UsageError("aggregate function '" + name + "' is not one of none, sum, count, min, max");
}

std::string to_string(AggregateFunction function) {
  switch (function) {
    case AggregateFunction::none:
      return "none";
    case AggregateFunction::sum:
      return "sum";
    case AggregateFunction::count:
      return "count";
    case AggregateFunction::min:
      return "min";
    case AggregateFunction::max:
      return "max";
  }
  return "?";
}

std::string AggregateResult::text() const {
  if (empty) return "none";
  if (function == AggregateFunction::count) return std::to_string(rows);
  if (exact) return format_scaled(scaled, scale);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

std::vector<ColumnView> column_views(const ColumnTable& table) {
  std::vector<ColumnView> views;
  for (const auto& column : table.columns) {
    ColumnView view{column.type, column.scale, nullptr};
    std::visit(
        [&](const auto& values) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(values)>, StringColumn>) view.data = values.data();
        },
        column.values);
    views.push_back(view);
  }
  return views;
}

namespace {

class ExpressionParser {
 public:
  ExpressionParser(const std::string& text, const ColumnTable& table, const std::string& origin)
      : text_(text), table_(table), origin_(origin) {}

  Expression run() {
    expression_.text = text_;
    // First pass decides exactness: any float column makes the whole expression a double one.
    skip_space();
    if (at_end()) fail("the expression is empty");
    const int scale = parse_sum();
    skip_space();
    if (!at_end()) fail("unexpected '" + std::string(1, text_[position_]) + "'");
    expression_.scale = expression_.exact ? scale : 0;
    if (!expression_.exact)
      for (auto& op : expression_.program) op.rescale_below = op.rescale_top = 1;
    return std::move(expression_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw UsageError(origin_ + ": expression '" + text_ + "' at byte " + std::to_string(position_) + ": " + what);
  }
  bool at_end() const { return position_ >= text_.size(); }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
  }
  void push(ExpressionOp op, int delta) {
    expression_.program.push_back(op);
    depth_ += delta;
    if (depth_ > max_expression_stack) fail("too deeply nested");
    expression_.max_stack = std::max(expression_.max_stack, depth_);
  }

  // Each parse function returns the scale of its (exact) result.
  int parse_sum() {
    int scale = parse_product();
    for (skip_space(); !at_end() && (text_[position_] == '+' || text_[position_] == '-'); skip_space()) {
      const bool add = text_[position_++] == '+';
      const int right = parse_product();
      ExpressionOp op;
      op.code = add ? ExpressionOp::add : ExpressionOp::subtract;
      const int common = std::max(scale, right);
      op.rescale_below = static_cast<std::int64_t>(power_of_ten(common - scale));
      op.rescale_top = static_cast<std::int64_t>(power_of_ten(common - right));
      push(op, -1);
      scale = common;
    }
    return scale;
  }

  int parse_product() {
    int scale = parse_factor();
    for (skip_space(); !at_end() && (text_[position_] == '*' || text_[position_] == '/'); skip_space()) {
      if (text_[position_] == '/') fail("division is not supported (its result is not exact)");
      ++position_;
      scale += parse_factor();
      if (expression_.exact && scale > 18) fail("the product's decimal scale exceeds 18 digits");
      ExpressionOp op;
      op.code = ExpressionOp::multiply;
      push(op, -1);
    }
    return scale;
  }

  int parse_factor() {
    skip_space();
    if (at_end()) fail("an operand is missing");
    const char c = text_[position_];
    if (c == '-') {
      ++position_;
      const int scale = parse_factor();
      ExpressionOp op;
      op.code = ExpressionOp::negate;
      push(op, 0);
      return scale;
    }
    if (c == '(') {
      ++position_;
      const int scale = parse_sum();
      skip_space();
      if (at_end() || text_[position_] != ')') fail("'(' without a matching ')'");
      ++position_;
      return scale;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return parse_constant();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return parse_column();
    fail("unexpected '" + std::string(1, c) + "'");
  }

  int parse_constant() {
    const std::size_t start = position_;
    while (!at_end() && (std::isdigit(static_cast<unsigned char>(text_[position_])) || text_[position_] == '.'))
      ++position_;
    const std::string literal = text_.substr(start, position_ - start);
    const auto value = parse_exact_decimal(literal);
    if (!value) fail("'" + literal + "' is not a number");
    if (value->fraction > 18 || value->digits > power_of_ten(18)) fail("'" + literal + "' has too many digits");
    ExpressionOp op;
    op.code = ExpressionOp::constant;
    op.constant_exact = static_cast<std::int64_t>(value->digits);
    op.constant_value = std::stod(literal);
    push(op, 1);
    return value->fraction;
  }

  int parse_column() {
    const std::size_t start = position_;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(text_[position_])) || text_[position_] == '_'))
      ++position_;
    const std::string name = text_.substr(start, position_ - start);
    int index = -1;
    for (std::size_t i = 0; i < table_.columns.size(); ++i)
      if (table_.columns[i].name == name) index = static_cast<int>(i);
    if (index < 0) {
      std::string list;
      for (const auto& n : table_.names()) list += (list.empty() ? "" : ", ") + n;
      fail("unknown column '" + name + "' (the table's columns: " + list + ")");
    }
    const Column& column = table_.columns[static_cast<std::size_t>(index)];
    if (column.type == ColumnType::string) fail("column '" + name + "' holds strings, not numbers");
    if (!is_exact(column.type)) expression_.exact = false;
    bool seen = false;
    for (int c : expression_.columns) seen |= c == index;
    if (!seen) expression_.columns.push_back(index);
    ExpressionOp op;
    op.code = ExpressionOp::column;
    op.column_index = index;
    push(op, 1);
    return column.type == ColumnType::decimal ? column.scale : 0;
  }

  const std::string& text_;
  const ColumnTable& table_;
  const std::string& origin_;
  std::size_t position_ = 0;
  int depth_ = 0;
  Expression expression_;
};

}  // namespace

Expression compile_expression(const std::string& text, const ColumnTable& table, const std::string& origin) {
  return ExpressionParser(text, table, origin).run();
}

AggregateResult aggregate_result(const Aggregate& aggregate, const AggregateTotals& total) {
  const Expression& e = aggregate.expression;
  AggregateResult result;
  result.function = aggregate.function;
  result.expression = e.text;
  result.rows = total.rows;
  if (aggregate.function == AggregateFunction::count) {
    result.exact = true;
    result.scaled = static_cast<std::int64_t>(total.rows);
    result.value = static_cast<double>(total.rows);
    return result;
  }
  if (total.overflow_row != ~std::uint64_t{0})
    throw InputError("aggregate " + to_string(aggregate.function) + "(" + e.text + "): at row " +
                     std::to_string(total.overflow_row) +
                     " an intermediate value leaves the 64-bit integer range (lower the decimal scales)");
  result.exact = e.exact;
  result.scale = e.scale;
  const bool is_min = aggregate.function == AggregateFunction::min;
  const bool is_max = aggregate.function == AggregateFunction::max;
  // As in SQL, sum, min and max of no rows have no value (NULL), where count is 0.
  if (total.rows == 0) {
    result.empty = true;
    return result;
  }
  if (e.exact) {
    const __int128 value = is_min ? total.min : is_max ? total.max : total.sum;
    if (value > std::numeric_limits<std::int64_t>::max() || value < std::numeric_limits<std::int64_t>::min())
      throw InputError("aggregate sum(" + e.text + ") leaves the 64-bit integer range at scale " +
                       std::to_string(e.scale));
    result.scaled = static_cast<std::int64_t>(value);
    result.value = static_cast<double>(result.scaled) / std::pow(10.0, e.scale);
  } else {
    result.value = is_min ? total.double_min : is_max ? total.double_max : total.double_sum;
  }
  return result;
}

}  // namespace subscale::filter
