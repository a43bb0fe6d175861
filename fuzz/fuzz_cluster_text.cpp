// The cluster-text reader of `subscale evaluate` (stages/evaluate/cluster_text.hpp); what it
// accepts must read back the same after the writer (common/subspace_cluster_text.hpp).
#include <sstream>

#include "common/subspace_cluster_text.hpp"
#include "fuzz/fuzz_input.hpp"
#include "stages/evaluate/cluster_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  subscale::fuzz::parse_or_refuse([&] {
    std::istringstream input(subscale::fuzz::as_text(data, size));
    const auto clusters = subscale::evaluate::parse_cluster_text(input, "fuzz.txt");
    std::istringstream again(subscale::subspace_clusters_text(clusters));
    if (subscale::evaluate::parse_cluster_text(again, "fuzz.txt") != clusters) __builtin_trap();
  });
  return 0;
}
