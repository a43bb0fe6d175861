#include "stages/dense_units/table/signature_keys.hpp"

#include "common/error.hpp"

namespace subscale {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Uniform in [0, range) without modulo bias (Lemire's multiply-shift with rejection).
std::uint64_t uniform_below(std::uint64_t& state, std::uint64_t range) {
  while (true) {
    const unsigned __int128 product = static_cast<unsigned __int128>(splitmix64(state)) * range;
    const auto low = static_cast<std::uint64_t>(product);
    if (low >= (-range) % range) return static_cast<std::uint64_t>(product >> 64);
  }
}

std::vector<std::uint64_t> draw_keys(std::uint32_t points, KeyScheme scheme, std::uint64_t stream_seed) {
  std::vector<std::uint64_t> keys(points);
  std::uint64_t state = stream_seed;
  for (auto& key : keys) {
    key = scheme == KeyScheme::uniform ? splitmix64(state)
                                       : kSubscaleKeyLow + uniform_below(state, kSubscaleKeyHigh - kSubscaleKeyLow);
  }
  return keys;
}

}  // namespace

KeyScheme parse_key_scheme(const std::string& name) {
  if (name == "uniform") return KeyScheme::uniform;
  if (name == "subscale") return KeyScheme::subscale;
  throw ParameterErrorOf<UsageError>(Parameter::signature_keys, name,
                                     "is '" + name + "'; valid values: uniform, subscale");
}

const char* to_string(KeyScheme scheme) { return scheme == KeyScheme::uniform ? "uniform" : "subscale"; }

SignatureKeys make_signature_keys(std::uint32_t points, KeyScheme scheme, std::uint64_t seed) {
  SignatureKeys keys;
  keys.scheme = scheme;
  keys.seed = seed;
  // Two streams far apart in splitmix64's sequence space: independent for all practical purposes.
  keys.primary = draw_keys(points, scheme, seed);
  keys.secondary = draw_keys(points, scheme, seed ^ 0x6a09e667f3bcc909ULL);
  return keys;
}

}  // namespace subscale
