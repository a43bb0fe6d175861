// The filter's column-table reader (stages/filter/table_hdf5.hpp) on mutated HDF5 files: numeric,
// date, decimal and string columns (offsets + bytes, and HDF5 strings).
#include "fuzz/fuzz_input.hpp"
#include "stages/filter/table_hdf5.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  subscale::fuzz::limit_memory_for_fuzzing();
  subscale::fuzz::read_hdf5_in_this_process();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static subscale::fuzz::InputFile file(".h5");
  const std::string& path = file.write(data, size);
  subscale::fuzz::parse_or_refuse([&] {
    const subscale::filter::TableSource source{.path = path, .group = "/table"};
    subscale::filter::column_names(source);
    subscale::filter::read_column_table(source);
  });
  return 0;
}
