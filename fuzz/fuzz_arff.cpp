// ARFF reader (io/arff_reader.hpp). The first byte picks the label attribute option.
#include <sstream>

#include "fuzz/fuzz_input.hpp"
#include "io/arff_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const labels[] = {"", "class", "dim0", "label"};
  subscale::io::ArffOptions options;
  options.label_attribute = labels[data[0] % 4];
  std::istringstream input(subscale::fuzz::as_text(data + 1, size - 1));
  subscale::fuzz::parse_or_refuse([&] { subscale::io::read_arff(input, "fuzz.arff", options); });
  return 0;
}
