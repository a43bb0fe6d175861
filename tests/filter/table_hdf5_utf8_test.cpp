// Tables written the way h5py writes them by default: string attributes (`kind`, `columns`) and
// string columns in UTF-8, variable or fixed length. They read exactly like the project's own
// ASCII attributes; before, a UTF-8 `kind` was ignored and a Q6 gave 0 rows with exit 0.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>

#include "common/error.hpp"
#include "datasets/generators/filter_generators.hpp"
#include "io/hdf5_file.hpp"
#include "stages/filter/table_hdf5.hpp"
#include "tests/filter/filter_test_util.hpp"
#include "tests/filter/hdf5_strings.hpp"

namespace subscale::filter {
namespace {

enum class Storage { variable, fixed };

hid_t utf8_type(Storage storage, std::size_t bytes) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_cset(type, H5T_CSET_UTF8);
  if (storage == Storage::variable) {
    H5Tset_size(type, H5T_VARIABLE);
  } else {
    H5Tset_size(type, std::max<std::size_t>(1, bytes));
    H5Tset_strpad(type, H5T_STR_NULLPAD);
  }
  return type;
}

// attrs[name] = value, as h5py writes a str (variable) or a fixed-length UTF-8 dtype.
void put_utf8_attribute(const std::filesystem::path& path, const std::string& object, const char* name,
                        const std::string& value, Storage storage) {
  const hid_t file = H5Fopen(path.string().c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t target = H5Oopen(file, object.c_str(), H5P_DEFAULT);
  const hid_t type = utf8_type(storage, value.size());
  const hid_t space = H5Screate(H5S_SCALAR);
  if (H5Aexists(target, name) > 0) H5Adelete(target, name);
  const hid_t attribute = H5Acreate2(target, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  const char* text = value.c_str();
  if (storage == Storage::variable)
    H5Awrite(attribute, type, &text);
  else
    H5Awrite(attribute, type, text);
  H5Aclose(attribute);
  H5Sclose(space);
  H5Tclose(type);
  H5Oclose(target);
  H5Fclose(file);
}

// A lineitem table whose `kind` and `columns` attributes are UTF-8 strings.
void write_h5py_like(const std::filesystem::path& path, const ColumnTable& table, Storage storage) {
  {
    io::Hdf5File file(path.string(), io::Hdf5File::Mode::create_truncate);
    for (const auto& column : table.columns) {
      const std::string at = "/lineitem/" + column.name;
      if (column.type == ColumnType::date) file.write(at, std::get<std::vector<std::int32_t>>(column.values));
      if (column.type == ColumnType::decimal) {
        file.write(at, std::get<std::vector<std::int64_t>>(column.values));
        file.write_int_attribute(at, "scale", column.scale);
      }
    }
  }
  std::string names;
  for (const auto& column : table.columns) {
    names += (names.empty() ? "" : ",") + column.name;
    put_utf8_attribute(path, "/lineitem/" + column.name, "kind", column.type == ColumnType::date ? "date" : "decimal",
                       storage);
  }
  put_utf8_attribute(path, "/lineitem", "columns", names, storage);
}

class Utf8Attributes : public ::testing::TestWithParam<Storage> {};

TEST_P(Utf8Attributes, Q6OnAnH5pyFileEqualsQ6InMemory) {
  const auto path = testing::temporary_h5("utf8_q6");
  const ColumnTable table = generate_lineitem(0.002, 5);
  write_h5py_like(path, table, GetParam());
  const ColumnTable back = read_column_table({path, "/lineitem"});
  ASSERT_EQ(back.names(), table.names());
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    EXPECT_EQ(back.columns[c].type, table.columns[c].type) << table.columns[c].name;
    EXPECT_EQ(back.columns[c].scale, table.columns[c].scale) << table.columns[c].name;
  }
  const FilterResult expected = testing::run_q6(table), got = testing::run_q6(back);
  ASSERT_GT(expected.selected, 0u);
  EXPECT_EQ(got.ids, expected.ids);
  ASSERT_TRUE(got.aggregate && expected.aggregate);
  EXPECT_EQ(got.aggregate->scale, 4);
  EXPECT_EQ(got.aggregate->text(), expected.aggregate->text());
  std::filesystem::remove(path);
}

TEST_P(Utf8Attributes, ColumnsAttributeGivesTheOrder) {
  const auto path = testing::temporary_h5("utf8_columns");
  {
    io::Hdf5File file(path.string(), io::Hdf5File::Mode::create_truncate);
    file.write("/t/a", std::vector<std::int32_t>{1, 2});
    file.write("/t/b", std::vector<std::int32_t>{3, 4});
  }
  put_utf8_attribute(path, "/t", "columns", "b,a", GetParam());
  EXPECT_EQ(column_names({path, "/t"}), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(read_column_table({path, "/t"}).names(), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(io::Hdf5File(path.string(), io::Hdf5File::Mode::read).read_string_attribute("/t", "columns"), "b,a");
  std::filesystem::remove(path);
}

TEST_P(Utf8Attributes, DateColumnTakesDateBounds) {
  const auto path = testing::temporary_h5("utf8_date");
  const std::vector<std::int32_t> days{days_from_civil(1993, 12, 31), days_from_civil(1994, 1, 1),
                                       days_from_civil(1994, 6, 1), days_from_civil(1995, 1, 1)};
  {
    io::Hdf5File file(path.string(), io::Hdf5File::Mode::create_truncate);
    file.write("/t/d", days);
  }
  put_utf8_attribute(path, "/t/d", "kind", "date", GetParam());
  const ColumnTable table = read_column_table({path, "/t"});
  EXPECT_EQ(table.find("d")->type, ColumnType::date);
  EXPECT_EQ(testing::select(table, "{column: d, ge: 1994-01-01, lt: 1995-01-01}"), (std::vector<std::uint64_t>{1, 2}));
  std::filesystem::remove(path);
}

INSTANTIATE_TEST_SUITE_P(Storage, Utf8Attributes, ::testing::Values(Storage::variable, Storage::fixed),
                         [](const auto& info) { return info.param == Storage::variable ? "variable" : "fixed"; });

// A `kind` that is not text (here an integer) is refused by name instead of being ignored, which
// would read a date or decimal column as plain integers.
TEST(Utf8Strings, KindThatIsNotTextIsRefused) {
  const auto path = testing::temporary_h5("kind_not_text");
  {
    io::Hdf5File file(path.string(), io::Hdf5File::Mode::create_truncate);
    file.write("/t/d", std::vector<std::int32_t>{1, 2});
    file.write_int_attribute("/t/d", "kind", 1);
  }
  try {
    read_column_table({path, "/t"});
    ADD_FAILURE() << "read without an error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("the attribute 'kind' is not a single string"), std::string::npos)
        << error.what();
  }
  std::filesystem::remove(path);
}

TEST(Utf8Strings, FixedLengthUtf8ColumnReads) {
  const auto path = testing::temporary_h5("utf8_fixed_column");
  {
    io::Hdf5File file(path.string(), io::Hdf5File::Mode::create_truncate);
    file.write("/t/n", std::vector<std::int32_t>{1, 2});
  }
  const hid_t type = utf8_type(Storage::fixed, 6);
  const char texts[] = "\xc3\xa9t\xc3\xa9\0ab\0\0\0\0";
  testing::write_string_dataset(path, "/t/s", type, 2, texts);
  H5Tclose(type);
  const ColumnTable table = read_column_table({path, "/t"});
  EXPECT_EQ(testing::select(table, "{column: s, regex: '^\xc3\xa9t'}"), (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(testing::select(table, "{column: s, equals: ab}"), (std::vector<std::uint64_t>{1}));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace subscale::filter
