#include "pipeline/steps/join_table_reader.hpp"

#include <optional>
#include <tuple>

#include "common/error.hpp"
#include "io/data_validation.hpp"
#include "io/hdf5_child_read.hpp"
#include "io/hdf5_file.hpp"

namespace subscale::pipeline {
namespace {

io::DatasetInfo info_of(const io::Hdf5File& file, const std::string& dataset, const std::string& setting) {
  if (!file.exists(dataset))
    throw InputError(file.path() + ": no dataset '" + dataset + "' (" + setting + "); set " + setting +
                     " to the HDF5 path that holds it");
  return file.info(dataset);
}

std::vector<std::uint64_t> read_keys(const io::Hdf5File& file, const JoinTableSource& source) {
  const io::DatasetInfo info = info_of(file, source.key_dataset, source.key_setting);
  const std::string where = file.path() + ":" + source.key_dataset;
  if (info.shape.size() != 1)
    throw InputError(where + ": the keys must be a 1-D dataset, it has " + std::to_string(info.shape.size()) +
                     " dimensions");
  if (info.element_class == io::ElementClass::unsigned_integer)
    return file.read<std::uint64_t>(source.key_dataset).data;
  if (info.strings)
    throw InputError(where + ": the keys are strings, and the join compares integer keys; store the keys as an " +
                     "integer dataset (for example, number the distinct strings) and set " + source.key_setting +
                     " to it");
  if (info.element_class != io::ElementClass::signed_integer)
    throw InputError(where + ": the keys must be integers (floating-point keys do not compare exactly); store " +
                     "them as an integer dataset and set " + source.key_setting + " to it");
  const auto values = file.read<std::int64_t>(source.key_dataset).data;
  if (source.for_clustering)
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i] < 0)
        throw InputError(where + ", row " + std::to_string(i + 1) + " (index " + std::to_string(i) + "): id " +
                         std::to_string(values[i]) + " is negative; ids are non-negative, like the input's");
  // Signed keys keep their bit patterns: equal values stay equal, which is all a join needs.
  return std::vector<std::uint64_t>(values.begin(), values.end());
}

join::ColumnTable read_join_table_here(const JoinTableSource& source) {
  if (!std::filesystem::exists(source.path))
    throw InputError(source.path.string() + ": file not found (" + source.path_setting +
                     "); give the HDF5 table to join, or remove " + source.path_setting);
  const io::Hdf5File file(source.path.string(), io::Hdf5File::Mode::read);
  join::ColumnTable table;
  table.keys = read_keys(file, source);  // refuses a missing dataset, naming the setting
  table.signed_keys = file.info(source.key_dataset).element_class == io::ElementClass::signed_integer;
  if (source.data_dataset.empty()) return table;
  const io::DatasetInfo data = info_of(file, source.data_dataset, source.data_setting);
  const std::string where = file.path() + ":" + source.data_dataset;
  if (data.shape.empty() || data.shape.size() > 2 || data.element_class == io::ElementClass::other)
    throw InputError(where + ": the columns must be a numeric 1-D or 2-D (rows, columns) dataset");
  if (data.shape[0] != table.rows())
    throw InputError(where + ": " + std::to_string(data.shape[0]) + " rows, but " + source.key_dataset + " has " +
                     std::to_string(table.rows()) + " keys; the table needs one key per row");
  const std::size_t columns = data.shape.size() == 2 ? static_cast<std::size_t>(data.shape[1]) : 1;
  if (columns == 0 && source.for_clustering) throw InputError(where + ": no columns to attach");
  const auto values = file.read<double>(source.data_dataset).data;  // row-major
  table.columns.assign(columns, std::vector<double>(table.rows()));
  for (std::size_t i = 0; i < table.rows(); ++i)
    for (std::size_t c = 0; c < columns; ++c) {
      const double value = values[i * columns + c];
      if (source.for_clustering)
        io::check_finite(value, file.path(), {io::CellLocation::RowKind::row, i + 1, c + 1, {}, source.data_dataset});
      table.columns[c][i] = value;
    }
  for (std::size_t c = 0; c < columns; ++c) table.names.push_back(source.column_prefix + std::to_string(c));
  return table;
}

void send_table(io::ChildStreamWriter& out, const join::ColumnTable& table) {
  out.put<std::uint8_t>(table.signed_keys);
  out.put_vector(table.keys);
  out.put<std::uint64_t>(table.names.size());
  for (const auto& name : table.names) out.put_string(name);
  out.put<std::uint64_t>(table.columns.size());
  for (const auto& column : table.columns) out.put_vector(column);
}

join::ColumnTable receive_table(io::ChildStreamReader& in, const std::string& where) {
  join::ColumnTable table;
  table.signed_keys = in.get<std::uint8_t>() != 0;
  table.keys = in.get_vector<std::uint64_t>();
  const auto names = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < names; ++i) table.names.push_back(in.get_string());
  const auto columns = in.get<std::uint64_t>();
  for (std::uint64_t c = 0; c < columns; ++c) table.columns.push_back(in.get_vector<double>());
  join::validate_table(table, where);  // the child checked it; a child the library damaged may not have
  return table;
}

// The first key of `table` outside 0..2^63 - 1, the range both signednesses hold with one meaning.
std::optional<std::size_t> first_key_outside_both(const join::ColumnTable& table) {
  constexpr std::uint64_t sign_bit = std::uint64_t{1} << 63;
  for (std::size_t i = 0; i < table.keys.size(); ++i)
    if (table.keys[i] & sign_bit) return i;
  return std::nullopt;
}

std::string key_text(const join::ColumnTable& table, std::size_t row) {
  return table.signed_keys ? std::to_string(static_cast<std::int64_t>(table.keys[row]))
                           : std::to_string(table.keys[row]);
}

}  // namespace

void check_comparable_keys(const join::ColumnTable& r, const std::string& r_key, const join::ColumnTable& s,
                           const std::string& s_key) {
  if (r.signed_keys == s.signed_keys) return;
  for (const auto& [table, key, other] : {std::tuple{&r, &r_key, &s_key}, std::tuple{&s, &s_key, &r_key}}) {
    const std::optional<std::size_t> row = first_key_outside_both(*table);
    if (!row) continue;
    const char* type = table->signed_keys ? "signed" : "unsigned";
    const char* other_type = table->signed_keys ? "unsigned" : "signed";
    throw InputError(*key + " holds " + type + " integer keys and " + *other + " " + other_type + " ones; row " +
                     std::to_string(*row + 1) + " (index " + std::to_string(*row) + ") of " + *key + " is " +
                     key_text(*table, *row) + ", which a " + other_type +
                     " 64-bit key can equal (compared by bit pattern it would match " +
                     (table->signed_keys ? std::to_string(table->keys[*row])
                                         : std::to_string(static_cast<std::int64_t>(table->keys[*row]))) +
                     "); store both keys with the same signedness (int64 or uint64)");
  }
}

join::ColumnTable read_join_table(const JoinTableSource& source) {
  return io::read_hdf5_in_child<join::ColumnTable>(
      source.path.string(), [&] { return read_join_table_here(source); }, send_table,
      [&](io::ChildStreamReader& in) { return receive_table(in, source.path.string()); });
}

}  // namespace subscale::pipeline
