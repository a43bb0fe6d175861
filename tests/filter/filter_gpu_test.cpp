// The cuda backend against the cpu backend: the same rows and the same exact aggregates for every
// kind of predicate and every string layout. Skips without a device.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "datasets/generators/filter_generators.hpp"
#include "gpu/device_info.hpp"
#include "tests/filter/filter_test_util.hpp"
#include "tests/filter/utf8_patterns.hpp"
#include "tests/skip_without_gpu.hpp"

namespace subscale::filter {
namespace {

TEST(FilterGpu, CudaBackendWithoutDeviceIsAClearResourceError) {
  if (gpu::query_device().available) GTEST_SKIP() << "a device is available";
  ColumnTable table;
  table.columns.push_back({"n", ColumnType::int64, 0, std::vector<std::int64_t>{1, 2}});
  FilterOptions options;
  options.backend = Backend::cuda;
  EXPECT_THROW(run_filter(table, testing::where("{column: n, lt: 2}", table), Aggregate{}, options), ResourceError);
}

void expect_same(const ColumnTable& table, const std::string& where, const std::string& function,
                 const std::string& expression) {
  const Predicate predicate = testing::where(where, table);
  Aggregate aggregate;
  aggregate.function = parse_aggregate_function(function);
  if (!expression.empty()) aggregate.expression = compile_expression(expression, table, "test");
  FilterOptions cpu_options;
  const FilterResult cpu = run_filter(table, predicate, aggregate, cpu_options);
  for (const int kernel : {0, 1, 2})  // fused vectorised, fused row per lane, bitmaps
    for (const StringLayout layout :
         {StringLayout::lane_refill, StringLayout::lane_per_string, StringLayout::warp_per_string}) {
      const bool fused = kernel < 2;
      FilterOptions options;
      options.backend = Backend::cuda;
      options.fused = fused;
      options.vector_fused = kernel == 0;
      options.string_layout = layout;
      // Both compactions, without doubling the runs.
      options.compaction = layout == StringLayout::warp_per_string ? Compaction::cub_select : Compaction::bitmap_words;
      const FilterResult gpu = run_filter(table, predicate, aggregate, options);
      const std::string what = where + " (" + to_string(layout) + ", " + to_string(options.compaction) +
                               (fused ? ", fused" : "") + ", " + gpu.timings.path + ")";
      EXPECT_EQ(gpu.selected, cpu.selected) << what;
      EXPECT_EQ(gpu.ids, cpu.ids) << what;
      ASSERT_EQ(gpu.aggregate.has_value(), cpu.aggregate.has_value()) << what;
      if (cpu.aggregate) {
        EXPECT_EQ(gpu.aggregate->rows, cpu.aggregate->rows) << what;
        EXPECT_EQ(gpu.aggregate->empty, cpu.aggregate->empty) << what;
        if (cpu.aggregate->exact)
          EXPECT_EQ(gpu.aggregate->scaled, cpu.aggregate->scaled) << what;
        else
          EXPECT_NEAR(gpu.aggregate->value, cpu.aggregate->value, 1e-9 * std::abs(cpu.aggregate->value)) << what;
      }
    }
}

TEST(FilterGpu, Q6AndNumericPredicatesEqualCpu) {
  SKIP_WITHOUT_GPU();
  const ColumnTable table = generate_lineitem(0.05, 9);
  const std::string q6 =
      "{and: [{column: l_shipdate, ge: 1994-01-01, lt: 1995-01-01}, {column: l_discount, between: [0.05, 0.07]},"
      " {column: l_quantity, lt: 24}]}";
  for (const std::string f : {"sum", "min", "max", "count"}) expect_same(table, q6, f, "l_extendedprice * l_discount");
  expect_same(table, "{or: [{column: l_quantity, le: 1}, {not: {column: l_discount, gt: 0.01}}]}", "sum",
              "l_extendedprice - l_discount + 2.5");
  expect_same(table, "{column: l_quantity, lt: 0}", "max", "l_quantity");                    // nothing selected
  expect_same(table, "{column: l_quantity, lt: 0}", "sum", "l_extendedprice * l_discount");  // no value either
  expect_same(table, "{column: l_quantity, ge: 0}", "none", "");                             // everything
  ColumnTable empty;
  empty.columns.push_back({"n", ColumnType::int64, 0, std::vector<std::int64_t>{}});
  expect_same(empty, "{column: n, lt: 5}", "sum", "n");
  ColumnTable floats;
  std::vector<double> x(10001);
  std::vector<float> y(10001);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<double>(i) * 0.5;
    y[i] = static_cast<float>(i % 7);
  }
  floats.columns.push_back({"x", ColumnType::float64, 0, x});
  floats.columns.push_back({"y", ColumnType::float32, 0, y});
  expect_same(floats, "{and: [{column: x, gt: 10, le: 4000}, {column: y, between: [2, 5], bounds: '(]'}]}", "max",
              "x*y");
}

// The vectorised fused pass reads 4 rows a thread with 16-byte loads: every table length around
// a tile, a warp and a block (the last, partial tile is read row by row), 4- and 8-byte columns,
// each expression shape (one column, a product, a general program) and an empty range.
TEST(FilterGpu, VectorisedFusedPassEqualsCpuAtEveryTail) {
  SKIP_WITHOUT_GPU();
  for (const std::size_t rows : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 31u, 33u, 127u, 128u, 129u, 1023u, 1025u, 4099u}) {
    std::vector<std::int32_t> day(rows), small(rows);
    std::vector<std::int64_t> big(rows), price(rows);
    for (std::size_t i = 0; i < rows; ++i) {
      day[i] = static_cast<std::int32_t>(8000 + (i * 37) % 800);
      small[i] = static_cast<std::int32_t>(i % 13) - 6;
      big[i] = static_cast<std::int64_t>((i * 7919) % 1000) - 300;
      price[i] = static_cast<std::int64_t>(100000 + (i * 104729) % 900000);
    }
    ColumnTable table;
    table.columns.push_back({"day", ColumnType::date, 0, day});
    table.columns.push_back({"small", ColumnType::int32, 0, small});
    table.columns.push_back({"big", ColumnType::int64, 0, big});
    table.columns.push_back({"price", ColumnType::decimal, 2, price});
    const std::string three =
        "{and: [{column: day, ge: 8100, lt: 8500}, {column: small, between: [-2, 4]}, {column: big, gt: -100}]}";
    for (const std::string f : {"sum", "min", "max", "count"}) expect_same(table, three, f, "price * small");
    expect_same(table, three, "sum", "price");
    expect_same(table, three, "sum", "price * small - big + 1.25");
    expect_same(table, "{column: big, le: 500}", "max", "big * price");
    expect_same(table, "{and: [{column: small, gt: 1, lt: 2}, {column: day, ge: 0}]}", "sum", "big");  // empty range
    expect_same(table, "{column: day, ge: 0}", "none", "");
    FilterOptions options;
    options.backend = Backend::cuda;
    Aggregate aggregate;
    aggregate.function = AggregateFunction::sum;
    aggregate.expression = compile_expression("price * small", table, "test");
    EXPECT_EQ(run_filter(table, testing::where(three, table), aggregate, options).timings.path, "fused-vector");
  }
}

TEST(FilterGpu, VectorisedFusedPassReportsOverflowAsTheCpuDoes) {
  SKIP_WITHOUT_GPU();
  ColumnTable table;
  table.columns.push_back({"a", ColumnType::int64, 0, std::vector<std::int64_t>{1, 3037000500ll, 2, 3037000500ll, 5}});
  const Predicate predicate = testing::where("{column: a, ge: 0}", table);
  Aggregate aggregate;
  aggregate.function = AggregateFunction::sum;
  aggregate.expression = compile_expression("a * a", table, "test");
  EXPECT_THROW(run_filter(table, predicate, aggregate, FilterOptions{}), InputError);
  FilterOptions options;
  options.backend = Backend::cuda;
  EXPECT_THROW(run_filter(table, predicate, aggregate, options), InputError);
}

TEST(FilterGpu, StringPredicatesEqualCpu) {
  SKIP_WITHOUT_GPU();
  for (const auto lengths : {LengthDistribution::uniform, LengthDistribution::zipf})
    for (const TextKind text : {TextKind::random, TextKind::partial_matches}) {
      StringGeneratorOptions o;
      o.rows = 20001;
      o.max_length = 200;
      o.lengths = lengths;
      o.text = text;
      o.alphabet = 3;
      o.needle = "abcab";
      o.needle_probability = 0.3;
      const ColumnTable table = generate_strings(o);
      for (const std::string algorithm : {"naive", "kmp", "bmh"})
        expect_same(table, "{column: text, contains: abcab, algorithm: " + algorithm + "}", "count", "");
      expect_same(table, "{column: text, contains: ''}", "count", "");
      expect_same(table, "{column: text, equals: abc}", "count", "");
      expect_same(table, "{column: text, equals: ''}", "count", "");
      expect_same(table, "{column: text, prefix: ab}", "count", "");
      expect_same(table, "{column: text, regex: '^(ab|c)+a?$'}", "count", "");
      expect_same(table, "{column: text, regex: 'a[^a]*b.c'}", "count", "");
      expect_same(table, "{or: [{column: text, prefix: ca}, {not: {column: text, regex: 'b$'}}]}", "count", "");
    }
}

TEST(FilterGpu, RandomRegexesEqualCpu) {
  SKIP_WITHOUT_GPU();
  StringGeneratorOptions o;
  o.rows = 5000;
  o.max_length = 24;
  o.alphabet = 3;
  const ColumnTable table = generate_strings(o);
  std::mt19937_64 rng(5);
  for (int i = 0; i < 60; ++i) {
    const std::string pattern = testing::random_pattern(rng, 0);
    const Predicate predicate = testing::where("{column: text, regex: '" + pattern + "'}", table);
    FilterOptions gpu;
    gpu.backend = Backend::cuda;
    EXPECT_EQ(run_filter(table, predicate, Aggregate{}, gpu).ids,
              run_filter(table, predicate, Aggregate{}, FilterOptions{}).ids)
        << pattern;
  }
}

// UTF-8 alternatives sharing a leading byte, every string layout (regex_utf8_test checks the CPU
// against an independent reference on the same kind of patterns).
TEST(FilterGpu, RandomUtf8RegexesEqualCpu) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(26);
  std::vector<std::string> texts;
  for (int i = 0; i < 2000; ++i) texts.push_back(testing::random_utf8_text(rng));
  ColumnTable table;
  table.columns.push_back(testing::string_column("s", texts));
  for (int i = 0; i < 60; ++i) {
    const std::string pattern = testing::random_small_pattern(rng);
    const Predicate predicate = testing::where("{column: s, regex: \"" + pattern + "\"}", table);
    const auto cpu = run_filter(table, predicate, Aggregate{}, FilterOptions{}).ids;
    for (const auto layout :
         {StringLayout::lane_refill, StringLayout::lane_per_string, StringLayout::warp_per_string}) {
      FilterOptions gpu;
      gpu.backend = Backend::cuda;
      gpu.string_layout = layout;
      EXPECT_EQ(run_filter(table, predicate, Aggregate{}, gpu).ids, cpu) << pattern << " " << to_string(layout);
    }
  }
}

}  // namespace
}  // namespace subscale::filter
