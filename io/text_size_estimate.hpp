#pragma once
// How many numbers a text data file (CSV, ARFF) holds, estimated before it is read: the numbers
// per byte of its first data lines (up to 1 MiB) times the bytes that follow. The text readers
// hold every number twice while they read (as parsed, then in the matrix), so a file that cannot
// fit is refused up front, with its size, instead of the kernel killing the process part-way.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace subscale::io {

struct TextSizeEstimate {
  std::uint64_t file_bytes = 0;
  std::uint64_t numbers = 0;  // estimated (exact when the sample reached the end of the file)
  bool exact = false;
};

// `numbers_on_line` says how many numbers a line holds (0 for headers, comments, blank lines); it
// sees the lines in order, so it may keep state (an ARFF header ends at @data).
TextSizeEstimate estimate_text_numbers(const std::string& path,
                                       const std::function<std::uint64_t(std::string_view line)>& numbers_on_line);

// Throws ResourceError (exit 4) naming the file, its size, the numbers and the memory they need
// (8 bytes each, twice) when that is more than the memory available.
void check_text_fits_in_memory(const std::string& path, const std::string& format, const TextSizeEstimate& estimate);

}  // namespace subscale::io
