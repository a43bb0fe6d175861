#include "io/hdf5_dataset_writer.hpp"

#include "common/error.hpp"
#include "io/atomic_output.hpp"
#include "io/hdf5_dataset_reader.hpp"
#include "io/hdf5_file.hpp"

namespace subscale::io {
namespace {

template <class T>
std::vector<T> row_major(const Matrix& values) {
  const auto n = static_cast<std::size_t>(values.rows());
  const auto d = static_cast<std::size_t>(values.cols());
  std::vector<T> out(n * d);
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t i = 0; i < n; ++i)
      out[i * d + j] = static_cast<T>(values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)));
  return out;
}

}  // namespace

void write_hdf5_dataset(const Dataset& dataset, const std::string& path, const Hdf5WriteOptions& options) {
  const auto sizes_fit = [&](std::size_t size) { return size == 0 || size == dataset.points(); };
  if (!sizes_fit(dataset.ids.size()) || !sizes_fit(dataset.labels.size()))
    throw Error(ExitCode::other, path + ": cannot write a dataset whose ids or labels do not have one entry per point");
  const std::vector<std::uint64_t> shape = {dataset.points(), dataset.dimensions()};
  AtomicOutput output(path);
  {
    Hdf5File file(output.temporary_path().string(), Hdf5File::Mode::create_truncate);
    if (options.float32)
      file.write(options.dataset_path, shape, row_major<float>(dataset.values).data(), options.gzip_level);
    else
      file.write(options.dataset_path, shape, row_major<double>(dataset.values).data(), options.gzip_level);
    for (const auto& [name, value] : options.attributes) file.write_string_attribute(options.dataset_path, name, value);
    if (!dataset.ids.empty()) file.write(sibling_path(options.dataset_path, "ids"), dataset.ids, options.gzip_level);
    if (!dataset.labels.empty())
      file.write(sibling_path(options.dataset_path, "labels"), dataset.labels, options.gzip_level);
    file.close();  // flushed and checked before it is renamed
  }
  output.commit();
}

}  // namespace subscale::io
