#pragma once
// Run-time names of the hash functions (host only): what a config or the command line says,
// parsed to a HashFunction id and printed back. The seed's families also have N-round versions,
// named with an "n_" prefix (the seed's convention: "xor_mult_hash" -> "n_xor_mult_hash").
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "common/text_distance.hpp"
#include "gpu/hash/hash_functions.hpp"

namespace subscale::hash {

// A function and how many times its loop runs over the record (1 unless an "n_" name).
struct HashSpec {
  HashFunction function = HashFunction::fmix64;
  int rounds = 1;
};

// Rounds an "n_" name gets when none is given: the seed limited its N versions to two rounds.
inline constexpr int kDefaultNRounds = 2;

inline constexpr std::array<std::string_view, kHashFunctionCount> kHashFunctionNames = {
    "fnv1a", "add",       "add_shift", "add_hw",   "mult",           "mult_shift",  "mult_hw",
    "xor",   "xor_shift", "xor_hw",    "mult_xor", "mult_xor_shift", "mult_xor_hw", "fmix64",
};

inline std::string_view hash_function_name(HashFunction f) {
  return kHashFunctionNames.at(static_cast<std::size_t>(f));
}

// Whether the function has N-round versions (the seed's Add, Mult, XOR and Mult-XOR families).
inline bool has_rounds(HashFunction f) { return f != HashFunction::fnv1a && f != HashFunction::fmix64; }

// Every accepted name, plain ones first, then the "n_" ones.
inline std::vector<std::string> hash_function_names() {
  std::vector<std::string> names(kHashFunctionNames.begin(), kHashFunctionNames.end());
  for (std::size_t i = 0; i < kHashFunctionNames.size(); ++i)
    if (has_rounds(static_cast<HashFunction>(i))) names.push_back("n_" + std::string(kHashFunctionNames[i]));
  return names;
}

inline std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// "xor_hw" -> {xor_hw, 1}; "n_xor_hw" -> {xor_hw, n_rounds}. `where` names the source of the
// text (a config key, an option) for the error message.
inline HashSpec parse_hash_spec(std::string_view name, int n_rounds = kDefaultNRounds,
                                std::string_view where = "hash function") {
  const bool n_version = name.starts_with("n_");
  const std::string_view base = n_version ? name.substr(2) : name;
  for (std::size_t i = 0; i < kHashFunctionNames.size(); ++i) {
    if (kHashFunctionNames[i] != base) continue;
    const auto f = static_cast<HashFunction>(i);
    if (n_version && !has_rounds(f)) break;  // n_fnv1a, n_fmix64: not a function of the seed
    if (n_version && n_rounds < 1)
      throw UsageError(std::string(where) + ": '" + std::string(name) + "' needs rounds >= 1, got " +
                       std::to_string(n_rounds));
    return HashSpec{f, n_version ? n_rounds : 1};
  }
  const auto names = hash_function_names();
  const std::string guess = nearest_word(name, names);
  throw UsageError(std::string(where) + ": unknown hash function '" + std::string(name) + "'" +
                   (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)") +
                   "; valid names: " + join_names(names));
}

inline HashFunction parse_hash_function(std::string_view name, std::string_view where = "hash function") {
  return parse_hash_spec(name, kDefaultNRounds, where).function;
}

// The name that parses back to the same function ("n_" when rounds > 1; the round count itself
// is reported beside it).
inline std::string hash_spec_name(const HashSpec& spec) {
  return (spec.rounds > 1 ? "n_" : "") + std::string(hash_function_name(spec.function));
}

// Hash widths: 32 or 64 bits.
inline int parse_hash_width(std::int64_t bits, std::string_view where = "hash width") {
  if (bits != 32 && bits != 64)
    throw UsageError(std::string(where) + ": " + std::to_string(bits) + " bits is not a hash width; use 32 or 64");
  return static_cast<int>(bits);
}

}  // namespace subscale::hash
