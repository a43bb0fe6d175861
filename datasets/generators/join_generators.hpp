#pragma once
// Seeded generators of join inputs (docs/stages.md §3), the two distributions of the seed thesis. Keys
// are key_of(i) = fmix64(i + salt(seed)): fmix64 is a bijection of 64-bit words, so distinct i
// give distinct keys, and the keys look random to the partitioner. The output depends only on
// the spec (not on the number of threads).
#include <cstdint>
#include <vector>

namespace subscale::join {

struct JoinRelations {
  std::vector<std::uint64_t> r_keys;
  std::vector<std::uint64_t> s_keys;
};

// R: key_of(0 .. r_rows - 1) (a primary key) when r_unique, otherwise r_rows draws from that
// domain (duplicates). S: each tuple, with probability `overlap`, a uniform draw from R's domain
// (with a unique R: exactly one match), else a key outside it (no match).
struct UniformJoinSpec {
  std::uint64_t r_rows = 0;
  std::uint64_t s_rows = 0;
  double overlap = 1.0;
  bool r_unique = true;
  std::uint64_t seed = 1;
};

// R: key_of(0 .. r_rows - 1) unless zipf_r. S (and R when zipf_r): key_of(k - 1) with rank k
// drawn from Zipf(alpha) over 1..r_rows, so key_of(0) is the most frequent (a foreign key with
// skew; alpha = 0 is uniform).
struct ZipfJoinSpec {
  std::uint64_t r_rows = 0;
  std::uint64_t s_rows = 0;
  double alpha = 1.0;
  bool zipf_r = false;
  std::uint64_t seed = 1;
};

JoinRelations generate_uniform(const UniformJoinSpec& spec);
JoinRelations generate_zipf(const ZipfJoinSpec& spec);

// The key of domain index i for a seed (exposed for tests).
std::uint64_t generated_key(std::uint64_t index, std::uint64_t seed);

}  // namespace subscale::join
