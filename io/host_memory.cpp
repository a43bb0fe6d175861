#include "io/host_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/error.hpp"

namespace subscale::io {
namespace {

std::optional<std::uint64_t> parse_count(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> read_count_file(const char* path) {
  std::ifstream input(path);
  std::string text;
  if (!(input >> text)) return std::nullopt;  // a missing file, or "max"
  return parse_count(text);
}

std::optional<std::uint64_t> meminfo_available() {
  std::ifstream input("/proc/meminfo");
  for (std::string line; std::getline(input, line);) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    std::uint64_t kib = 0;
    if (fields >> kib) return kib * 1024;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data() || !std::isfinite(value) || value < 0) return std::nullopt;
  std::string unit(end, text.data() + text.size());
  unit.erase(std::remove_if(unit.begin(), unit.end(), [&](char c) { return is_space(c); }), unit.end());
  // A single letter is binary, as Slurm's --mem=2G and ulimit read it.
  static constexpr std::pair<const char*, double> units[] = {
      {"", 1.0},     {"B", 1.0},       {"KB", 1e3},         {"MB", 1e6},           {"GB", 1e9},
      {"TB", 1e12},  {"KiB", 1024.0},  {"MiB", 1048576.0},  {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
      {"K", 1024.0}, {"M", 1048576.0}, {"G", 1073741824.0}, {"T", 1099511627776.0}};
  for (const auto& [name, factor] : units) {
    if (unit != name) continue;
    const double bytes = value * factor;
    if (bytes >= 18446744073709551615.0) return std::nullopt;
    return static_cast<std::uint64_t>(std::llround(bytes));
  }
  return std::nullopt;
}

std::uint64_t available_host_memory() {
  if (const char* text = std::getenv("SUBSCALE_AVAILABLE_MEMORY")) {
    if (const auto value = parse_byte_size(text)) return *value;
    throw UsageError(std::string("SUBSCALE_AVAILABLE_MEMORY is '") + text +
                     "', which is not a size in bytes; write e.g. 2G, 512M, 8GB or 1073741824, or unset it");
  }
  std::uint64_t available = meminfo_available().value_or(static_cast<std::uint64_t>(sysconf(_SC_AVPHYS_PAGES)) *
                                                         static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE)));
  // cgroup v2: the limit of this process's group minus what the group already uses.
  const auto limit = read_count_file("/sys/fs/cgroup/memory.max");
  const auto used = read_count_file("/sys/fs/cgroup/memory.current");
  if (limit && used) available = std::min(available, *limit > *used ? *limit - *used : 0);
  return available;
}

std::optional<std::uint64_t> checked_bytes(const std::vector<std::uint64_t>& extents, std::uint64_t element_bytes) {
  std::uint64_t bytes = element_bytes;
  for (const std::uint64_t extent : extents)
    if (__builtin_mul_overflow(bytes, extent, &bytes)) return std::nullopt;
  return bytes;
}

void check_host_allocation(std::optional<std::uint64_t> bytes, const std::string& what) {
  const std::uint64_t available = available_host_memory();
  if (bytes && *bytes <= available) return;
  throw ResourceError(what + " needs " + (bytes ? describe_bytes(*bytes) : std::string("more than 2^64 bytes")) +
                      " of memory, but only " + describe_bytes(available) +
                      " is available; use a machine with more memory, or a smaller input");
}

std::string describe_bytes(std::uint64_t bytes) {
  char text[64];
  const double value = static_cast<double>(bytes);
  if (bytes >= (std::uint64_t{1} << 40))
    std::snprintf(text, sizeof text, "%.1f TiB (%llu bytes)", value / 1099511627776.0,
                  static_cast<unsigned long long>(bytes));
  else if (bytes >= (std::uint64_t{1} << 30))
    std::snprintf(text, sizeof text, "%.1f GiB (%llu bytes)", value / 1073741824.0,
                  static_cast<unsigned long long>(bytes));
  else if (bytes >= (std::uint64_t{1} << 20))
    std::snprintf(text, sizeof text, "%.1f MiB", value / 1048576.0);
  else
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  return text;
}

}  // namespace subscale::io
