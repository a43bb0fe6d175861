#include "datasets/generators/hash_input_generator.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <numbers>
#include <string>

#include "common/error.hpp"
#include "gpu/hash/hash_functions.hpp"

namespace subscale::hash {

InputDistribution parse_input_distribution(std::string_view name, std::string_view where) {
  if (name == "normal") return InputDistribution::normal;
  if (name == "uniform") return InputDistribution::uniform;
  if (name == "sequential") return InputDistribution::sequential;
  throw UsageError(std::string(where) + ": unknown distribution '" + std::string(name) +
                   "'; valid: normal, uniform, sequential");
}

std::string_view input_distribution_name(InputDistribution d) {
  switch (d) {
    case InputDistribution::normal:
      return "normal";
    case InputDistribution::uniform:
      return "uniform";
    case InputDistribution::sequential:
      return "sequential";
  }
  return "?";
}

namespace {

// A counter-based generator: the i-th 64-bit value of stream `seed` (splitmix64's output step
// on seed-scrambled counters). Counter-based so any block of words can be produced on its own.
std::uint64_t random64(std::uint64_t seed, std::uint64_t i) {
  return fmix64(fmix64(seed ^ 0xD1B54A32D192ED03ULL) + (i + 1) * 0x9E3779B97F4A7C15ULL);
}

// A uniform double in (0, 1): 53 random bits, never 0 (log(0) in Box-Muller).
double uniform_open(std::uint64_t bits) { return (static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53; }

std::uint32_t scale_to_word(double unit_value) {
  // Values outside [0, 1) (a normal's tails) are clamped to the word range: 2^32 - 1 and 0.
  const double scaled = std::floor(unit_value * 4294967296.0);
  if (!(scaled > 0.0)) return 0;
  if (scaled >= 4294967295.0) return 0xFFFFFFFFu;
  return static_cast<std::uint32_t>(scaled);
}

}  // namespace

std::vector<std::uint32_t> generate_rows(const InputSpec& spec) {
  if (spec.row_words < 1) throw UsageError("generator: row_words must be >= 1, got " + std::to_string(spec.row_words));
  if (spec.distribution == InputDistribution::normal && !(spec.stddev > 0.0))
    throw UsageError("generator: stddev must be > 0, got " + std::to_string(spec.stddev));
  const std::size_t words = spec.rows * static_cast<std::size_t>(spec.row_words);
  std::vector<std::uint32_t> out(words);
  // Pairs of words: Box-Muller turns two uniforms into two independent normals.
  const std::size_t pairs = (words + 1) / 2;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs, 1 << 14), [&](const auto& range) {
    for (std::size_t p = range.begin(); p < range.end(); ++p) {
      const std::size_t i = 2 * p;
      std::uint32_t a = 0;
      std::uint32_t b = 0;
      switch (spec.distribution) {
        case InputDistribution::normal: {
          const double u1 = uniform_open(random64(spec.seed, i));
          const double u2 = uniform_open(random64(spec.seed, i + 1));
          const double radius = std::sqrt(-2.0 * std::log(u1));
          const double angle = 2.0 * std::numbers::pi * u2;
          a = scale_to_word(spec.mean + spec.stddev * radius * std::cos(angle));
          b = scale_to_word(spec.mean + spec.stddev * radius * std::sin(angle));
          break;
        }
        case InputDistribution::uniform: {
          const std::uint64_t bits = random64(spec.seed, p);
          a = static_cast<std::uint32_t>(bits);
          b = static_cast<std::uint32_t>(bits >> 32);
          break;
        }
        case InputDistribution::sequential: {
          const auto k = static_cast<std::size_t>(spec.row_words);
          a = (i % k == 0) ? static_cast<std::uint32_t>(i / k) : 0;
          b = ((i + 1) % k == 0) ? static_cast<std::uint32_t>((i + 1) / k) : 0;
          break;
        }
      }
      out[i] = a;
      if (i + 1 < words) out[i + 1] = b;
    }
  });
  return out;
}

}  // namespace subscale::hash
