#pragma once
// A thin RAII layer over the HDF5 C API: files, typed n-dimensional datasets and scalar/string
// attributes. Every failure names the file and the dataset path.
#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace subscale::io {

// Owns one HDF5 identifier and closes it with the matching H5*close function.
class Hdf5Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Hdf5Handle() = default;
  Hdf5Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;
  Hdf5Handle(Hdf5Handle&& other) noexcept { swap(other); }
  Hdf5Handle& operator=(Hdf5Handle&& other) noexcept {
    Hdf5Handle tmp(std::move(other));
    swap(tmp);
    return *this;
  }
  ~Hdf5Handle() {
    if (id_ >= 0 && closer_) closer_(id_);
  }
  hid_t get() const noexcept { return id_; }
  // Gives up ownership: the caller closes the identifier.
  hid_t release() noexcept { return std::exchange(id_, -1); }
  bool valid() const noexcept { return id_ >= 0; }

 private:
  void swap(Hdf5Handle& other) noexcept {
    std::swap(id_, other.id_);
    std::swap(closer_, other.closer_);
  }
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// Opens a dataset for reading, with the external raw-data files of a dataset stored that way
// (H5Pset_external) looked up beside the HDF5 file that holds it, where its writer put them:
// libhdf5 1.10 looks in the working folder instead, and then fails to read a sound file.
Hdf5Handle open_hdf5_dataset(hid_t location, const std::string& dataset_path);

// Refuses (InputError, starting with `where`, e.g. "data.h5, dataset /data") a dataset whose values
// lie in other files that are not all there: a virtual dataset whose source file or source
// dataset is missing, or external raw-data files that are missing or shorter than the data. libhdf5
// reads what is missing as the fill value (zeros) without an error, which would cluster zeros.
void check_hdf5_data_files(hid_t dataset, const std::string& where);

// True when the attribute holds exactly one value (a scalar, or a simple space of one element):
// readers that read one value check it first, since H5Aread writes every element it holds.
bool hdf5_attribute_is_single(hid_t attribute);

// The element types the project stores. Anything else is refused at compile time.
template <class T>
hid_t hdf5_native_type() {
  if constexpr (std::is_same_v<T, double>)
    return H5T_NATIVE_DOUBLE;
  else if constexpr (std::is_same_v<T, float>)
    return H5T_NATIVE_FLOAT;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return H5T_NATIVE_INT64;
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return H5T_NATIVE_UINT64;
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return H5T_NATIVE_INT32;
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return H5T_NATIVE_UINT32;
  else if constexpr (std::is_same_v<T, std::uint8_t>)
    return H5T_NATIVE_UINT8;
  else
    static_assert(sizeof(T) == 0, "unsupported HDF5 element type");
}

// A dataset read into memory: row-major (C order) data and its shape.
template <class T>
struct Hdf5Array {
  std::vector<std::uint64_t> shape;
  std::vector<T> data;
};

// floating: 4 or 8 bytes; the integers: 1, 2, 4 or 8 bytes; other: anything else.
enum class ElementClass { floating, signed_integer, unsigned_integer, other };

struct DatasetInfo {
  std::vector<std::uint64_t> shape;
  ElementClass element_class = ElementClass::other;
  std::size_t element_bytes = 0;
  bool strings = false;  // fixed- or variable-length strings (element_class is then other)
};

class Hdf5File {
 public:
  enum class Mode { read, create_truncate, read_write };

  Hdf5File(const std::string& path, Mode mode);
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;
  Hdf5File(Hdf5File&&) = default;
  Hdf5File& operator=(Hdf5File&&) = default;
  // A file created here that close() did not finish is removed, so that nothing renames a broken
  // file into place.
  ~Hdf5File();

  const std::string& path() const noexcept { return path_; }
  bool exists(const std::string& object_path) const;
  DatasetInfo info(const std::string& dataset_path) const;

  // Reads a whole dataset, converting its elements to T (HDF5 converts numeric types). A shape
  // that cannot fit in memory is refused (ResourceError) before anything is allocated.
  template <class T>
  Hdf5Array<T> read(const std::string& dataset_path) const {
    Hdf5Array<T> array;
    array.shape = info(dataset_path).shape;
    array.data.resize(checked_elements(dataset_path, array.shape, sizeof(T)));
    read_raw(dataset_path, hdf5_native_type<T>(), array.data.data());
    return array;
  }

  // Writes a dataset (creating parent groups); gzip_level > 0 writes it chunked and compressed.
  template <class T>
  void write(const std::string& dataset_path, const std::vector<std::uint64_t>& shape, const T* data,
             int gzip_level = 0) {
    write_raw(dataset_path, shape, hdf5_native_type<T>(), data, gzip_level);
  }
  template <class T>
  void write(const std::string& dataset_path, const std::vector<T>& data, int gzip_level = 0) {
    write(dataset_path, {static_cast<std::uint64_t>(data.size())}, data.data(), gzip_level);
  }

  // Writes a 1-D dataset of `count` elements made block by block: `fill(begin, end, out)` puts
  // elements [begin, end) into `out`. Blocks are filled (and, with gzip_level > 0, compressed, one
  // chunk a block) in parallel and written in order, so a dataset of any size needs only a few
  // blocks of memory and the compression runs on every core.
  template <class T>
  void write_in_blocks(const std::string& dataset_path, std::uint64_t count, int gzip_level,
                       const std::function<void(std::uint64_t begin, std::uint64_t end, T* out)>& fill) {
    write_blocks_raw(
        dataset_path, count, hdf5_native_type<T>(), sizeof(T), gzip_level,
        [&](std::uint64_t begin, std::uint64_t end, void* out) { fill(begin, end, static_cast<T*>(out)); });
  }
  // Elements [begin, begin + count) of a 1-D dataset.
  template <class T>
  std::vector<T> read_range(const std::string& dataset_path, std::uint64_t begin, std::uint64_t count) const {
    std::vector<T> data(count);
    read_range_raw(dataset_path, hdf5_native_type<T>(), begin, count, data.data());
    return data;
  }

  // Strings are written as variable-length UTF-8 (what h5py reads as str); read in any form.
  void write_string_attribute(const std::string& object_path, const std::string& name, const std::string& value);
  void write_strings(const std::string& dataset_path, const std::vector<std::string>& values);
  std::vector<std::string> read_strings(const std::string& dataset_path) const;
  void write_int_attribute(const std::string& object_path, const std::string& name, std::int64_t value);
  void write_double_attribute(const std::string& object_path, const std::string& name, double value);
  std::string read_string_attribute(const std::string& object_path, const std::string& name) const;

  void create_group(const std::string& group_path);

  // Writes what HDF5 still holds in memory and closes the file; a failure (disk full, file size
  // limit) is an Error naming the file. Writers call it before they commit the file: a file closed
  // only by the destructor may be incomplete without anyone knowing. Idempotent.
  void close();

 private:
  void read_raw(const std::string& dataset_path, hid_t memory_type, void* out) const;
  // Refuses a compact or contiguous dataset whose stored bytes cannot hold its shape.
  void check_storage(hid_t dataset, const std::string& dataset_path, const DatasetInfo& info) const;
  std::uint64_t checked_elements(const std::string& dataset_path, const std::vector<std::uint64_t>& shape,
                                 std::size_t element_bytes) const;
  void write_raw(const std::string& dataset_path, const std::vector<std::uint64_t>& shape, hid_t memory_type,
                 const void* data, int gzip_level);
  void write_blocks_raw(const std::string& dataset_path, std::uint64_t count, hid_t memory_type,
                        std::size_t element_bytes, int gzip_level,
                        const std::function<void(std::uint64_t, std::uint64_t, void*)>& fill);
  void read_range_raw(const std::string& dataset_path, hid_t memory_type, std::uint64_t begin, std::uint64_t count,
                      void* out) const;
  void ensure_parent_groups(const std::string& object_path);
  [[noreturn]] void fail(const std::string& what, const std::string& object_path) const;        // input
  [[noreturn]] void fail_write(const std::string& what, const std::string& object_path) const;  // output

  std::string path_;
  Hdf5Handle file_;
  bool created_ = false;
};

}  // namespace subscale::io
