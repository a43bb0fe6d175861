#pragma once
// Writes a 1-D dataset of HDF5 strings into an existing file, of the string type the test builds
// (fixed or variable length, ASCII or UTF-8): columns as h5py and other writers store them.
#include <hdf5.h>

#include <filesystem>

namespace subscale::filter::testing {

// `data`: for a variable-length type an array of `rows` char pointers, for a fixed-length one
// `rows` times the type's size in bytes.
inline void write_string_dataset(const std::filesystem::path& path, const char* name, hid_t type, hsize_t rows,
                                 const void* data) {
  const hid_t file = H5Fopen(path.string().c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t space = H5Screate_simple(1, &rows, nullptr);
  const hid_t dataset = H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  H5Dclose(dataset);
  H5Sclose(space);
  H5Fclose(file);
}

}  // namespace subscale::filter::testing
