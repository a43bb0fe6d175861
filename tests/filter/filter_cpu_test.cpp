// The CPU backend: TPC-H Q6 on generated lineitem equals a plain sequential loop exactly; empty
// tables, no row and every row selected; strings including the last string's end offset; the
// aggregates and their overflow check.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "common/error.hpp"
#include "datasets/generators/filter_generators.hpp"
#include "tests/filter/filter_test_util.hpp"

namespace subscale::filter {
namespace {

using testing::select;
using testing::string_column;
using Ids = std::vector<std::uint64_t>;

TEST(FilterCpu, Q6EqualsASequentialLoopExactly) {
  const ColumnTable table = generate_lineitem(0.01, 3);  // 60,012 rows
  ASSERT_EQ(table.rows(), 60012u);
  const auto& quantity = std::get<std::vector<std::int64_t>>(table.find("l_quantity")->values);
  const auto& price = std::get<std::vector<std::int64_t>>(table.find("l_extendedprice")->values);
  const auto& discount = std::get<std::vector<std::int64_t>>(table.find("l_discount")->values);
  const auto& ship = std::get<std::vector<std::int32_t>>(table.find("l_shipdate")->values);
  const std::int32_t from = days_from_civil(1994, 1, 1), to = days_from_civil(1995, 1, 1);
  std::int64_t sum = 0;
  Ids ids;
  for (std::size_t i = 0; i < table.rows(); ++i)
    if (ship[i] >= from && ship[i] < to && discount[i] >= 5 && discount[i] <= 7 && quantity[i] < 2400) {
      sum += price[i] * discount[i];
      ids.push_back(i);
    }
  const FilterResult result = testing::run_q6(table);
  ASSERT_TRUE(result.aggregate);
  EXPECT_TRUE(result.aggregate->exact);
  EXPECT_EQ(result.aggregate->scale, 4);
  EXPECT_EQ(result.aggregate->scaled, sum);
  EXPECT_EQ(result.ids, ids);
  EXPECT_EQ(result.selected, ids.size());
  EXPECT_EQ(result.aggregate->rows, ids.size());
  // TPC-H's Q6 selects about 1.9% of lineitem.
  EXPECT_GT(ids.size(), table.rows() / 100);
  EXPECT_LT(ids.size(), table.rows() / 30);
  EXPECT_EQ(testing::run_q6(table, "count").aggregate->scaled, static_cast<std::int64_t>(ids.size()));
}

TEST(FilterCpu, Q6GeneratorFollowsTpchRanges) {
  const ColumnTable table = generate_lineitem(0.002, 5);
  const auto& quantity = std::get<std::vector<std::int64_t>>(table.find("l_quantity")->values);
  const auto& discount = std::get<std::vector<std::int64_t>>(table.find("l_discount")->values);
  const auto& ship = std::get<std::vector<std::int32_t>>(table.find("l_shipdate")->values);
  for (std::size_t i = 0; i < table.rows(); ++i) {
    ASSERT_TRUE(quantity[i] >= 100 && quantity[i] <= 5000 && quantity[i] % 100 == 0);
    ASSERT_TRUE(discount[i] >= 0 && discount[i] <= 10);
    ASSERT_GE(ship[i], days_from_civil(1992, 1, 2));
    ASSERT_LE(ship[i], days_from_civil(1998, 12, 1));
  }
  // Same seed, same table.
  EXPECT_EQ(std::get<std::vector<std::int32_t>>(generate_lineitem(0.002, 5).find("l_shipdate")->values), ship);
}

TEST(FilterCpu, EmptyTableNoneAndAllSelected) {
  ColumnTable empty;
  empty.columns.push_back({"n", ColumnType::int64, 0, std::vector<std::int64_t>{}});
  EXPECT_EQ(select(empty, "{column: n, lt: 5}"), (Ids{}));
  ColumnTable table;
  std::vector<std::int64_t> values(10000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i);
  table.columns.push_back({"n", ColumnType::int64, 0, values});
  EXPECT_EQ(select(table, "{column: n, lt: 0}"), (Ids{}));
  EXPECT_EQ(select(table, "{column: n, gt: 5, lt: 6}"), (Ids{}));
  const Ids all = select(table, "{column: n, ge: 0}");
  ASSERT_EQ(all.size(), values.size());
  for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i);
  // Blocks of 4096 rows and a partial last word: rows 4095, 4096, 9999 at the edges.
  EXPECT_EQ(select(table, "{or: [{column: n, eq: 4095}, {column: n, eq: 4096}, {column: n, ge: 9999}]}"),
            (Ids{4095, 4096, 9999}));
  // No predicate: every row.
  FilterOptions options;
  EXPECT_EQ(run_filter(table, Predicate{}, Aggregate{}, options).selected, values.size());
}

TEST(FilterCpu, TheLastStringEndsAtTheLastOffset) {
  // The seed's off-by-one: the last string's end is offsets[rows], and its last byte counts.
  ColumnTable table;
  table.columns.push_back(string_column("s", {"xa", "", "ab", "aab"}));
  EXPECT_EQ(select(table, "{column: s, contains: ab, algorithm: naive}"), (Ids{2, 3}));
  EXPECT_EQ(select(table, "{column: s, contains: ab, algorithm: kmp}"), (Ids{2, 3}));
  EXPECT_EQ(select(table, "{column: s, contains: ab, algorithm: bmh}"), (Ids{2, 3}));
  EXPECT_EQ(select(table, "{column: s, regex: 'b$'}"), (Ids{2, 3}));
  EXPECT_EQ(select(table, "{column: s, equals: aab}"), (Ids{3}));
  EXPECT_EQ(select(table, "{column: s, equals: aa}"), (Ids{}));
  EXPECT_EQ(select(table, "{column: s, equals: ''}"), (Ids{1}));
  EXPECT_EQ(select(table, "{column: s, contains: ''}"), (Ids{0, 1, 2, 3}));
  EXPECT_EQ(select(table, "{column: s, contains: aaab}"), (Ids{}));
}

TEST(FilterCpu, AlgorithmsSelectTheSameRowsOnGeneratedText) {
  for (const TextKind kind : {TextKind::random, TextKind::partial_matches}) {
    StringGeneratorOptions o;
    o.rows = 3000;
    o.max_length = 80;
    o.text = kind;
    o.alphabet = 4;
    o.needle = "abcab";
    o.needle_probability = 0.2;
    o.lengths = LengthDistribution::zipf;
    const ColumnTable table = generate_strings(o);
    const Ids naive = select(table, "{column: text, contains: abcab, algorithm: naive}");
    EXPECT_EQ(select(table, "{column: text, contains: abcab, algorithm: kmp}"), naive);
    EXPECT_EQ(select(table, "{column: text, contains: abcab, algorithm: bmh}"), naive);
    EXPECT_EQ(select(table, "{column: text, regex: 'abcab'}"), naive);
    EXPECT_GT(naive.size(), 100u);
  }
}

TEST(FilterCpu, AggregatesSumCountMinMax) {
  ColumnTable table;
  table.columns.push_back({"a", ColumnType::decimal, 2, std::vector<std::int64_t>{150, -250, 1000, 5}});
  table.columns.push_back({"b", ColumnType::int32, 0, std::vector<std::int32_t>{2, 3, 4, 5}});
  table.columns.push_back({"f", ColumnType::float64, 0, std::vector<double>{0.5, 0.25, 2, 4}});
  const auto run = [&](const std::string& function, const std::string& expression, const std::string& where) {
    Aggregate aggregate;
    aggregate.function = parse_aggregate_function(function);
    if (aggregate.function != AggregateFunction::count)
      aggregate.expression = compile_expression(expression, table, "test");
    return *run_filter(table, testing::where(where, table), aggregate, FilterOptions{}).aggregate;
  };
  // a*b + 1.5: 1.5*2+1.5 = 4.5, -2.5*3+1.5 = -6, 10*4+1.5 = 41.5, 0.05*5+1.5 = 1.75
  EXPECT_EQ(run("sum", "a * b + 1.5", "{column: b, ge: 0}").text(), "41.75");
  EXPECT_EQ(run("min", "a * b + 1.5", "{column: b, ge: 0}").text(), "-6.00");
  EXPECT_EQ(run("max", "a*(b-1)", "{column: b, lt: 4}").text(), "1.50");
  EXPECT_EQ(run("sum", "-a", "{column: b, gt: 3}").text(), "-10.05");
  EXPECT_EQ(run("count", "", "{column: b, gt: 3}").text(), "2");
  EXPECT_TRUE(run("min", "a", "{column: b, gt: 9}").empty);
  EXPECT_EQ(run("sum", "a", "{column: b, gt: 9}").text(), "none");  // SQL's NULL, as min and max
  const AggregateResult floating = run("sum", "f * b", "{column: b, ge: 0}");
  EXPECT_FALSE(floating.exact);
  EXPECT_DOUBLE_EQ(floating.value, 0.5 * 2 + 0.25 * 3 + 8 + 20);
}

// The range kernel (a byte a comparison, packed by multiplication, whole words at a time) against
// a plain loop: int32 and int64 columns, bounds at the types' ends, lengths not a multiple of 64.
TEST(FilterCpu, ExactRangesEqualAPlainLoopAtTheEdges) {
  std::mt19937_64 rng(6);
  for (const std::size_t rows :
       {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{4097}, std::size_t{9000}}) {
    std::vector<std::int32_t> narrow(rows);
    std::vector<std::int64_t> wide(rows);
    for (std::size_t i = 0; i < rows; ++i) {
      narrow[i] = static_cast<std::int32_t>(rng() % 21) - 10;
      wide[i] = i % 7 == 0   ? std::numeric_limits<std::int64_t>::min() + static_cast<std::int64_t>(i % 3)
                : i % 7 == 1 ? std::numeric_limits<std::int64_t>::max() - static_cast<std::int64_t>(i % 3)
                             : static_cast<std::int64_t>(rng() % 21) - 10;
    }
    ColumnTable table;
    table.columns.push_back({"n", ColumnType::int32, 0, narrow});
    table.columns.push_back({"w", ColumnType::int64, 0, wide});
    for (const std::string where :
         {"{column: n, ge: -3, le: 4}", "{column: n, gt: -100}", "{column: w, lt: 0}", "{column: w, ge: -5, lt: 5}",
          "{column: w, ge: 9223372036854775806}", "{column: w, le: -9223372036854775807}",
          "{and: [{column: n, ge: 0}, {column: w, le: 3}]}", "{column: n, gt: 5, lt: 6}"}) {
      Ids expected;
      const auto leaf = testing::where(where, table);
      for (std::size_t i = 0; i < rows; ++i) {
        bool keep = true;
        for (const auto& l : leaf.numeric) {
          const std::int64_t x = l.column == 0 ? narrow[i] : wide[i];
          keep = keep && !l.empty && x >= l.low && x <= l.high;
        }
        if (keep) expected.push_back(i);
      }
      EXPECT_EQ(select(table, where), expected) << where << ", " << rows << " rows";
    }
  }
}

TEST(FilterCpu, ExpressionErrorsAndOverflow) {
  ColumnTable table;
  table.columns.push_back(
      {"a", ColumnType::int64, 0, std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max(), 1}});
  table.columns.push_back(string_column("s", {"x", "y"}));
  EXPECT_THROW(compile_expression("a / 2", table, "test"), UsageError);
  EXPECT_THROW(compile_expression("a * s", table, "test"), UsageError);
  EXPECT_THROW(compile_expression("a * nope", table, "test"), UsageError);
  EXPECT_THROW(compile_expression("(a", table, "test"), UsageError);
  EXPECT_THROW(compile_expression("", table, "test"), UsageError);
  Aggregate aggregate;
  aggregate.function = AggregateFunction::sum;
  aggregate.expression = compile_expression("a * 2", table, "test");
  EXPECT_THROW(run_filter(table, Predicate{}, aggregate, FilterOptions{}), InputError);
  aggregate.expression = compile_expression("a", table, "test");
  EXPECT_THROW(run_filter(table, Predicate{}, aggregate, FilterOptions{}), InputError);  // the sum overflows
}

}  // namespace
}  // namespace subscale::filter
