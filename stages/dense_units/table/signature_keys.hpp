#pragma once
// Per-point random keys (docs/method.md §5). The signature of a unit is the sum of its points' keys modulo
// 2^64; 128-bit signatures add a second independent key and sum. Keys come from a seeded
// generator, so a run repeats exactly.
#include <cstdint>
#include <string>
#include <vector>

namespace subscale {

enum class KeyScheme {
  uniform,   // uniform over all 64 bits
  subscale,  // uniform in [1e14, 2e14), as the original SUBSCALE code: plain bell-shaped sums
};

KeyScheme parse_key_scheme(const std::string& name);
const char* to_string(KeyScheme scheme);

struct SignatureKeys {
  KeyScheme scheme = KeyScheme::uniform;
  std::uint64_t seed = 0;
  std::vector<std::uint64_t> primary;    // K(p)
  std::vector<std::uint64_t> secondary;  // K2(p), independent of K
};

// Deterministic for (points, scheme, seed) on every platform: splitmix64 streams, no standard
// library distributions.
SignatureKeys make_signature_keys(std::uint32_t points, KeyScheme scheme, std::uint64_t seed);

inline constexpr std::uint64_t kSubscaleKeyLow = 100000000000000ULL;   // 1e14
inline constexpr std::uint64_t kSubscaleKeyHigh = 200000000000000ULL;  // 2e14

}  // namespace subscale
