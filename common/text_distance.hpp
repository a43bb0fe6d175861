#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace subscale {

// Levenshtein edit distance, used to suggest the nearest valid key or choice in error messages.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, or "" when none is close enough to be a plausible typo.
std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace subscale
