// Writes the small valid HDF5 files that seed the HDF5 fuzz targets:
//   fuzz_write_seeds fuzz/corpus
// Each is a few kilobytes, so that most mutations land in metadata and data alike.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "io/hdf5_file.hpp"
#include "stages/filter/table_hdf5.hpp"

namespace {

using subscale::io::Hdf5File;

void write_matrix_seeds(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  const std::vector<double> values = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2};
  {
    Hdf5File file((folder / "float64_ids_labels.h5").string(), Hdf5File::Mode::create_truncate);
    file.write("/data", {4, 3}, values.data());
    file.write("/ids", std::vector<std::uint64_t>{10, 11, 12, 13});
    file.write("/labels", std::vector<std::int64_t>{0, 0, 1, -1});
  }
  {
    Hdf5File file((folder / "float32_gzip.h5").string(), Hdf5File::Mode::create_truncate);
    const std::vector<float> narrow(values.begin(), values.end());
    file.write("/data", {6, 2}, narrow.data(), 4);
  }
  {
    Hdf5File file((folder / "int32_group.h5").string(), Hdf5File::Mode::create_truncate);
    const std::vector<std::int32_t> counts = {1, 2, 3, 4, 5, 6};
    file.write("/data", {3, 2}, counts.data());
  }
}

void write_join_seeds(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  {
    Hdf5File file((folder / "ids_columns.h5").string(), Hdf5File::Mode::create_truncate);
    file.write("/ids", std::vector<std::int64_t>{3, 1, 2});
    const std::vector<double> columns = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
    file.write("/data", {3, 2}, columns.data());
  }
  {
    Hdf5File file((folder / "unsigned_ids_one_column.h5").string(), Hdf5File::Mode::create_truncate);
    file.write("/ids", std::vector<std::uint64_t>{7, 8});
    file.write("/data", std::vector<double>{0.25, 0.75}, 4);
  }
}

void write_filter_seeds(const std::filesystem::path& folder) {
  using namespace subscale::filter;
  std::filesystem::create_directories(folder);
  StringColumn names;
  names.push_back("PROMO BRASS");
  names.push_back("STANDARD");
  names.push_back("");
  ColumnTable table;
  table.columns.push_back({"quantity", ColumnType::int32, 0, std::vector<std::int32_t>{5, 24, 30}});
  table.columns.push_back({"price", ColumnType::float64, 0, std::vector<double>{1.5, 2.25, 3.0}});
  table.columns.push_back({"discount", ColumnType::decimal, 2, std::vector<std::int64_t>{5, 6, 7}});
  table.columns.push_back({"shipdate", ColumnType::date, 0, std::vector<std::int32_t>{8766, 9131, 9200}});
  table.columns.push_back({"type", ColumnType::string, 0, names});
  write_column_table(folder / "mixed_columns.h5", "/table", table, true);
  ColumnTable small;
  small.columns.push_back({"x", ColumnType::float32, 0, std::vector<float>{0.5f, 1.5f}});
  small.columns.push_back({"id", ColumnType::int64, 0, std::vector<std::int64_t>{1, 2}});
  write_column_table(folder / "two_columns.h5", "/table", small, true);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_write_seeds CORPUS_FOLDER (e.g. fuzz/corpus)\n");
    return 2;
  }
  const std::filesystem::path corpus = argv[1];
  write_matrix_seeds(corpus / "fuzz_hdf5_dataset");
  write_join_seeds(corpus / "fuzz_join_table");
  write_filter_seeds(corpus / "fuzz_filter_table");
  return 0;
}
