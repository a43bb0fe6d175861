#include "stages/join/attach_columns.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "stages/join/column_join.hpp"

namespace subscale::join {
namespace {

TEST(AttachColumns, AttachesByIdInDataOrder) {
  const std::vector<std::uint64_t> data_ids{30, 10, 20};
  const std::vector<std::uint64_t> table_ids{10, 20, 30, 40};
  const std::vector<std::vector<double>> columns{{1, 2, 3, 4}, {-1, -2, -3, -4}};
  const AttachedColumns out = attach_columns(data_ids, table_ids, columns, UnmatchedRows::error);
  EXPECT_EQ(out.rows, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(out.columns[0], (std::vector<double>{3, 1, 2}));
  EXPECT_EQ(out.columns[1], (std::vector<double>{-3, -1, -2}));
}

TEST(AttachColumns, UnmatchedRowsAreDroppedOrAnError) {
  const std::vector<std::uint64_t> data_ids{5, 10, 6, 20};
  const std::vector<std::uint64_t> table_ids{20, 10};
  const std::vector<std::vector<double>> columns{{2.5, 1.5}};
  const AttachedColumns out = attach_columns(data_ids, table_ids, columns, UnmatchedRows::drop);
  EXPECT_EQ(out.rows, (std::vector<std::size_t>{1, 3}));
  EXPECT_EQ(out.columns[0], (std::vector<double>{1.5, 2.5}));
  try {
    attach_columns(data_ids, table_ids, columns, UnmatchedRows::error);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("2 of 4 data rows"), std::string::npos) << message;
    EXPECT_NE(message.find("row 0, id 5"), std::string::npos) << message;
  }
}

TEST(AttachColumns, DuplicateTableIdsAndBadColumnsAreErrors) {
  const std::vector<std::uint64_t> data_ids{1, 2};
  EXPECT_THROW(attach_columns(data_ids, std::vector<std::uint64_t>{1, 2, 2}, {{0, 0, 0}}, UnmatchedRows::drop),
               InputError);
  EXPECT_THROW(attach_columns(data_ids, std::vector<std::uint64_t>{1, 2}, {{0}}, UnmatchedRows::drop), InputError);
  EXPECT_THROW(parse_unmatched_rows("keep"), UsageError);
}

TEST(AttachColumns, OnADatasetKeepsIdsLabelsAndNamesInStep) {
  Dataset data;
  data.values.resize(3, 2);
  data.values << 1, 10, 2, 20, 3, 30;
  data.ids = {7, 8, 9};
  data.labels = {0, 1, -1};
  data.column_names = {"a", "b"};
  attach_columns(data, std::vector<std::uint64_t>{9, 7}, {"c"}, {{0.9, 0.7}}, UnmatchedRows::drop);
  ASSERT_EQ(data.points(), 2U);
  ASSERT_EQ(data.dimensions(), 3U);
  EXPECT_EQ(data.ids, (std::vector<std::uint64_t>{7, 9}));
  EXPECT_EQ(data.labels, (std::vector<std::int64_t>{0, -1}));
  EXPECT_EQ(data.column_names, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_DOUBLE_EQ(data.values(1, 0), 3);
  EXPECT_DOUBLE_EQ(data.values(1, 1), 30);
  EXPECT_DOUBLE_EQ(data.values(0, 2), 0.7);
  EXPECT_DOUBLE_EQ(data.values(1, 2), 0.9);

  Dataset no_ids;
  no_ids.values.resize(1, 1);
  EXPECT_THROW(attach_columns(no_ids, std::vector<std::uint64_t>{1}, {"c"}, {{1}}, UnmatchedRows::drop), InputError);
}

TEST(JoinColumns, SRowsWithRColumnsAttached) {
  ColumnTable s{{1, 2, 3, 2}, {"x", "y"}, {{0.1, 0.2, 0.3, 0.4}, {1, 2, 3, 4}}};
  ColumnTable r{{2, 1, 2}, {"y", "z"}, {{10, 20, 30}, {-1, -2, -3}}};
  const ColumnTable out = join_columns(s, r);
  EXPECT_EQ(out.names, (std::vector<std::string>{"x", "y", "y_r", "z"}));
  // S row 0 (key 1) -> R row 1; S row 1 (key 2) -> R rows 0, 2; S row 3 (key 2) -> R rows 0, 2.
  EXPECT_EQ(out.keys, (std::vector<std::uint64_t>{1, 2, 2, 2, 2}));
  EXPECT_EQ(out.columns[0], (std::vector<double>{0.1, 0.2, 0.2, 0.4, 0.4}));
  EXPECT_EQ(out.columns[2], (std::vector<double>{20, 10, 30, 10, 30}));
  EXPECT_EQ(out.columns[3], (std::vector<double>{-2, -1, -3, -1, -3}));
  ColumnTable bad = s;
  bad.columns[1].pop_back();
  EXPECT_THROW(join_columns(bad, r), InputError);
}

}  // namespace
}  // namespace subscale::join
