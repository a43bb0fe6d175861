// What the filter says at its edges: a date bound on a column that lacks kind = "date" names the
// attribute; a regex error names the config file like every other predicate error; sum over no
// rows has no value (SQL's NULL), like min and max, while count is 0.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "tests/filter/filter_test_util.hpp"

namespace subscale::filter {
namespace {

std::string usage_error(const std::string& yaml, const ColumnTable& table) {
  try {
    compile_predicate(YAML::Load(yaml), table, "configs/my-filter.yaml");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

TEST(FilterMessages, DateBoundOnAPlainIntegerColumnNamesTheKindAttribute) {
  ColumnTable table;
  table.columns.push_back({"l_shipdate", ColumnType::int32, 0, std::vector<std::int32_t>{8766, 9131}});
  const std::string message = usage_error("{column: l_shipdate, ge: 1994-01-01}", table);
  EXPECT_NE(message.find("'1994-01-01' is not a number"), std::string::npos) << message;
  EXPECT_NE(message.find("kind = \"date\""), std::string::npos) << message;
  EXPECT_NE(message.find("l_shipdate"), std::string::npos) << message;
  table.columns[0].type = ColumnType::float64;
  table.columns[0].values = std::vector<double>{1, 2};
  EXPECT_NE(usage_error("{column: l_shipdate, lt: 1995-01-01}", table).find("kind = \"date\""), std::string::npos);
  // A plain typo gets no date advice.
  EXPECT_EQ(usage_error("{column: l_shipdate, lt: 12x}", table).find("kind"), std::string::npos);
}

TEST(FilterMessages, RegexErrorsNameTheConfigFile) {
  ColumnTable table;
  table.columns.push_back(testing::string_column("s", {"a"}));
  const std::string message = usage_error("{column: s, regex: '(a'}", table);
  EXPECT_EQ(message.rfind("configs/my-filter.yaml: ", 0), 0u) << message;
  EXPECT_NE(message.find("without a matching ')'"), std::string::npos) << message;
}

TEST(FilterMessages, SumOverNoRowsHasNoValue) {
  ColumnTable table;
  table.columns.push_back({"price", ColumnType::decimal, 2, std::vector<std::int64_t>{105, 99}});
  table.columns.push_back({"f", ColumnType::float64, 0, std::vector<double>{0.5, 1.5}});
  for (const std::string expression : {"price", "f"}) {
    for (const std::string function : {"sum", "min", "max", "count"}) {
      Aggregate aggregate;
      aggregate.function = parse_aggregate_function(function);
      aggregate.expression = compile_expression(expression, table, "test");
      const auto result =
          run_filter(table, testing::where("{column: price, gt: 5}", table), aggregate, FilterOptions{}).aggregate;
      ASSERT_TRUE(result);
      EXPECT_EQ(result->rows, 0u);
      EXPECT_EQ(result->empty, function != "count") << function << "(" << expression << ")";
      EXPECT_EQ(result->text(), function == "count" ? "0" : "none") << function << "(" << expression << ")";
    }
  }
}

}  // namespace
}  // namespace subscale::filter
