#pragma once
// One entry point for every input format: picks the reader by the file's extension or by an
// explicit format name (config key input.format: auto | hdf5 | csv | arff).
#include <string>
#include <string_view>

#include "common/dataset.hpp"
#include "io/csv_reader.hpp"

namespace subscale::io {

enum class InputFormat { auto_detect, hdf5, csv, arff };

// "auto", "hdf5" (also "h5"), "csv", "arff", any case; UsageError naming `key` otherwise.
InputFormat parse_input_format(std::string_view name, const std::string& key = "input.format");
const char* to_string(InputFormat format);

// By extension: .h5 .hdf5 .hdf .he5 -> hdf5; .csv .tsv .txt .dat -> csv; .arff -> arff. For any
// other extension the file's first bytes decide (the HDF5 signature, or an ARFF '@relation'
// header); InputError when neither fits, saying to set input.format.
InputFormat detect_input_format(const std::string& path);

struct ReadOptions {
  std::string path;
  InputFormat format = InputFormat::auto_detect;
  std::string dataset_path = "/data";  // HDF5 only
  std::string label_column;  // CSV: header name or 1-based number; ARFF: attribute name; HDF5: the labels dataset
  CsvHeader header = CsvHeader::automatic;  // CSV only: whether the first line is a header
};

// Reads the file with the reader its format names. The result has passed the reader's checks
// (finite values, rectangular, non-empty, at most 2^32 - 1 points).
Dataset read_dataset(const ReadOptions& options);

}  // namespace subscale::io
