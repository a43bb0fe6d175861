#pragma once
// A bucket-chained hash table over one partition of R (the seed's layout): heads[bucket] holds
// the newest tuple of the bucket, next[i] the tuple inserted before i, kEndOfChain ends a chain.
// Indices are local to the partition. Chaining (not open addressing) keeps inserts O(1) even
// when every key of the partition is equal, and needs no sentinel key value, so every 64-bit key
// is a valid join key. The same probe code runs on the host and on the device; only the build
// differs (sequential on the host, atomicExch on the device).
#include <cstdint>

#include "common/host_device.hpp"
#include "stages/join/join_hash.hpp"

namespace subscale::join {

inline constexpr std::uint32_t kEndOfChain = 0xFFFFFFFFu;

struct ChainedTableView {
  const std::uint64_t* keys = nullptr;   // the partition's R keys, local index i
  const std::uint32_t* heads = nullptr;  // 2^bucket_bits entries
  const std::uint32_t* next = nullptr;   // one per R tuple of the partition
  int total_bits = 0;                    // partition bits of the hash (skipped for buckets)
  int bucket_bits = 0;
};

// Calls emit(i) for every R tuple i of the partition whose key equals `key`; returns how many.
// A bucket match is only a hash match: the full 64-bit key is compared before emitting.
template <class Emit>
SUBSCALE_HD std::uint32_t probe_chain(const ChainedTableView& table, std::uint64_t key, std::uint64_t hash,
                                      Emit&& emit) {
  std::uint32_t matches = 0;
  for (std::uint32_t i = table.heads[bucket_of(hash, table.total_bits, table.bucket_bits)]; i != kEndOfChain;
       i = table.next[i]) {
    if (table.keys[i] == key) {
      emit(i);
      ++matches;
    }
  }
  return matches;
}

}  // namespace subscale::join
