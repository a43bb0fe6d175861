#pragma once
// A seeded random stream whose output is fixed by the C++ standard: std::mt19937_64's sequence is
// specified exactly, but std::uniform_real_distribution and friends are not (libstdc++, libc++
// and MSVC give different values). The conversions here are plain integer arithmetic, so a seed
// gives the same dataset on every platform and compiler.
#include <cstdint>
#include <random>

namespace subscale::datasets {

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}

  std::uint64_t bits() { return engine_(); }

  // Uniform in [0, 1): the top 53 bits as a multiple of 2^-53, exactly representable.
  double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  // Uniform in [0, bound), bound > 0, without modulo bias: draws at or above the largest
  // multiple of bound that fits in 2^64 are rejected (at most half of them, usually almost none).
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t limit = bound * (UINT64_MAX / bound);  // largest multiple of bound <= 2^64 - 1
    std::uint64_t x = engine_();
    while (x >= limit) x = engine_();
    return x % bound;
  }

  // Uniform integer in [low, high], low <= high.
  std::uint64_t between(std::uint64_t low, std::uint64_t high) {
    return high - low == UINT64_MAX ? engine_() : low + below(high - low + 1);
  }

 private:
  std::mt19937_64 engine_;
};

// Derives independent stream seeds from one user seed (splitmix64's finaliser), so the streams
// for the cluster layout and for the point values do not share a sequence.
inline std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (stream + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace subscale::datasets
