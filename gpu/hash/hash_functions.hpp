#pragma once
// The project's hash functions, one definition for host and device (same bits on CPU and GPU).
// Every part of the project that hashes (signature table, subspace grouping, join, the hash
// stage) calls these; there is no second copy of hash code anywhere.
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

}  // namespace subscale::hash
