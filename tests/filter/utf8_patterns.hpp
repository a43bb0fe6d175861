#pragma once
// Random regexes and texts over UTF-8 characters that share leading bytes, for the filter's regex
// tests on both backends: patterns that often start with an alternation such as (é|ß).
#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "stages/filter/byte_automaton.hpp"

namespace subscale::filter::testing {

// Characters whose UTF-8 forms share their first byte(s): é è à ß (C3 ..), 😀 😁 (F0 9F 98 ..),
// and ASCII.
inline const std::vector<std::string> utf8_characters = {"\xc3\xa9",         "\xc3\xa8",         "\xc3\xa0", "\xc3\x9f",
                                                         "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x81", "a",        "b"};

inline std::string pick(std::mt19937_64& rng) {
  return utf8_characters[std::uniform_int_distribution<std::size_t>(0, utf8_characters.size() - 1)(rng)];
}

// A random pattern that often starts with an alternation of characters sharing a leading byte,
// small enough for the automaton's 63 positions.
inline std::string random_utf8_pattern(std::mt19937_64& rng, int depth = 0) {
  std::uniform_int_distribution<int> die(0, 9);
  std::string out;
  const int pieces = 1 + die(rng) % 3;
  for (int i = 0; i < pieces; ++i) {
    const int kind = die(rng);
    std::string atom;
    if (kind < 4) {
      atom = pick(rng);
    } else if (kind == 4) {
      atom = ".";
    } else if (depth < 1) {
      atom = "(" + random_utf8_pattern(rng, depth + 1);
      for (int branches = 1 + die(rng) % 2; branches > 0; --branches) atom += "|" + random_utf8_pattern(rng, depth + 1);
      atom += ")";
    } else {
      atom = "(" + pick(rng) + "|" + pick(rng) + ")";
    }
    const int quantifier = die(rng);
    if (quantifier == 0) atom = "(" + atom + ")*";
    if (quantifier == 1) atom = "(" + atom + ")+";
    if (quantifier == 2) atom = "(" + atom + ")?";
    out += atom;
  }
  if (depth == 0) {
    if (die(rng) < 4) out = "(" + pick(rng) + "|" + pick(rng) + ")" + out;  // the shape RE2 missed
    if (die(rng) < 1) out = "^" + out;
    if (die(rng) < 1) out += "$";
  }
  return out;
}

// A random pattern within the automaton's limit: every byte but ( ) | * + ? ^ $ is one position.
inline std::string random_small_pattern(std::mt19937_64& rng) {
  for (;;) {
    std::string pattern = random_utf8_pattern(rng);
    const auto positions = std::count_if(pattern.begin(), pattern.end(), [](char c) {
      return std::string_view("()|*+?^$").find(c) == std::string_view::npos;
    });
    if (positions <= ByteAutomaton::max_positions) return pattern;
  }
}

inline std::string random_utf8_text(std::mt19937_64& rng) {
  std::string text;
  for (int n = std::uniform_int_distribution<int>(0, 8)(rng); n > 0; --n) text += pick(rng);
  if (std::uniform_int_distribution<int>(0, 4)(rng) == 0) text += "\n";
  return text;
}

}  // namespace subscale::filter::testing
