// The predicate language: bounds at every edge (inclusive, exclusive, dates at the first and last
// day of a year, decimals with more digits than the column's scale), and/or/not, and the config
// errors that name the problem.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "tests/filter/filter_test_util.hpp"

namespace subscale::filter {
namespace {

using testing::select;
using testing::string_column;
using Ids = std::vector<std::uint64_t>;

ColumnTable dates_table() {
  // 1993-12-31, 1994-01-01, 1994-06-15, 1994-12-31, 1995-01-01
  std::vector<std::int32_t> days{days_from_civil(1993, 12, 31), days_from_civil(1994, 1, 1),
                                 days_from_civil(1994, 6, 15), days_from_civil(1994, 12, 31),
                                 days_from_civil(1995, 1, 1)};
  ColumnTable table;
  table.columns.push_back({"d", ColumnType::date, 0, days});
  table.columns.push_back({"price", ColumnType::decimal, 2, std::vector<std::int64_t>{4, 5, 6, 7, 8}});
  table.columns.push_back({"n", ColumnType::int32, 0, std::vector<std::int32_t>{-2, -1, 0, 1, 2}});
  table.columns.push_back({"x", ColumnType::float64, 0, std::vector<double>{0.5, 1.0, 1.5, 2.0, 2.5}});
  table.columns.push_back(string_column("s", {"apple", "banana", "", "cherry", "apricot"}));
  return table;
}

TEST(Predicate, DateBoundsAtTheEdgesOfAYear) {
  const auto t = dates_table();
  EXPECT_EQ(select(t, "{column: d, ge: 1994-01-01, lt: 1995-01-01}"), (Ids{1, 2, 3}));
  EXPECT_EQ(select(t, "{column: d, gt: 1994-01-01, le: 1995-01-01}"), (Ids{2, 3, 4}));
  EXPECT_EQ(select(t, "{column: d, '>=': 1994-01-01, '<=': 1994-12-31}"), (Ids{1, 2, 3}));
  EXPECT_EQ(select(t, "{column: d, between: [1994-01-01, 1994-12-31]}"), (Ids{1, 2, 3}));
  EXPECT_EQ(select(t, "{column: d, between: [1994-01-01, 1994-12-31], bounds: '()'}"), (Ids{2}));
  EXPECT_EQ(select(t, "{column: d, between: [1993-12-31, 1995-01-01], bounds: '[)'}"), (Ids{0, 1, 2, 3}));
  EXPECT_EQ(select(t, "{column: d, between: [1993-12-31, 1995-01-01], bounds: '(]'}"), (Ids{1, 2, 3, 4}));
  EXPECT_EQ(select(t, "{column: d, eq: 1994-12-31}"), (Ids{3}));
  EXPECT_EQ(select(t, "{column: d, ne: 1994-12-31}"), (Ids{0, 1, 2, 4}));
}

TEST(Predicate, DecimalBoundsAreExact) {
  const auto t = dates_table();  // price 0.04 .. 0.08
  EXPECT_EQ(select(t, "{column: price, between: [0.05, 0.07]}"), (Ids{1, 2, 3}));
  EXPECT_EQ(select(t, "{column: price, lt: 0.06}"), (Ids{0, 1}));
  EXPECT_EQ(select(t, "{column: price, le: 0.06}"), (Ids{0, 1, 2}));
  // More digits than the scale: x < 0.065 is x <= 0.06; x > 0.065 is x >= 0.07.
  EXPECT_EQ(select(t, "{column: price, lt: 0.065}"), (Ids{0, 1, 2}));
  EXPECT_EQ(select(t, "{column: price, gt: 0.065}"), (Ids{3, 4}));
  EXPECT_EQ(select(t, "{column: price, ge: 0.0601, le: 0.0699}"), (Ids{}));
  EXPECT_EQ(select(t, "{column: price, eq: 0.065}"), (Ids{}));
  EXPECT_EQ(select(t, "{column: price, ge: 5e-2, le: 7E-2}"), (Ids{1, 2, 3}));
  EXPECT_EQ(select(t, "{column: n, gt: -1.5, lt: 1.5}"), (Ids{1, 2, 3}));
  EXPECT_EQ(select(t, "{column: n, gt: 1e30}"), (Ids{}));
  EXPECT_EQ(select(t, "{column: n, lt: -1e30}"), (Ids{}));
  EXPECT_EQ(select(t, "{column: n, gt: -1e30}"), (Ids{0, 1, 2, 3, 4}));
}

TEST(Predicate, FloatBoundsKeepInclusiveAndExclusive) {
  const auto t = dates_table();
  EXPECT_EQ(select(t, "{column: x, gt: 1.0, lt: 2.0}"), (Ids{2}));
  EXPECT_EQ(select(t, "{column: x, ge: 1.0, le: 2.0}"), (Ids{1, 2, 3}));
  EXPECT_EQ(select(t, "{column: x, ge: 1.0, gt: 1.0}"), (Ids{2, 3, 4}));  // the tighter bound wins
}

TEST(Predicate, AndOrNot) {
  const auto t = dates_table();
  EXPECT_EQ(select(t, "{or: [{column: n, lt: -1}, {column: n, gt: 1}]}"), (Ids{0, 4}));
  EXPECT_EQ(select(t, "{not: {or: [{column: n, lt: -1}, {column: n, gt: 1}]}}"), (Ids{1, 2, 3}));
  EXPECT_EQ(select(t, "{and: [{column: n, ge: 0}, {column: s, prefix: ap}]}"), (Ids{4}));
  EXPECT_EQ(select(t, "[{column: n, ge: 0}, {not: {column: s, equals: ''}}]"), (Ids{3, 4}));  // a list is and
  EXPECT_EQ(select(t, "{any: [{column: s, contains: an, algorithm: kmp}, {column: s, regex: '^ch'}]}"), (Ids{1, 3}));
  EXPECT_EQ(select(t, "{column: s, equals: ''}"), (Ids{2}));
  EXPECT_EQ(select(t, "{column: s, prefix: ''}"), (Ids{0, 1, 2, 3, 4}));
}

void expect_config_error(const ColumnTable& t, const std::string& yaml, const std::string& expected) {
  try {
    testing::where(yaml, t);
    ADD_FAILURE() << "accepted " << yaml;
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
  }
}

TEST(Predicate, ConfigErrorsNameTheProblem) {
  const auto t = dates_table();
  expect_config_error(t, "{column: nope, lt: 1}", "unknown column 'nope'");
  expect_config_error(t, "{column: s, lt: 1}", "compares a string column with a number");
  expect_config_error(t, "{column: n, equals: 'x'}", "a string operator on a numeric column");
  expect_config_error(t, "{column: n, lt: abc}", "the bound 'abc' is not a number");
  expect_config_error(t, "{column: d, lt: 1995-02-30}", "not a date");
  expect_config_error(t, "{column: s, regex: '(ab'}", "regex '(ab'");
  expect_config_error(t, "{column: n, like: 1}", "unknown operator 'like'");
  expect_config_error(t, "{column: n, between: [1]}", "between takes a list of two bounds");
  expect_config_error(t, "{column: n, between: [1, 2], bounds: '[['}", "bounds is '[['");
  expect_config_error(t, "{column: s, contains: a, algorithm: fast}", "algorithm is 'fast'");
  expect_config_error(t, "{xor: []}", "unknown key 'xor'");
  expect_config_error(t, "{and: []}", "non-empty list");
  expect_config_error(t, "{column: s, equals: a, prefix: b}", "one string operator");
  expect_config_error(t, "{column: n}", "no operator");
  expect_config_error(t, "{column: n, lt: 1, equals: a}", "mixes string operators");
  // Keys and names written as lists or mappings (found by fuzzing: they escaped as yaml-cpp errors).
  expect_config_error(t, "{[and]: []}", "a key is a list");
  expect_config_error(t, "[{{a: 1}: [1]}]", "a key is a list");
  expect_config_error(t, "{column: n, [lt]: 1}", "a key is a list");
  expect_config_error(t, "{column: n, between: [1, 2], bounds: [1]}", "bounds is ''");
  expect_config_error(t, "{column: s, contains: a, algorithm: {a: 1}}", "algorithm is ''");
}

TEST(Predicate, ColumnsAreListedInFirstMentionOrder) {
  EXPECT_EQ(
      predicate_columns(YAML::Load("{and: [{column: b, lt: 1}, {or: [{column: a, gt: 0}, {column: b, eq: 2}]}]}")),
      (std::vector<std::string>{"b", "a"}));
}

}  // namespace
}  // namespace subscale::filter
