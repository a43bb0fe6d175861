#include "io/text_size_estimate.hpp"

#include <filesystem>
#include <fstream>

#include "io/host_memory.hpp"

namespace subscale::io {
namespace {

constexpr std::uint64_t kSampleBytes = std::uint64_t{1} << 20;

}  // namespace

TextSizeEstimate estimate_text_numbers(const std::string& path,
                                       const std::function<std::uint64_t(std::string_view line)>& numbers_on_line) {
  TextSizeEstimate estimate;
  std::error_code error;
  estimate.file_bytes = std::filesystem::file_size(path, error);
  if (error) return estimate;  // the reader reports the missing or unreadable file itself
  std::ifstream input(path, std::ios::binary);
  std::uint64_t read_bytes = 0, data_bytes = 0, numbers = 0;
  std::string line;
  while (read_bytes < kSampleBytes && std::getline(input, line)) {
    const std::uint64_t line_bytes = line.size() + 1;
    read_bytes += line_bytes;
    const std::uint64_t on_line = numbers_on_line(line);
    numbers += on_line;
    if (on_line > 0 || data_bytes > 0) data_bytes += line_bytes;  // from the first data line on
  }
  estimate.exact = !input || read_bytes >= estimate.file_bytes;
  if (estimate.exact || data_bytes == 0) {
    estimate.numbers = numbers;
    return estimate;
  }
  const double rest = static_cast<double>(estimate.file_bytes - std::min(read_bytes, estimate.file_bytes));
  estimate.numbers =
      numbers + static_cast<std::uint64_t>(rest * static_cast<double>(numbers) / static_cast<double>(data_bytes));
  return estimate;
}

void check_text_fits_in_memory(const std::string& path, const std::string& format, const TextSizeEstimate& estimate) {
  const auto bytes = checked_bytes({estimate.numbers, 2}, sizeof(double));
  if (bytes && *bytes <= available_host_memory()) return;
  const bool vowel = !format.empty() && std::string_view("AEIOU").find(format.front()) != std::string_view::npos;
  check_host_allocation(
      bytes, path + " (" + (vowel ? "an " : "a ") + format + " file of " + describe_bytes(estimate.file_bytes) +
                 " with " + (estimate.exact ? "" : "about ") + std::to_string(estimate.numbers) + " numbers" +
                 (estimate.exact ? "" : " by its first lines") + ", each held twice while it is read)");
}

}  // namespace subscale::io
