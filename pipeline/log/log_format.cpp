#include "pipeline/log/log_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace subscale::pipeline {

std::string format_count(std::uint64_t value) {
  std::ostringstream out;
  if (value >= 1'000'000'000)
    out << std::fixed << std::setprecision(2) << value / 1e9 << " G";
  else if (value >= 1'000'000)
    out << std::fixed << std::setprecision(2) << value / 1e6 << " M";
  else
    out << value;
  return out.str();
}

std::string noun_for(std::uint64_t count, const std::string& noun, const std::string& plural) {
  if (count == 1) return noun;
  return plural.empty() ? noun + "s" : plural;
}

std::string counted(std::uint64_t count, const std::string& noun, const std::string& plural) {
  return std::to_string(count) + " " + noun_for(count, noun, plural);
}

std::string duration_text(double seconds) {
  char text[64];
  if (seconds < 60)
    std::snprintf(text, sizeof text, "%.0f s", std::max(1.0, seconds));
  else if (seconds < 3600)
    std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
  else if (seconds < 48 * 3600)
    std::snprintf(text, sizeof text, "%.0f h %.0f min", std::floor(seconds / 3600), std::fmod(seconds, 3600) / 60);
  else
    std::snprintf(text, sizeof text, "%.0f days", seconds / 86400);
  return text;
}

std::string format_bytes(double bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1);
  if (bytes >= 1 << 30)
    out << bytes / (1 << 30) << " GiB";
  else
    out << bytes / (1 << 20) << " MiB";
  return out.str();
}

}  // namespace subscale::pipeline
