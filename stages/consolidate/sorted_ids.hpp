#pragma once
// Set operations on sorted lists of distinct ids (point or dimension ids), written without
// branches on the comparison: the standard algorithms with a back_inserter branch and check the
// capacity at every element, and the consolidate stage runs them thousands of times on lists of
// a few hundred ids that are mostly the same (a fifth of its instructions on S1500).
#include <algorithm>
#include <cstdint>
#include <vector>

namespace subscale::consolidate {

// a ∪ b, sorted.
inline std::vector<std::uint32_t> sorted_union(const std::vector<std::uint32_t>& a,
                                               const std::vector<std::uint32_t>& b) {
  std::vector<std::uint32_t> out(a.size() + b.size());
  std::size_t i = 0, j = 0, k = 0;
  while (i < a.size() && j < b.size()) {
    const std::uint32_t x = a[i], y = b[j];
    out[k++] = std::min(x, y);
    i += x <= y;
    j += y <= x;
  }
  k = static_cast<std::size_t>(
      std::copy(a.begin() + static_cast<std::ptrdiff_t>(i), a.end(), out.begin() + static_cast<std::ptrdiff_t>(k)) -
      out.begin());
  k = static_cast<std::size_t>(
      std::copy(b.begin() + static_cast<std::ptrdiff_t>(j), b.end(), out.begin() + static_cast<std::ptrdiff_t>(k)) -
      out.begin());
  out.resize(k);
  return out;
}

// a \ b, sorted.
inline std::vector<std::uint32_t> sorted_difference(const std::vector<std::uint32_t>& a,
                                                    const std::vector<std::uint32_t>& b) {
  std::vector<std::uint32_t> out(a.size());
  std::size_t i = 0, j = 0, k = 0;
  while (i < a.size() && j < b.size()) {
    const std::uint32_t x = a[i], y = b[j];
    out[k] = x;
    k += x < y;
    i += x <= y;
    j += y <= x;
  }
  k = static_cast<std::size_t>(
      std::copy(a.begin() + static_cast<std::ptrdiff_t>(i), a.end(), out.begin() + static_cast<std::ptrdiff_t>(k)) -
      out.begin());
  out.resize(k);
  return out;
}

}  // namespace subscale::consolidate
