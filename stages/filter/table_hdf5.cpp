#include "stages/filter/table_hdf5.hpp"

#include <hdf5.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <utility>

#include "common/error.hpp"
#include "io/data_validation.hpp"
#include "io/hdf5_child_read.hpp"
#include "io/hdf5_file.hpp"
#include "io/hdf5_string_attribute.hpp"
#include "io/host_memory.hpp"

namespace subscale::filter {
namespace {

using io::Hdf5Handle;

std::string member_path(const std::string& group, const std::string& name) {
  return group.empty() || group.back() == '/' ? group + name : group + "/" + name;
}

herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* out) {
  static_cast<std::vector<std::string>*>(out)->emplace_back(name);
  return 0;
}

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> names;
  std::stringstream stream(text);
  for (std::string name; std::getline(stream, name, ',');)
    if (!name.empty()) names.push_back(name);
  return names;
}

class TableFile {
 public:
  explicit TableFile(const TableSource& source) : source_(source) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    if (!std::filesystem::exists(source.path))
      throw InputError(source.path.string() + ": no such file (" + source.path_setting + ")");
    io::check_input_file(source.path.string(), "HDF5 table");
    file_ = Hdf5Handle(H5Fopen(source.path.string().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file_.valid()) throw InputError(source.path.string() + ": not a readable HDF5 file");
    group_ = Hdf5Handle(H5Gopen2(file_.get(), source.group.c_str(), H5P_DEFAULT), H5Gclose);
    if (!group_.valid()) throw InputError(where() + ": no such group (set the table's group to where the columns are)");
  }

  std::string where() const { return source_.path.string() + ":" + source_.group; }
  std::string where(const std::string& name) const {
    return source_.path.string() + ":" + member_path(source_.group, name);
  }

  std::vector<std::string> names() const {
    std::vector<std::string> names;
    if (H5Aexists(group_.get(), "columns") > 0) {
      io::Hdf5File file(source_.path.string(), io::Hdf5File::Mode::read);
      names = split_names(file.read_string_attribute(source_.group, "columns"));
      // A writer names every column it writes; an attribute that names none is damaged (libhdf5
      // fills the text of some damaged attributes from its own heap, which may begin with a NUL).
      if (names.empty())
        throw InputError(where() + ": the attribute 'columns' names no column; write the column names separated " +
                         "by commas, or delete the attribute to read every dataset of the group");
      for (const auto& name : names)
        if (H5Lexists(group_.get(), name.c_str(), H5P_DEFAULT) <= 0)
          throw InputError(where() + ": the attribute 'columns' names '" + name + "', which the group lacks");
      return names;
    }
    H5Literate(group_.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_name, &names);
    return names;
  }

  Column read(const std::string& name) const {
    Column column;
    column.name = name;
    H5O_info_t info;
    if (H5Oget_info_by_name2(group_.get(), name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0)
      throw InputError(where(name) + ": cannot open the column");
    if (info.type == H5O_TYPE_GROUP) {
      column.type = ColumnType::string;
      column.values = read_offsets_and_bytes(name);
      return column;
    }
    if (info.type != H5O_TYPE_DATASET) throw InputError(where(name) + ": neither a dataset nor a group of strings");
    Hdf5Handle dataset = io::open_hdf5_dataset(group_.get(), name);
    if (!dataset.valid()) throw InputError(where(name) + ": cannot open the column");
    io::check_hdf5_data_files(dataset.get(), where(name));
    Hdf5Handle type(H5Dget_type(dataset.get()), H5Tclose);
    Hdf5Handle space(H5Dget_space(dataset.get()), H5Sclose);
    if (H5Sget_simple_extent_ndims(space.get()) != 1) throw InputError(where(name) + ": a column is a 1-D dataset");
    hsize_t rows = 0;
    H5Sget_simple_extent_dims(space.get(), &rows, nullptr);
    const H5T_class_t type_class = H5Tget_class(type.get());
    if (type_class == H5T_STRING) {
      column.type = ColumnType::string;
      column.values = read_hdf5_strings(dataset.get(), type.get(), rows, name);
      return column;
    }
    const std::size_t size = H5Tget_size(type.get());
    // A damaged type (a 4 GiB integer) would make HDF5 convert through buffers of that size.
    const bool known_size =
        type_class == H5T_FLOAT ? size == 4 || size == 8 : size == 1 || size == 2 || size == 4 || size == 8;
    if ((type_class == H5T_FLOAT || type_class == H5T_INTEGER) && !known_size)
      throw InputError(where(name) + ": " + std::to_string(size) +
                       "-byte numbers are not a column type (floats of 4 or 8 bytes, integers of 1 to 8)");
    if (type_class == H5T_FLOAT) {
      if (size == 4) {
        column.type = ColumnType::float32;
        column.values = read_numbers<float>(dataset.get(), H5T_NATIVE_FLOAT, rows, name);
      } else {
        column.type = ColumnType::float64;
        column.values = read_numbers<double>(dataset.get(), H5T_NATIVE_DOUBLE, rows, name);
      }
    } else if (type_class == H5T_INTEGER) {
      const bool is_signed = H5Tget_sign(type.get()) == H5T_SGN_2;
      if (size < 4 || (size == 4 && is_signed)) {
        column.type = ColumnType::int32;
        column.values = read_numbers<std::int32_t>(dataset.get(), H5T_NATIVE_INT32, rows, name);
      } else if (size == 8 && !is_signed) {
        throw InputError(where(name) + ": unsigned 64-bit integers are not a column type (store int64)");
      } else {
        column.type = ColumnType::int64;
        column.values = read_numbers<std::int64_t>(dataset.get(), H5T_NATIVE_INT64, rows, name);
      }
    } else {
      throw InputError(where(name) + ": unsupported element type (numbers or strings)");
    }
    apply_kind(dataset.get(), column);
    return column;
  }

 private:
  template <class T>
  std::vector<T> read_numbers(hid_t dataset, hid_t memory_type, hsize_t rows, const std::string& name) const {
    io::check_host_allocation(io::checked_bytes({rows}, sizeof(T)), where(name));
    std::vector<T> values(rows);
    if (rows > 0 && H5Dread(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
      throw InputError(where(name) + ": cannot read the column");
    return values;
  }

  void apply_kind(hid_t dataset, Column& column) const {
    if (H5Aexists(dataset, "kind") <= 0) return;
    const auto stored = io::read_hdf5_string_attribute(dataset, "kind");
    if (!stored)
      throw InputError(where(column.name) +
                       ": the attribute 'kind' is not a single string; write it as text: date, decimal or number");
    const std::string& kind = *stored;
    if (kind == "date") {
      if (column.type != ColumnType::int32)
        throw InputError(where(column.name) + ": a date column stores int32 days, not " + to_string(column.type));
      column.type = ColumnType::date;
    } else if (kind == "decimal") {
      if (column.type != ColumnType::int64 && column.type != ColumnType::int32)
        throw InputError(where(column.name) + ": a decimal column stores scaled integers, not " +
                         to_string(column.type));
      if (column.type == ColumnType::int32) {
        const auto& narrow = std::get<std::vector<std::int32_t>>(column.values);
        column.values = std::vector<std::int64_t>(narrow.begin(), narrow.end());
      }
      column.type = ColumnType::decimal;
      std::int64_t scale = 0;
      if (H5Aexists(dataset, "scale") <= 0)
        throw InputError(where(column.name) + ": a decimal column needs the integer attribute 'scale'");
      Hdf5Handle attribute(H5Aopen(dataset, "scale", H5P_DEFAULT), H5Aclose);
      if (!io::hdf5_attribute_is_single(attribute.get()) || H5Aread(attribute.get(), H5T_NATIVE_INT64, &scale) < 0)
        throw InputError(where(column.name) + ": the attribute 'scale' is not an integer");
      if (scale < 0 || scale > 18)
        throw InputError(where(column.name) + ": decimal scale " + std::to_string(scale) + " is outside 0..18");
      column.scale = static_cast<int>(scale);
    } else if (!kind.empty() && kind != "number") {
      throw InputError(where(column.name) + ": unknown column kind '" + kind + "' (date or decimal)");
    }
  }

  StringColumn read_offsets_and_bytes(const std::string& name) const {
    const std::string path = member_path(source_.group, name);
    io::Hdf5File file(source_.path.string(), io::Hdf5File::Mode::read);
    for (const char* part : {"offsets", "bytes"})
      if (!file.exists(path + "/" + part))
        throw InputError(where(name) + ": a string column group needs the datasets 'offsets' and 'bytes'; '" + part +
                         "' is missing");
    const auto offsets_info = file.info(path + "/offsets");
    const auto bytes_info = file.info(path + "/bytes");
    if (offsets_info.shape.size() != 1 || bytes_info.shape.size() != 1)
      throw InputError(where(name) + ": 'offsets' and 'bytes' are 1-D datasets");
    if (offsets_info.element_class != io::ElementClass::signed_integer &&
        offsets_info.element_class != io::ElementClass::unsigned_integer)
      throw InputError(where(name) + "/offsets: offsets are integers");
    StringColumn column;
    column.offsets = file.read<std::int64_t>(path + "/offsets").data;
    column.bytes = file.read<std::uint8_t>(path + "/bytes").data;
    validate_string_column(column, where(name));
    return column;
  }

  StringColumn read_hdf5_strings(hid_t dataset, hid_t file_type, hsize_t rows, const std::string& name) const {
    StringColumn column;
    const std::size_t width = H5Tget_size(file_type);
    io::check_host_allocation(io::checked_bytes({rows}, std::max<std::size_t>(width, sizeof(char*)) + 8), where(name));
    column.offsets.reserve(rows + 1);
    if (H5Tis_variable_str(file_type) > 0) {
      std::vector<char*> texts(rows, nullptr);
      Hdf5Handle memory_type(io::hdf5_string_memory_type(file_type), H5Tclose);
      if (rows > 0 && H5Dread(dataset, memory_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data()) < 0)
        throw InputError(where(name) + ": cannot read the variable-length strings");
      for (char* text : texts) column.push_back(text ? std::string_view(text) : std::string_view());
      Hdf5Handle space(H5Dget_space(dataset), H5Sclose);
      if (rows > 0) H5Dvlen_reclaim(memory_type.get(), space.get(), H5P_DEFAULT, texts.data());
      return column;
    }
    std::vector<char> block(rows * width);
    Hdf5Handle memory_type(io::hdf5_string_memory_type(file_type), H5Tclose);
    if (rows > 0 && H5Dread(dataset, memory_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, block.data()) < 0)
      throw InputError(where(name) + ": cannot read the fixed-length strings");
    for (hsize_t i = 0; i < rows; ++i) {
      std::string_view text(block.data() + i * width, width);
      column.push_back(text.substr(0, std::min(text.size(), text.find('\0'))));
    }
    return column;
  }

  TableSource source_;
  Hdf5Handle file_;
  Hdf5Handle group_;
};

std::vector<std::string> column_names_here(const TableSource& source) { return TableFile(source).names(); }

// Reads the wanted columns in the table's order, handing each to `take` as soon as it is read.
void read_wanted_columns(const TableSource& source, const std::vector<std::string>& wanted,
                         const std::function<void(std::size_t count, Column&& column)>& take) {
  const TableFile file(source);
  const std::vector<std::string> names = file.names();
  for (const auto& name : wanted)
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw UsageError("column '" + name + "' is not in " + file.where() + " (its columns: " + list + ")");
    }
  std::vector<std::string> chosen;
  for (const auto& name : names)
    if (wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end()) chosen.push_back(name);
  for (const auto& name : chosen) take(chosen.size(), file.read(name));
}

std::string table_where(const TableSource& source) { return source.path.string() + ":" + source.group; }

void send_names(io::ChildStreamWriter& out, const std::vector<std::string>& names) {
  out.put<std::uint64_t>(names.size());
  for (const auto& name : names) out.put_string(name);
}

std::vector<std::string> receive_names(io::ChildStreamReader& in) {
  std::vector<std::string> names;
  const auto count = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < count; ++i) names.push_back(in.get_string());
  return names;
}

void send_column(io::ChildStreamWriter& out, const Column& column) {
  out.put_string(column.name);
  out.put(static_cast<std::int32_t>(column.type));
  out.put(static_cast<std::int32_t>(column.scale));
  out.put(static_cast<std::uint32_t>(column.values.index()));
  std::visit(
      [&](const auto& values) {
        if constexpr (std::is_same_v<std::decay_t<decltype(values)>, StringColumn>) {
          out.put_vector(values.offsets);
          out.put_vector(values.bytes);
        } else {
          out.put_vector(values);
        }
      },
      column.values);
}

// The values of a column, as the variant alternative `index` the child sent.
ColumnValues receive_values(io::ChildStreamReader& in, std::uint32_t index) {
  switch (index) {
    case 0:
      return in.get_vector<std::int32_t>();
    case 1:
      return in.get_vector<std::int64_t>();
    case 2:
      return in.get_vector<float>();
    case 3:
      return in.get_vector<double>();
    case 4: {
      StringColumn strings;
      strings.offsets = in.get_vector<std::int64_t>();
      strings.bytes = in.get_vector<std::uint8_t>();
      return strings;
    }
  }
  throw InputError("the process reading the table sent an unknown column layout; the file is damaged");
}

ColumnTable receive_table(io::ChildStreamReader& in) {
  ColumnTable table;
  const auto columns = in.get<std::uint64_t>();
  for (std::uint64_t c = 0; c < columns; ++c) {
    Column column;
    column.name = in.get_string();
    column.type = static_cast<ColumnType>(in.get<std::int32_t>());
    column.scale = in.get<std::int32_t>();
    column.values = receive_values(in, in.get<std::uint32_t>());
    table.columns.push_back(std::move(column));
  }
  return table;
}

}  // namespace

std::vector<std::string> column_names(const TableSource& source) {
  return io::read_hdf5_in_child<std::vector<std::string>>(
      source.path.string(), [&] { return column_names_here(source); }, send_names, receive_names);
}

ColumnTable read_column_table(const TableSource& source, const std::vector<std::string>& wanted) {
  ColumnTable table;
  if (!io::hdf5_reads_in_child()) {
    read_wanted_columns(source, wanted,
                        [&](std::size_t, Column&& column) { table.columns.push_back(std::move(column)); });
  } else {
    // The child sends each column as soon as it is read and drops it: it never holds the table.
    io::read_in_child(
        source.path.string(),
        [&](io::ChildStreamWriter& out) {
          bool first = true;
          read_wanted_columns(source, wanted, [&](std::size_t count, Column&& column) {
            if (std::exchange(first, false)) out.put<std::uint64_t>(count);
            send_column(out, column);
          });
          if (first) out.put<std::uint64_t>(0);
        },
        [&](io::ChildStreamReader& in) { table = receive_table(in); });
  }
  validate_table(table, table_where(source));
  return table;
}

void write_column_table(const std::filesystem::path& file_path, const std::string& group, const ColumnTable& table,
                        bool truncate) {
  io::Hdf5File file(file_path.string(),
                    truncate ? io::Hdf5File::Mode::create_truncate : io::Hdf5File::Mode::read_write);
  if (!file.exists(group)) file.create_group(group);
  std::string names;
  for (const auto& column : table.columns) {
    names += (names.empty() ? "" : ",") + column.name;
    const std::string path = member_path(group, column.name);
    std::visit(
        [&](const auto& values) {
          using V = std::decay_t<decltype(values)>;
          if constexpr (std::is_same_v<V, StringColumn>) {
            file.write(path + "/offsets", values.offsets);
            file.write(path + "/bytes", values.bytes);
          } else {
            file.write(path, values);
          }
        },
        column.values);
    if (column.type == ColumnType::date) file.write_string_attribute(path, "kind", "date");
    if (column.type == ColumnType::decimal) {
      file.write_string_attribute(path, "kind", "decimal");
      file.write_int_attribute(path, "scale", column.scale);
    }
  }
  file.write_string_attribute(group, "columns", names);
  file.close();  // a failed flush (a full disk) is an error naming the file, not a silent loss
}

}  // namespace subscale::filter
