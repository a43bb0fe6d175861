#include "stages/join/join_options.hpp"

#include "common/error.hpp"

namespace subscale::join {

void validate(const JoinOptions& options) {
  if (options.radix_bits < 0 || options.radix_bits > kMaxRadixBitsPerPass)
    throw UsageError("join.radix_bits = " + std::to_string(options.radix_bits) + " is out of range: use 1.." +
                     std::to_string(kMaxRadixBitsPerPass) + " bits per pass, or 0 (auto)");
  if (options.passes < 0 || options.passes > kMaxRadixPasses)
    throw UsageError("join.passes = " + std::to_string(options.passes) + " is out of range: use 1.." +
                     std::to_string(kMaxRadixPasses) + ", or 0 (auto)");
  if (options.radix_bits * options.passes > kMaxPartitionBits)
    throw UsageError("join.radix_bits x join.passes = " + std::to_string(options.radix_bits * options.passes) +
                     " partition bits; at most " + std::to_string(kMaxPartitionBits) +
                     " are allowed (16 M partitions): lower radix_bits or passes");
  if (options.probe_chunk == 0) throw UsageError("join.probe_chunk must be at least 1 S tuple per work item");
}

Backend parse_backend(const std::string& text) {
  if (const auto backend = parse_stage_backend_name(text)) return *backend;
  throw UsageError("unknown join backend '" + text + "': use cpu or cuda");
}

std::string to_string(JoinHash hash) { return hash == JoinHash::fnv1a64 ? "fnv1a64" : "fmix64"; }

JoinHash parse_join_hash(const std::string& text) {
  if (text == "fmix64") return JoinHash::fmix64;
  if (text == "fnv1a64") return JoinHash::fnv1a64;
  throw UsageError("unknown join hash '" + text + "': use fmix64 or fnv1a64");
}

}  // namespace subscale::join
