#pragma once
// A regular expression of the supported subset as a bit-parallel Glushkov automaton over bytes
// (Navarro & Raffinot, "Flexible Pattern Matching in Strings", ch. 5): state bit p (1..63) means
// "the last byte read matched position p of the pattern"; bit 0 is the start state. One step is
// D' = Follow(D) & B[byte], where Follow(D) is the union of the follow sets of D's bits, looked up
// a byte of D at a time (8 tables of 256 words, 16 KiB: they fit a GPU block's shared memory).
// The step compiles for host and device, so both backends run the same automaton.
#include <cstdint>

#include "common/host_device.hpp"

namespace subscale::filter {

struct ByteAutomaton {
  static constexpr int max_positions = 63;

  std::uint64_t byte_mask[256] = {};  // the positions whose byte set contains the byte
  std::uint64_t follow[8][256] = {};  // follow[k][b]: union of Follow(p) for bits p = 8k+j of b
  std::uint64_t accept = 0;           // last positions; bit 0 when the pattern matches ""
  std::int32_t positions = 0;         // bits 1..positions are used
  bool anchored_begin = false;        // the pattern started with ^
  bool anchored_end = false;          // the pattern ended with $
};

SUBSCALE_HD std::uint64_t automaton_step(const std::uint64_t (*follow)[256], const std::uint64_t* byte_mask,
                                         bool anchored_begin, std::uint64_t state, std::uint8_t byte) {
  std::uint64_t next = 0;
  for (int k = 0; k < 8 && (state >> (8 * k)) != 0; ++k) next |= follow[k][(state >> (8 * k)) & 0xff];
  next &= byte_mask[byte];
  return anchored_begin ? next : next | 1u;
}

// Whether the pattern matches somewhere in text[0, n) (RE2's PartialMatch on Latin-1 bytes).
SUBSCALE_HD bool automaton_matches(const std::uint64_t (*follow)[256], const std::uint64_t* byte_mask,
                                   std::uint64_t accept, bool anchored_begin, bool anchored_end,
                                   const std::uint8_t* text, std::int64_t n) {
  std::uint64_t state = 1;
  if (!anchored_end && (state & accept)) return true;
  for (std::int64_t i = 0; i < n; ++i) {
    state = automaton_step(follow, byte_mask, anchored_begin, state, text[i]);
    if (state == 0) return false;
    if (!anchored_end && (state & accept)) return true;
  }
  return (state & accept) != 0;
}

inline bool automaton_matches(const ByteAutomaton& a, const std::uint8_t* text, std::int64_t n) {
  return automaton_matches(a.follow, a.byte_mask, a.accept, a.anchored_begin, a.anchored_end, text, n);
}

}  // namespace subscale::filter
