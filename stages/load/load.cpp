#include "stages/load/load.hpp"

#include "io/data_validation.hpp"

namespace subscale::load {

Dataset load_dataset(const LoadOptions& options) {
  io::ReadOptions read;
  read.path = options.path;
  read.format = options.format;
  read.dataset_path = options.dataset_path;
  read.label_column = options.label_column;
  read.header = options.header;
  Dataset dataset = io::read_dataset(read);
  // The readers check values as they parse (they know the line numbers); this re-check of the
  // finished Dataset is cheap next to parsing and guards the stages after it whatever the reader.
  io::validate_dataset(dataset);
  return dataset;
}

}  // namespace subscale::load
