#pragma once
// The resolved form of JoinOptions that the backends run with: no "auto" left in it.
#include <cstdint>

#include "stages/join/radix_layout.hpp"

namespace subscale::join {

struct JoinSettings {
  RadixLayout layout;
  JoinHash hash = JoinHash::fmix64;
  std::uint32_t probe_chunk = 4096;
  std::uint64_t memory_budget_bytes = 0;  // resolved: never 0
};

}  // namespace subscale::join
