#include "pipeline/settings/levels_setting.hpp"

#include <charconv>
#include <sstream>

#include "common/error.hpp"

namespace subscale::pipeline {
namespace {

std::uint32_t number_of(const std::string& text, const std::string& entry) {
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    throw UsageError("levels: '" + entry +
                     "' is not DIM:CORE:MERGE with three whole numbers (e.g. 3:1:4); write auto or none otherwise");
  return value;
}

}  // namespace

std::vector<significance::LevelReach> parse_levels(const std::string& text) {
  std::vector<significance::LevelReach> levels;
  if (text == "none" || text.empty()) return levels;
  std::stringstream entries(text);
  std::string entry;
  while (std::getline(entries, entry, ',')) {
    const auto first = entry.find(':');
    const auto second = first == std::string::npos ? first : entry.find(':', first + 1);
    if (second == std::string::npos || entry.find(':', second + 1) != std::string::npos)
      throw UsageError("levels: '" + entry +
                       "' is not DIM:CORE:MERGE (e.g. 3:1:4: dimension 3, the core linking adjacent levels, merge up "
                       "to 4 levels apart); write auto or none otherwise");
    const significance::LevelReach reach{number_of(entry.substr(0, first), entry),
                                         number_of(entry.substr(first + 1, second - first - 1), entry),
                                         number_of(entry.substr(second + 1), entry)};
    if (!levels.empty() && reach.dimension <= levels.back().dimension)
      throw UsageError("levels: the dimensions must be listed once each, ascending ('" + entry + "' after dimension " +
                       std::to_string(levels.back().dimension) + ")");
    levels.push_back(reach);
  }
  return levels;
}

std::string format_levels(const std::vector<significance::LevelReach>& levels) {
  if (levels.empty()) return "none";
  std::string text;
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on the chain of + it
  // inlines otherwise.
  for (const auto& r : levels) {
    if (!text.empty()) text += ',';
    text += std::to_string(r.dimension);
    text += ':';
    text += std::to_string(r.core);
    text += ':';
    text += std::to_string(r.search);
  }
  return text;
}

}  // namespace subscale::pipeline
