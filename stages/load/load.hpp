#pragma once
// Stage load: the input file -> a validated Dataset (docs/method.md §1). The file's format comes
// from its extension or from `format`; every reader refuses bad input (NaN, Inf, ragged rows,
// non-numeric cells, an empty matrix, a missing file or dataset path, a 1-D or 3-D dataset,
// more than 2^32 - 1 points) with an InputError naming the file, row and column.
#include <string>

#include "common/dataset.hpp"
#include "io/dataset_loader.hpp"

namespace subscale::load {

struct LoadOptions {
  std::string path;                                       // input.path
  io::InputFormat format = io::InputFormat::auto_detect;  // input.format
  std::string dataset_path = "/data";                     // input.dataset (HDF5)
  std::string label_column;  // CSV column (name or 1-based number), ARFF attribute, HDF5 labels dataset
  io::CsvHeader header = io::CsvHeader::automatic;  // input.header (CSV only)
};

Dataset load_dataset(const LoadOptions& options);

}  // namespace subscale::load
