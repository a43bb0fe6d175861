#pragma once
// Writes a Dataset to HDF5 in the layout read_hdf5_dataset reads: the (points, dimensions) matrix
// at `dataset_path` plus `ids` and `labels` beside it when present. The file is written under a
// temporary name and renamed into place, so a failure leaves no half-written file.
#include <string>
#include <utility>
#include <vector>

#include "common/dataset.hpp"

namespace subscale::io {

struct Hdf5WriteOptions {
  std::string dataset_path = "/data";
  bool float32 = false;  // store the matrix as float32 (half the size, values rounded)
  int gzip_level = 0;    // 1-9: chunked and gzip-compressed; 0: contiguous
  // String attributes attached to the matrix dataset (provenance: generator, seed, ...).
  std::vector<std::pair<std::string, std::string>> attributes;
};

void write_hdf5_dataset(const Dataset& dataset, const std::string& path, const Hdf5WriteOptions& options = {});

}  // namespace subscale::io
