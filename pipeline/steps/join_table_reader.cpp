#include "pipeline/steps/join_table_reader.hpp"

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
  if (info.element_class != io::ElementClass::signed_integer)
    throw InputError(where + ": the keys must be integers (floating-point keys do not compare exactly)");
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
  table.keys = read_keys(file, source);
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
  out.put_vector(table.keys);
  out.put<std::uint64_t>(table.names.size());
  for (const auto& name : table.names) out.put_string(name);
  out.put<std::uint64_t>(table.columns.size());
  for (const auto& column : table.columns) out.put_vector(column);
}

join::ColumnTable receive_table(io::ChildStreamReader& in, const std::string& where) {
  join::ColumnTable table;
  table.keys = in.get_vector<std::uint64_t>();
  const auto names = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < names; ++i) table.names.push_back(in.get_string());
  const auto columns = in.get<std::uint64_t>();
  for (std::uint64_t c = 0; c < columns; ++c) table.columns.push_back(in.get_vector<double>());
  join::validate_table(table, where);  // the child checked it; a child the library damaged may not have
  return table;
}

}  // namespace

join::ColumnTable read_join_table(const JoinTableSource& source) {
  return io::read_hdf5_in_child<join::ColumnTable>(
      source.path.string(), [&] { return read_join_table_here(source); }, send_table,
      [&](io::ChildStreamReader& in) { return receive_table(in, source.path.string()); });
}

}  // namespace subscale::pipeline
