// CSV reader (io/csv_reader.hpp). The first byte picks the label-column option, so that both the
// header-name and the column-number paths are searched.
#include <sstream>

#include "fuzz/fuzz_input.hpp"
#include "io/csv_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const labels[] = {"", "1", "2", "class"};
  subscale::io::CsvOptions options;
  options.label_column = labels[data[0] % 4];
  std::istringstream input(subscale::fuzz::as_text(data + 1, size - 1));
  subscale::fuzz::parse_or_refuse([&] { subscale::io::read_csv(input, "fuzz.csv", options); });
  return 0;
}
