#pragma once
// Reads the data matrix from an HDF5 file (docs/method.md §1):
// - a 2-D dataset of shape (points, dimensions) at `dataset_path` (default /data), contiguous or
//   chunked, compressed or not;
// - element types float32 and float64; integer types are accepted too and converted to float64
//   (pixel or count data is often stored as integers; integers above 2^53 round to the nearest
//   double); other types (strings, compounds) are refused;
// - optional 1-D datasets `ids` (uint64, unique ids of the points) and `labels` (int64, -1 noise)
//   in the same group, one entry per point.
// The matrix is read in blocks of whole chunks, so peak memory stays near the size of the result.
#include <string>

#include "common/dataset.hpp"

namespace subscale::io {

struct Hdf5ReadOptions {
  std::string dataset_path = "/data";
  // The labels' dataset, when one is named (input.label_column): a name in dataset_path's group,
  // or a path from the root; then it must exist. Empty: `labels` beside the data, when present.
  std::string labels_path;
};

Dataset read_hdf5_dataset(const std::string& path, const Hdf5ReadOptions& options = {});

// The path of a dataset named `name` in the same group as `dataset_path` ("/g/data" -> "/g/ids").
std::string sibling_path(const std::string& dataset_path, const std::string& name);

}  // namespace subscale::io
