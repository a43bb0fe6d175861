#pragma once
// The hash the join partitions and buckets by, and how its bits are split. One definition for
// host and device so that the CPU and CUDA backends place every key in the same partition.
//
// Bits of h = join_hash(key):  [0, total_bits)            -> partition id (radix passes, LSD first)
//                              [total_bits, +bucket_bits) -> bucket inside the partition's table
// Using disjoint bits matters: all keys of a partition share the low bits, so a table indexed by
// them would put every key of the partition in one bucket.
#include <cstdint>

#include "common/host_device.hpp"
#include "gpu/hash/hash_functions.hpp"

namespace subscale::join {

// fmix64 is the default: FNV-1a (the seed's choice for its join) multiplies after each byte, so
// the low k bits of its hash depend only on the low k bits of each key byte, and keys that
// differ only in high bits of their bytes crowd into few partitions.
enum class JoinHash : std::uint8_t { fmix64, fnv1a64 };

SUBSCALE_HD std::uint64_t join_hash(std::uint64_t key, JoinHash kind) {
  return kind == JoinHash::fnv1a64 ? hash::fnv1a64_u64(key) : hash::fmix64(key);
}

SUBSCALE_HD std::uint64_t low_bits_mask(int bits) { return bits >= 64 ? ~0ULL : ((1ULL << bits) - 1ULL); }

// The digit a radix pass scatters by: bits [shift, shift + bits) of the hash.
SUBSCALE_HD std::uint32_t radix_digit(std::uint64_t hash, int shift, int bits) {
  return static_cast<std::uint32_t>((hash >> shift) & low_bits_mask(bits));
}

SUBSCALE_HD std::uint32_t partition_of(std::uint64_t hash, int total_bits) {
  return static_cast<std::uint32_t>(hash & low_bits_mask(total_bits));
}

SUBSCALE_HD std::uint32_t bucket_of(std::uint64_t hash, int total_bits, int bucket_bits) {
  return static_cast<std::uint32_t>((hash >> total_bits) & low_bits_mask(bucket_bits));
}

// A partition of m tuples gets the smallest power of two >= m buckets (load factor 0.5 .. 1).
SUBSCALE_HD int bucket_bits_for(std::uint32_t m) {
  int bits = 0;
  while (bits < 31 && (1U << bits) < m) ++bits;
  return bits;
}

// First position in a partitioned key array (sorted by partition id) whose partition is >= p.
SUBSCALE_HD std::uint32_t partition_lower_bound(const std::uint64_t* keys, std::uint32_t n, std::uint32_t p,
                                                int total_bits, JoinHash kind) {
  std::uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (partition_of(join_hash(keys[mid], kind), total_bits) < p)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace subscale::join
