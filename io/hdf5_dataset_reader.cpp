#include "io/hdf5_dataset_reader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>

#include "common/error.hpp"
#include "io/data_validation.hpp"
#include "io/hdf5_child_read.hpp"
#include "io/hdf5_file.hpp"
#include "io/host_memory.hpp"

namespace subscale::io {
namespace {

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

// Every dataset in the file with its shape, to suggest a path when the configured one is wrong.
std::string list_datasets(const std::string& path) {
  struct Listing {
    std::vector<std::string> entries;
  } listing;
  Hdf5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) return {};
  const auto visit = [](hid_t group, const char* name, const H5L_info_t*, void* data) -> herr_t {
    auto& out = *static_cast<Listing*>(data);
    Hdf5Handle object(H5Oopen(group, name, H5P_DEFAULT), H5Oclose);
    if (!object.valid() || H5Iget_type(object.get()) != H5I_DATASET) return 0;
    Hdf5Handle space(H5Dget_space(object.get()), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
    if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "literal" + string&&.
    std::string entry = "/";
    entry += name;
    entry += ' ';
    entry += shape_text({dims.begin(), dims.end()});
    out.entries.push_back(std::move(entry));
    return out.entries.size() >= 20 ? 1 : 0;  // enough for a message
  };
  H5Lvisit(file.get(), H5_INDEX_NAME, H5_ITER_INC, visit, &listing);
  std::string text;
  for (const auto& entry : listing.entries) {
    if (!text.empty()) text += ", ";
    text += entry;
  }
  return text;
}

// Rows per read: whole chunks (a partial chunk would be decompressed once per read) and about
// 8 MiB of doubles, so the temporary buffer stays small next to the matrix.
std::uint64_t rows_per_block(hid_t dataset, std::uint64_t points, std::uint64_t dimensions) {
  std::uint64_t chunk_rows = 1;
  Hdf5Handle properties(H5Dget_create_plist(dataset), H5Pclose);
  if (properties.valid() && H5Pget_layout(properties.get()) == H5D_CHUNKED) {
    hsize_t chunk[2] = {1, 1};
    if (H5Pget_chunk(properties.get(), 2, chunk) == 2) chunk_rows = std::max<hsize_t>(chunk[0], 1);
  }
  const std::uint64_t target = std::max<std::uint64_t>(1, (std::uint64_t{1} << 20) / dimensions);
  const std::uint64_t rows = std::max<std::uint64_t>(1, target / chunk_rows) * chunk_rows;
  return std::min(rows, points);
}

// Reads ids or labels (1-D, one integer per point) when the file has them.
template <class T>
std::vector<T> read_point_column(const Hdf5File& file, const std::string& path, std::uint64_t points) {
  if (!file.exists(path)) return {};
  const DatasetInfo info = file.info(path);
  const std::string where = file.path() + ", dataset " + path + ": ";
  if (info.shape.size() != 1 || info.shape[0] != points)
    throw InputError(where + "has shape " + shape_text(info.shape) + " but must be 1-D with one entry per point (" +
                     std::to_string(points) + "); fix it or remove it");
  if (info.element_class != ElementClass::signed_integer && info.element_class != ElementClass::unsigned_integer)
    throw InputError(where + "must hold integers (" + (std::is_signed_v<T> ? "int64" : "uint64") +
                     "); store it with an integer type or remove it");
  if constexpr (std::is_unsigned_v<T>) {
    if (info.element_class == ElementClass::signed_integer) {
      // HDF5 would clamp negative ids to 0 silently; find them first.
      const auto signed_values = file.read<std::int64_t>(path).data;
      for (std::size_t i = 0; i < signed_values.size(); ++i)
        if (signed_values[i] < 0)
          throw InputError(where + "row " + std::to_string(i + 1) + " (index " + std::to_string(i) +
                           ") holds the negative id " + std::to_string(signed_values[i]) +
                           "; ids must be non-negative");
      return {signed_values.begin(), signed_values.end()};
    }
  }
  return file.read<T>(path).data;
}

// What reading produces, in order: the shape (once, after every check of the file), blocks of
// rows in row-major order, then the optional ids and labels (empty when absent).
struct Hdf5DatasetSink {
  std::function<void(std::uint64_t points, std::uint64_t dimensions)> shape;
  std::function<void(std::uint64_t first, std::uint64_t rows, const double* block)> rows;
  std::function<void(std::vector<std::uint64_t> ids, std::vector<std::int64_t> labels)> point_columns;
};

// Opens and checks the file, then reads the matrix in blocks of whole chunks; the sink decides
// where the rows go (the matrix in this process, or the pipe to the parent).
void stream_hdf5_dataset(const std::string& path, const Hdf5ReadOptions& options, const Hdf5DatasetSink& sink) {
  if (std::filesystem::is_directory(path))
    throw InputError(path + ": is a folder, not a file; give the HDF5 file itself");
  const Hdf5File file(path, Hdf5File::Mode::read);  // refuses a missing file or a non-HDF5 file
  const std::string& dataset_path = options.dataset_path;
  if (!file.exists(dataset_path)) {
    const std::string available = list_datasets(path);
    throw InputError(path + ": there is no dataset at '" + dataset_path +
                     "'; set the dataset path (input.dataset) to " +
                     (available.empty() ? "the 2-D data (the file holds no datasets)"
                                        : "one of the datasets in the file: " + available));
  }
  const DatasetInfo info = file.info(dataset_path);
  const std::string where = path + ", dataset " + dataset_path + ": ";
  if (info.shape.size() != 2)
    throw InputError(where + "is " + std::to_string(info.shape.size()) + "-D with shape " + shape_text(info.shape) +
                     " but must be 2-D, (points, dimensions); reshape it, or set the dataset path to the 2-D data");
  if (info.strings)
    throw InputError(where + "holds strings and does not hold numbers; store the values as float32 or float64");
  if (info.element_class == ElementClass::other)
    throw InputError(where + "does not hold numbers of a supported type (it holds " +
                     std::to_string(info.element_bytes) +
                     "-byte elements that are not float32, float64 or 8- to 64-bit integers: strings, compound " +
                     "records, or a damaged file); store float32 or float64 values");
  const std::uint64_t points = info.shape[0];
  const std::uint64_t dimensions = info.shape[1];
  check_shape(path, points, dimensions, "dataset " + dataset_path + " of shape " + shape_text(info.shape));
  // Refused before the matrix is allocated: the kernel would kill the process part-way instead.
  check_host_allocation(checked_bytes({points, dimensions}, sizeof(double)),
                        path + ", dataset " + dataset_path + " of shape " + shape_text(info.shape) + " as float64");
  sink.shape(points, dimensions);

  Hdf5Handle handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  Hdf5Handle data = handle.valid() ? open_hdf5_dataset(handle.get(), dataset_path) : Hdf5Handle();
  if (!data.valid()) throw InputError(where + "cannot be opened; the file may be damaged");
  Hdf5Handle file_space(H5Dget_space(data.get()), H5Sclose);
  const std::uint64_t block_rows = rows_per_block(data.get(), points, dimensions);
  std::vector<double> block(block_rows * dimensions);
  for (std::uint64_t first = 0; first < points; first += block_rows) {
    const std::uint64_t rows = std::min(block_rows, points - first);
    const hsize_t start[2] = {first, 0};
    const hsize_t count[2] = {rows, dimensions};
    Hdf5Handle memory_space(H5Screate_simple(2, count, nullptr), H5Sclose);
    if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0 ||
        H5Dread(data.get(), H5T_NATIVE_DOUBLE, memory_space.get(), file_space.get(), H5P_DEFAULT, block.data()) < 0)
      throw InputError(where + "cannot read rows " + std::to_string(first + 1) + " to " + std::to_string(first + rows) +
                       "; the file may be damaged or truncated (a compression filter may be missing)");
    for (std::uint64_t i = 0; i < rows * dimensions; ++i) {
      if (std::isfinite(block[i])) continue;
      const CellLocation location{CellLocation::RowKind::row,
                                  first + i / dimensions + 1,
                                  static_cast<std::size_t>(i % dimensions) + 1,
                                  {},
                                  dataset_path};
      check_finite(block[i], path, location);
    }
    sink.rows(first, rows, block.data());
  }

  std::string labels_path = sibling_path(dataset_path, "labels");
  if (!options.labels_path.empty()) {
    labels_path = options.labels_path[0] == '/' ? options.labels_path : sibling_path(dataset_path, options.labels_path);
    if (!file.exists(labels_path))
      throw InputError(path + ": there is no labels dataset at '" + labels_path + "' (the label column); name a 1-D " +
                       "integer dataset with one label per row of " + dataset_path + "; the file holds " +
                       list_datasets(path));
  }
  sink.point_columns(read_point_column<std::uint64_t>(file, sibling_path(dataset_path, "ids"), points),
                     read_point_column<std::int64_t>(file, labels_path, points));
}

// HDF5 stores (points, dimensions) row-major; the matrix is column-major. Copying a block of rows
// at a time avoids holding a second full copy.
void copy_rows(const double* block, std::uint64_t first, std::uint64_t rows, Eigen::MatrixXd& values) {
  const auto dimensions = static_cast<std::uint64_t>(values.cols());
  for (std::uint64_t i = 0; i < rows; ++i)
    for (std::uint64_t j = 0; j < dimensions; ++j)
      values(static_cast<Eigen::Index>(first + i), static_cast<Eigen::Index>(j)) = block[i * dimensions + j];
}

// The child's side: the shape, the rows as they are read (one block in memory at a time), then the
// optional columns.
void send_hdf5_dataset(const std::string& path, const Hdf5ReadOptions& options, ChildStreamWriter& out) {
  std::uint64_t row_bytes = 0;
  Hdf5DatasetSink sink;
  sink.shape = [&](std::uint64_t points, std::uint64_t dimensions) {
    out.put(points);
    out.put(dimensions);
    row_bytes = dimensions * sizeof(double);
  };
  sink.rows = [&](std::uint64_t, std::uint64_t rows, const double* block) { out.write(block, rows * row_bytes); };
  sink.point_columns = [&](std::vector<std::uint64_t> ids, std::vector<std::int64_t> labels) {
    out.put_vector(ids);
    out.put_vector(labels);
  };
  stream_hdf5_dataset(path, options, sink);
}

// The parent's side: the matrix is allocated once the shape is known and filled a block at a time.
void receive_hdf5_dataset(const std::string& path, ChildStreamReader& in, Dataset& dataset) {
  const auto points = in.get<std::uint64_t>();
  const auto dimensions = in.get<std::uint64_t>();
  check_shape(path, points, dimensions, "the dataset");
  check_host_allocation(checked_bytes({points, dimensions}, sizeof(double)), path + " as float64");
  dataset.values.resize(static_cast<Eigen::Index>(points), static_cast<Eigen::Index>(dimensions));
  const std::uint64_t block_rows = std::clamp<std::uint64_t>((std::uint64_t{1} << 20) / dimensions, 1, points);
  std::vector<double> block(block_rows * dimensions);
  for (std::uint64_t first = 0; first < points; first += block_rows) {
    const std::uint64_t rows = std::min(block_rows, points - first);
    in.read(block.data(), rows * dimensions * sizeof(double));
    copy_rows(block.data(), first, rows, dataset.values);
  }
  dataset.ids = in.get_vector<std::uint64_t>();
  dataset.labels = in.get_vector<std::int64_t>();
  if ((!dataset.ids.empty() && dataset.ids.size() != points) ||
      (!dataset.labels.empty() && dataset.labels.size() != points))
    throw InputError(path + ": the process reading the file sent columns of the wrong length; the file is damaged");
}

}  // namespace

std::string sibling_path(const std::string& dataset_path, const std::string& name) {
  const std::size_t slash = dataset_path.rfind('/');
  if (slash == std::string::npos) return name;
  return dataset_path.substr(0, slash + 1) + name;
}

Dataset read_hdf5_dataset(const std::string& path, const Hdf5ReadOptions& options) {
  Dataset dataset;
  dataset.source = path;
  if (!hdf5_reads_in_child()) {
    Hdf5DatasetSink sink;
    sink.shape = [&](std::uint64_t points, std::uint64_t dimensions) {
      dataset.values.resize(static_cast<Eigen::Index>(points), static_cast<Eigen::Index>(dimensions));
    };
    sink.rows = [&](std::uint64_t first, std::uint64_t rows, const double* block) {
      copy_rows(block, first, rows, dataset.values);
    };
    sink.point_columns = [&](std::vector<std::uint64_t> ids, std::vector<std::int64_t> labels) {
      dataset.ids = std::move(ids);
      dataset.labels = std::move(labels);
    };
    stream_hdf5_dataset(path, options, sink);
    return dataset;
  }
  read_in_child(
      path, [&](ChildStreamWriter& out) { send_hdf5_dataset(path, options, out); },
      [&](ChildStreamReader& in) { receive_hdf5_dataset(path, in, dataset); });
  return dataset;
}

}  // namespace subscale::io
