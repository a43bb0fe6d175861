// OpenSubspace .true reader (io/ground_truth.hpp): once on its own, once with the data's shape
// given (as a run does), and a file it accepts must survive a round trip through the writer.
#include <sstream>

#include "fuzz/fuzz_input.hpp"
#include "io/ground_truth.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = subscale::fuzz::as_text(data, size);
  subscale::fuzz::parse_or_refuse([&] {
    std::istringstream input(text);
    const auto truth = subscale::io::parse_ground_truth(input, "fuzz.true");
    std::istringstream again(subscale::io::format_ground_truth(truth));
    const auto reread = subscale::io::parse_ground_truth(again, "fuzz.true");
    if (reread.clusters.size() != truth.clusters.size()) __builtin_trap();
  });
  subscale::fuzz::parse_or_refuse([&] {
    std::istringstream input(text);
    subscale::io::parse_ground_truth(input, "fuzz.true", {.dimensions = 4, .points = 64});
  });
  return 0;
}
