// The HDF5 data reader (io/hdf5_dataset_reader.hpp) on mutated files: the seeds are small valid
// files (float64, float32, int32, chunked and compressed, with ids and labels) and libFuzzer
// mutates their bytes. The HDF5 library itself is not instrumented, so coverage counts only the
// project's edges; a crash inside libhdf5 is still reported (the target reads in this process:
// fuzz_input.hpp says why, and how scripts/fuzz checks that the product contains such crashes).
#include "fuzz/fuzz_input.hpp"
#include "io/hdf5_dataset_reader.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  subscale::fuzz::limit_memory_for_fuzzing();
  subscale::fuzz::read_hdf5_in_this_process();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static subscale::fuzz::InputFile file(".h5");
  const std::string& path = file.write(data, size);
  subscale::fuzz::parse_or_refuse([&] { subscale::io::read_hdf5_dataset(path); });
  return 0;
}
