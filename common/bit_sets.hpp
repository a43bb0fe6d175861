#pragma once
// Sets of dimensions or points held as bits in 64-bit words (bit i of word w is id 64 w + i): the
// form of direct mode's tables and of the pairs a cluster run's processes exchange.
#include <bit>
#include <cstdint>
#include <vector>

namespace subscale {

inline std::uint32_t count_bits(const std::uint64_t* words, std::uint32_t count) {
  std::uint32_t total = 0;
  for (std::uint32_t w = 0; w < count; ++w) total += static_cast<std::uint32_t>(std::popcount(words[w]));
  return total;
}

// Appends the ids of the set bits, ascending, without counting them first: for a scratch vector
// whose capacity already holds every id (so that pushing never reallocates).
inline void append_set_bits(const std::uint64_t* words, std::uint32_t count, std::vector<std::uint32_t>& ids) {
  for (std::uint32_t w = 0; w < count; ++w)
    for (std::uint64_t word = words[w]; word != 0; word &= word - 1)
      ids.push_back(w * 64 + static_cast<std::uint32_t>(std::countr_zero(word)));
}

// Appends the ids of the set bits, ascending, with room made for exactly them first.
inline void bits_to_ids(const std::uint64_t* words, std::uint32_t count, std::vector<std::uint32_t>& ids) {
  ids.reserve(ids.size() + count_bits(words, count));
  append_set_bits(words, count, ids);
}

// The subspaces stage's order (|S| descending, then S as a sorted list) on two masks of one size:
// of the two, the set holding the lowest dimension where they differ comes first.
inline bool mask_before_same_size(const std::uint64_t* a, const std::uint64_t* b, std::uint32_t words) {
  for (std::uint32_t w = 0; w < words; ++w) {
    const std::uint64_t differ = a[w] ^ b[w];
    if (differ != 0) return (a[w] & differ & (~differ + 1)) != 0;
  }
  return false;
}

}  // namespace subscale
