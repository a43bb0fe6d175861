#pragma once
// What a caller chooses for a join: the backend, the hash, the radix layout (or "auto"), the size
// of a probe work item and the memory budget. Plain values; validate() names a bad field.
#include <cstdint>
#include <string>

#include "common/backend.hpp"
#include "stages/join/join_hash.hpp"

namespace subscale::join {

struct JoinOptions {
  Backend backend = Backend::cpu;
  JoinHash hash = JoinHash::fmix64;
  int radix_bits = 0;                     // bits per radix pass, 1..11; 0 = chosen from |R|
  int passes = 0;                         // radix passes, 1..4; 0 = chosen from |R|
  std::uint32_t probe_chunk = 4096;       // at most this many S tuples per probe work item
  std::uint64_t memory_budget_bytes = 0;  // working memory of the backend; 0 = most of what is free
  bool sort_output = false;               // pairs ordered by (S row, R row); else unspecified order
};

inline constexpr int kMaxRadixBitsPerPass = 11;
inline constexpr int kMaxRadixPasses = 4;
inline constexpr int kMaxPartitionBits = 24;
// Rows are stored as 32-bit indices (4 bytes less per tuple moved); one value is kept free.
inline constexpr std::uint64_t kMaxJoinRows = 0xFFFFFFFEull;

// Throws UsageError naming the first invalid field.
void validate(const JoinOptions& options);

Backend parse_backend(const std::string& text);  // "cpu" | "cuda"; UsageError otherwise
std::string to_string(JoinHash hash);
JoinHash parse_join_hash(const std::string& text);

}  // namespace subscale::join
