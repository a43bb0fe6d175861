#include "datasets/generators/join_generators.hpp"

#include <tbb/parallel_for.h>

#include <cmath>
#include <random>
#include <string>

#include "common/error.hpp"
#include "datasets/generators/zipf_sampler.hpp"
#include "gpu/hash/hash_functions.hpp"

namespace subscale::join {

namespace {

constexpr std::uint64_t kChunk = 1 << 16;  // one random stream per chunk: thread-count independent

std::uint64_t salt(std::uint64_t seed) { return hash::fmix64(seed ^ 0x6a6f696e6b657973ULL); }

// Fills out[i] = draw(rng, i) in parallel, chunk c using its own generator seeded from (seed,
// stream, c).
template <class Draw>
void fill(std::vector<std::uint64_t>& out, std::uint64_t seed, std::uint64_t stream, Draw draw) {
  const std::uint64_t chunks = (out.size() + kChunk - 1) / kChunk;
  tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t c) {
    std::mt19937_64 rng(hash::fmix64(hash::fmix64(seed + stream * 0x9e3779b97f4a7c15ULL) + c));
    const std::uint64_t end = std::min<std::uint64_t>(out.size(), (c + 1) * kChunk);
    for (std::uint64_t i = c * kChunk; i < end; ++i) out[i] = draw(rng, i);
  });
}

void check_rows(std::uint64_t r_rows, std::uint64_t s_rows) {
  constexpr std::uint64_t kMax = 0xFFFFFFFEull;
  if (r_rows > kMax || s_rows > kMax)
    throw UsageError("join generator: at most " + std::to_string(kMax) + " rows per relation");
}

}  // namespace

std::uint64_t generated_key(std::uint64_t index, std::uint64_t seed) { return hash::fmix64(index + salt(seed)); }

JoinRelations generate_uniform(const UniformJoinSpec& spec) {
  check_rows(spec.r_rows, spec.s_rows);
  if (!(spec.overlap >= 0.0 && spec.overlap <= 1.0))
    throw UsageError("join generator: overlap must be in [0, 1], not " + std::to_string(spec.overlap));
  JoinRelations out;
  out.r_keys.resize(spec.r_rows);
  out.s_keys.resize(spec.s_rows);
  const std::uint64_t seed = spec.seed;
  const std::uint64_t domain = spec.r_rows;
  fill(out.r_keys, seed, 1, [&](std::mt19937_64& rng, std::uint64_t i) {
    if (spec.r_unique) return generated_key(i, seed);
    return generated_key(std::uniform_int_distribution<std::uint64_t>(0, domain - 1)(rng), seed);
  });
  fill(out.s_keys, seed, 2, [&](std::mt19937_64& rng, std::uint64_t) {
    const bool match = domain > 0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng) < spec.overlap;
    if (match) return generated_key(std::uniform_int_distribution<std::uint64_t>(0, domain - 1)(rng), seed);
    // Indices >= domain are outside R's domain, hence keys no R tuple has (fmix64 is a bijection).
    return generated_key(domain + std::uniform_int_distribution<std::uint64_t>(0, 1ULL << 62)(rng), seed);
  });
  return out;
}

JoinRelations generate_zipf(const ZipfJoinSpec& spec) {
  check_rows(spec.r_rows, spec.s_rows);
  const ZipfSampler zipf(std::max<std::uint64_t>(spec.r_rows, 1), spec.alpha);
  JoinRelations out;
  out.r_keys.resize(spec.r_rows);
  out.s_keys.resize(spec.s_rows);
  const std::uint64_t seed = spec.seed;
  fill(out.r_keys, seed, 3,
       [&](std::mt19937_64& rng, std::uint64_t i) { return generated_key(spec.zipf_r ? zipf(rng) - 1 : i, seed); });
  fill(out.s_keys, seed, 4, [&](std::mt19937_64& rng, std::uint64_t) { return generated_key(zipf(rng) - 1, seed); });
  return out;
}

}  // namespace subscale::join
