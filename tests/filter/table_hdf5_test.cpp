// Column tables in HDF5: a round trip of every column type, HDF5 variable-length strings on
// input, and invalid layouts (offsets not monotone, past the bytes, a missing final offset).
#include "stages/filter/table_hdf5.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>

#include "common/error.hpp"
#include "io/hdf5_file.hpp"
#include "tests/filter/filter_test_util.hpp"
#include "tests/filter/hdf5_strings.hpp"

namespace subscale::filter {
namespace {

ColumnTable sample() {
  ColumnTable table;
  table.columns.push_back({"i32", ColumnType::int32, 0, std::vector<std::int32_t>{1, -2, 3}});
  table.columns.push_back({"i64", ColumnType::int64, 0, std::vector<std::int64_t>{1LL << 40, 0, -7}});
  table.columns.push_back({"f32", ColumnType::float32, 0, std::vector<float>{0.5f, 1.5f, -2}});
  table.columns.push_back({"f64", ColumnType::float64, 0, std::vector<double>{0.25, 1e300, -3}});
  table.columns.push_back({"day", ColumnType::date, 0, std::vector<std::int32_t>{0, 8766, 9131}});
  table.columns.push_back({"price", ColumnType::decimal, 2, std::vector<std::int64_t>{105, 99, 100000}});
  table.columns.push_back(testing::string_column("name", {"", "\xc3\xa9t\xc3\xa9", "last"}));
  return table;
}

TEST(TableHdf5, RoundTripKeepsTypesScalesAndOrder) {
  const auto path = testing::temporary_h5("roundtrip");
  const ColumnTable table = sample();
  write_column_table(path, "/lineitem", table, true);
  const ColumnTable back = read_column_table({path, "/lineitem"});
  ASSERT_EQ(back.names(), table.names());
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    EXPECT_EQ(back.columns[c].type, table.columns[c].type) << table.columns[c].name;
    EXPECT_EQ(back.columns[c].scale, table.columns[c].scale);
    EXPECT_EQ(back.columns[c].values, table.columns[c].values) << table.columns[c].name;
  }
  const ColumnTable some = read_column_table({path, "/lineitem"}, {"name", "price"});
  EXPECT_EQ(some.names(), (std::vector<std::string>{"price", "name"}));  // the table's order
  EXPECT_THROW(read_column_table({path, "/lineitem"}, {"missing"}), UsageError);
  EXPECT_THROW(read_column_table({path, "/nowhere"}), InputError);
  EXPECT_THROW(read_column_table({path.string() + ".absent", "/"}), InputError);
  std::filesystem::remove(path);
}

TEST(TableHdf5, ReadsVariableLengthStrings) {
  const auto path = testing::temporary_h5("vlen");
  {
    io::Hdf5File file(path.string(), io::Hdf5File::Mode::create_truncate);
    file.write("/t/n", std::vector<std::int64_t>{1, 2, 3, 4});
  }
  {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    const char* texts[] = {"alpha", "", "\xc3\xa9t\xc3\xa9", "omega"};
    testing::write_string_dataset(path, "/t/s", type, 4, texts);
    H5Tclose(type);
  }
  const ColumnTable table = read_column_table({path, "/t"});
  const auto& s = std::get<StringColumn>(table.find("s")->values);
  EXPECT_EQ(s.offsets, (std::vector<std::int64_t>{0, 5, 5, 10, 15}));
  EXPECT_EQ(std::string(s.bytes.begin() + 5, s.bytes.begin() + 10), "\xc3\xa9t\xc3\xa9");
  EXPECT_EQ(testing::select(table, "{column: s, regex: 'a$'}"), (std::vector<std::uint64_t>{0, 3}));
  std::filesystem::remove(path);
}

void expect_input_error(const std::vector<std::int64_t>& offsets, std::size_t bytes, const std::string& expected) {
  const auto path = testing::temporary_h5("bad");
  {
    io::Hdf5File file(path.string(), io::Hdf5File::Mode::create_truncate);
    file.write("/s/offsets", offsets);
    file.write("/s/bytes", std::vector<std::uint8_t>(bytes, 'x'));
  }
  try {
    read_column_table({path, "/"});
    ADD_FAILURE() << "accepted offsets";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find(path.string()), std::string::npos) << error.what();
  }
  std::filesystem::remove(path);
}

TEST(TableHdf5, InvalidOffsetsAreClearInputErrors) {
  expect_input_error({0, 3, 2, 5}, 5, "offsets are not monotone: offset 2 is 2 after 3");
  expect_input_error({0, 2, 9}, 5, "the last offset 9 runs past the 5 bytes");
  expect_input_error({0, 2, 4}, 5, "leaves 1 of the 5 bytes unused");
  expect_input_error({1, 2, 5}, 5, "the first offset is 1");
  expect_input_error({}, 0, "needs rows + 1 offsets");
}

TEST(TableHdf5, DecimalsNeedAScaleAndColumnsEqualLengths) {
  const auto path = testing::temporary_h5("decimal");
  {
    io::Hdf5File file(path.string(), io::Hdf5File::Mode::create_truncate);
    file.write("/a/price", std::vector<std::int64_t>{1, 2});
    file.write_string_attribute("/a/price", "kind", "decimal");
    file.write("/b/x", std::vector<std::int64_t>{1, 2});
    file.write("/b/y", std::vector<std::int64_t>{1, 2, 3});
    file.write("/c/d", std::vector<double>{1, 2});
    file.write_string_attribute("/c/d", "kind", "date");
  }
  EXPECT_THROW(read_column_table({path, "/a"}), InputError);
  EXPECT_THROW(read_column_table({path, "/b"}), InputError);
  EXPECT_THROW(read_column_table({path, "/c"}), InputError);
  std::filesystem::remove(path);
}

// libhdf5 fills the text of some damaged attributes from its own heap, which may begin with a
// NUL: a 'columns' attribute that names nothing must be an error, never a table of no columns.
TEST(TableHdf5, ColumnsAttributeThatNamesNothingIsAnInputError) {
  const auto path = testing::temporary_h5("empty_columns");
  {
    io::Hdf5File file(path.string(), io::Hdf5File::Mode::create_truncate);
    file.write("/t/x", std::vector<std::int64_t>{1, 2});
    file.write_string_attribute("/t", "columns", ",");
  }
  try {
    read_column_table({path, "/t"});
    ADD_FAILURE() << "read a table whose 'columns' attribute names no column";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(path.string() + ":/t: the attribute 'columns' names no column"),
              std::string::npos)
        << error.what();
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace subscale::filter
