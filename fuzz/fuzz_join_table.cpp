// The join table reader (pipeline/steps/join_table_reader.hpp) on mutated HDF5 files, as the run's
// join: section reads it (ids must be non-negative, values finite) and as `subscale join` does.
#include "fuzz/fuzz_input.hpp"
#include "pipeline/steps/join_table_reader.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  subscale::fuzz::limit_memory_for_fuzzing();
  subscale::fuzz::read_hdf5_in_this_process();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static subscale::fuzz::InputFile file(".h5");
  const std::string& path = file.write(data, size);
  for (const bool for_clustering : {true, false})
    subscale::fuzz::parse_or_refuse([&] {
      subscale::pipeline::read_join_table({.path = path,
                                           .key_dataset = "/ids",
                                           .data_dataset = "/data",
                                           .path_setting = "join.path",
                                           .key_setting = "join.ids",
                                           .data_setting = "join.dataset",
                                           .for_clustering = for_clustering,
                                           .column_prefix = "t."});
    });
  return 0;
}
