#pragma once
// What the hash stage reads: a table of fixed-width records, each `row_words` 32-bit words,
// stored row-major (row r is words[r * row_words .. (r + 1) * row_words)). A view: it does not
// own the words.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/backend.hpp"
#include "common/error.hpp"

namespace subscale::hash {

struct RowTableView {
  const std::uint32_t* words = nullptr;
  std::size_t rows = 0;
  int row_words = 1;

  const std::uint32_t* row(std::size_t r) const { return words + r * static_cast<std::size_t>(row_words); }
  std::size_t word_count() const { return rows * static_cast<std::size_t>(row_words); }
};

// Where the hashing runs (common/backend.hpp): both give the same bits.
inline Backend parse_backend(std::string_view name, std::string_view where = "backend") {
  if (const auto backend = parse_stage_backend_name(name)) return *backend;
  if (name == "gpu") return Backend::cuda;  // hash's own alias
  throw UsageError(std::string(where) + ": unknown backend '" + std::string(name) + "'; valid: cpu, cuda");
}

}  // namespace subscale::hash
