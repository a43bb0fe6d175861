#pragma once
// A small direct-mapped cache of subspace keys in front of a DirectSubspaceMap, whose hash, probe
// and compare cost more. A map's entries never go away, so a cached entry stays right.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace subscale::dense_units::direct {

class DirectEntryCache {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  explicit DirectEntryCache(std::uint32_t key_words)
      : words_(key_words), keys_(std::size_t{kLines} * key_words), entries_(kLines, kNone) {}

  // The entry of `key`: cached, else find(key) (an entry, or kNone), which is cached when found.
  // kWords, when not 0, is the key's words fixed at compile time (the walk's one-word masks).
  template <std::uint32_t kWords = 0, class Find>
  std::uint32_t entry(const std::uint64_t* key, Find&& find) {
    const std::uint32_t words = kWords != 0 ? kWords : words_;
    std::uint64_t folded = 0;
    for (std::uint32_t w = 0; w < words; ++w) folded ^= key[w] + w;
    const std::size_t line = static_cast<std::size_t>((folded * 0x9e3779b97f4a7c15ull) >> (64 - kLineBits));
    std::uint64_t* cached = keys_.data() + line * words;
    // A plain loop: std::equal on a word or two compiled to a call of memcmp.
    bool same = entries_[line] != kNone;
    for (std::uint32_t w = 0; w < words && same; ++w) same = cached[w] == key[w];
    if (same) return entries_[line];
    const std::uint32_t found = find(key);
    if (found == kNone) return kNone;
    std::copy(key, key + words, cached);
    return entries_[line] = found;
  }

 private:
  static constexpr std::uint32_t kLineBits = 6, kLines = 1u << kLineBits;
  std::uint32_t words_;
  std::vector<std::uint64_t> keys_;     // kLines x words_
  std::vector<std::uint32_t> entries_;  // kNone: an empty line
};

}  // namespace subscale::dense_units::direct
