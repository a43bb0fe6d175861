#include "stages/filter/string_search.hpp"

namespace subscale::filter {

std::string to_string(SearchAlgorithm algorithm) {
  switch (algorithm) {
    case SearchAlgorithm::naive:
      return "naive";
    case SearchAlgorithm::kmp:
      return "kmp";
    case SearchAlgorithm::bmh:
      return "bmh";
    case SearchAlgorithm::automatic:
      return "auto";
  }
  return "?";
}

std::vector<std::int32_t> kmp_failure_table(const std::string& pattern) {
  const auto m = static_cast<std::int32_t>(pattern.size());
  std::vector<std::int32_t> failure(static_cast<std::size_t>(m), 0);
  std::int32_t border = 0;
  for (std::int32_t i = 1; i < m; ++i) {
    while (border > 0 && pattern[i] != pattern[border]) border = failure[border - 1];
    if (pattern[i] == pattern[border]) ++border;
    failure[i] = border;
  }
  return failure;
}

std::vector<std::int32_t> bmh_shift_table(const std::string& pattern) {
  const auto m = static_cast<std::int32_t>(pattern.size());
  std::vector<std::int32_t> shift(256, m > 0 ? m : 1);
  for (std::int32_t i = 0; i + 1 < m; ++i) shift[static_cast<std::uint8_t>(pattern[i])] = m - 1 - i;
  return shift;
}

SearchAlgorithm resolve_algorithm(SearchAlgorithm algorithm, std::size_t pattern_bytes) {
  if (algorithm != SearchAlgorithm::automatic) return algorithm;
  return pattern_bytes >= 4 ? SearchAlgorithm::bmh : SearchAlgorithm::naive;
}

}  // namespace subscale::filter
