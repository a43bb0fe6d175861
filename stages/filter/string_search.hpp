#pragma once
// Substring search for one string (docs/stages.md §4, from the seed on text algorithms): naive, Knuth-
// Morris-Pratt and Boyer-Moore-Horspool. The tables are built once per pattern on the host; the
// search functions compile for host and device so that both backends run the same code. An empty
// pattern is found in every string (also the empty one); a pattern longer than the string never.
#include <cstdint>
#include <string>
#include <vector>

#include "common/host_device.hpp"

namespace subscale::filter {

enum class SearchAlgorithm { naive, kmp, bmh, automatic };

std::string to_string(SearchAlgorithm algorithm);

// KMP: failure[i] = the length of the longest proper border of pattern[0..i].
std::vector<std::int32_t> kmp_failure_table(const std::string& pattern);
// BMH: shift[c] = how far the window moves when its last byte is c.
std::vector<std::int32_t> bmh_shift_table(const std::string& pattern);

// The algorithm `automatic` resolves to for a pattern: BMH's skips pay off from 4 bytes on; below
// that the naive loop's first-byte test is as fast and needs no table.
SearchAlgorithm resolve_algorithm(SearchAlgorithm algorithm, std::size_t pattern_bytes);

SUBSCALE_HD bool contains_naive(const std::uint8_t* text, std::int64_t n, const std::uint8_t* pattern, std::int64_t m) {
  for (std::int64_t start = 0; start + m <= n; ++start) {
    std::int64_t i = 0;
    while (i < m && text[start + i] == pattern[i]) ++i;
    if (i == m) return true;
  }
  return false;
}

SUBSCALE_HD bool contains_kmp(const std::uint8_t* text, std::int64_t n, const std::uint8_t* pattern, std::int64_t m,
                              const std::int32_t* failure) {
  if (m == 0) return true;
  std::int64_t matched = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint8_t c = text[i];
    while (matched > 0 && pattern[matched] != c) matched = failure[matched - 1];
    if (pattern[matched] == c) ++matched;
    if (matched == m) return true;
    if (n - i - 1 < m - matched) return false;  // too few bytes left to complete a match
  }
  return false;
}

SUBSCALE_HD bool contains_bmh(const std::uint8_t* text, std::int64_t n, const std::uint8_t* pattern, std::int64_t m,
                              const std::int32_t* shift) {
  if (m == 0) return true;
  for (std::int64_t start = 0; start + m <= n;) {
    const std::uint8_t last = text[start + m - 1];
    if (last == pattern[m - 1]) {
      std::int64_t i = m - 2;
      while (i >= 0 && text[start + i] == pattern[i]) --i;
      if (i < 0) return true;
    }
    start += shift[last];
  }
  return false;
}

SUBSCALE_HD bool equals_bytes(const std::uint8_t* text, std::int64_t n, const std::uint8_t* pattern, std::int64_t m) {
  if (n != m) return false;
  for (std::int64_t i = 0; i < m; ++i)
    if (text[i] != pattern[i]) return false;
  return true;
}

SUBSCALE_HD bool starts_with_bytes(const std::uint8_t* text, std::int64_t n, const std::uint8_t* pattern,
                                   std::int64_t m) {
  if (n < m) return false;
  for (std::int64_t i = 0; i < m; ++i)
    if (text[i] != pattern[i]) return false;
  return true;
}

}  // namespace subscale::filter
