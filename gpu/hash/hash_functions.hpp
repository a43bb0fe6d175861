#pragma once
// The project's hash functions, one definition for host and device (same bits on CPU and GPU).
// Every part of the project that hashes (signature table, subspace grouping, join, the hash
// stage) calls these; there is no second copy of hash code anywhere.
#include <cstddef>
#include <cstdint>

#include "common/host_device.hpp"

namespace subscale::hash {

// The murmur3 64-bit finaliser: a strong, cheap mixer of one 64-bit word.
SUBSCALE_HD std::uint64_t fmix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// ---- FNV-1a (Fowler/Noll/Vo), byte-wise ------------------------------------------------------
// FNV-1a consumes one byte at a time: h ^= byte; h *= prime. The word versions feed the four
// little-endian bytes of each 32-bit word (lowest byte first), so hashing a record of words gives
// the same value as hashing its in-memory bytes on a little-endian machine (x86, every NVIDIA GPU).
inline constexpr std::uint32_t kFnv32Offset = 0x811C9DC5u;
inline constexpr std::uint32_t kFnv32Prime = 0x01000193u;
inline constexpr std::uint64_t kFnv64Offset = 0xCBF29CE484222325ULL;
inline constexpr std::uint64_t kFnv64Prime = 0x100000001B3ULL;

SUBSCALE_HD std::uint32_t fnv1a32_step(std::uint32_t h, std::uint32_t byte) { return (h ^ byte) * kFnv32Prime; }
SUBSCALE_HD std::uint64_t fnv1a64_step(std::uint64_t h, std::uint64_t byte) { return (h ^ byte) * kFnv64Prime; }

// Byte strings (the published test vectors are defined on bytes).
SUBSCALE_HD std::uint32_t fnv1a32_bytes(const unsigned char* bytes, std::size_t count) {
  std::uint32_t h = kFnv32Offset;
  for (std::size_t i = 0; i < count; ++i) h = fnv1a32_step(h, bytes[i]);
  return h;
}
SUBSCALE_HD std::uint64_t fnv1a64_bytes(const unsigned char* bytes, std::size_t count) {
  std::uint64_t h = kFnv64Offset;
  for (std::size_t i = 0; i < count; ++i) h = fnv1a64_step(h, bytes[i]);
  return h;
}

// One 32-bit word folded into a running FNV-1a state, low byte first.
SUBSCALE_HD std::uint32_t fnv1a32_word(std::uint32_t h, std::uint32_t w) {
  h = fnv1a32_step(h, w & 0xFFu);
  h = fnv1a32_step(h, (w >> 8) & 0xFFu);
  h = fnv1a32_step(h, (w >> 16) & 0xFFu);
  return fnv1a32_step(h, w >> 24);
}
SUBSCALE_HD std::uint64_t fnv1a64_word(std::uint64_t h, std::uint32_t w) {
  h = fnv1a64_step(h, w & 0xFFu);
  h = fnv1a64_step(h, (w >> 8) & 0xFFu);
  h = fnv1a64_step(h, (w >> 16) & 0xFFu);
  return fnv1a64_step(h, w >> 24);
}

// A record of `count` 32-bit words (its little-endian bytes).
SUBSCALE_HD std::uint32_t fnv1a32_words(const std::uint32_t* words, int count) {
  std::uint32_t h = kFnv32Offset;
  for (int i = 0; i < count; ++i) h = fnv1a32_word(h, words[i]);
  return h;
}
SUBSCALE_HD std::uint64_t fnv1a64_words(const std::uint32_t* words, int count) {
  std::uint64_t h = kFnv64Offset;
  for (int i = 0; i < count; ++i) h = fnv1a64_word(h, words[i]);
  return h;
}

// The 8 little-endian bytes of a 64-bit key (e.g. a join key): low word first, then high word.
SUBSCALE_HD std::uint64_t fnv1a64_u64(std::uint64_t key) {
  std::uint64_t h = fnv1a64_word(kFnv64Offset, static_cast<std::uint32_t>(key));
  return fnv1a64_word(h, static_cast<std::uint32_t>(key >> 32));
}

}  // namespace subscale::hash
