#include "stages/dense_units/direct_pair_table.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/host_memory.hpp"

namespace subscale {

std::uint64_t direct_pair_table_bytes(const DirectSpace& space) {
  const std::uint64_t n = space.points, per_pair = std::uint64_t{space.key_words()} * 8;
  const std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  if (n != 0 && n > most / n) return most;
  return n * n > most / per_pair ? most : n * n * per_pair;
}

std::uint64_t default_pair_table_budget() { return std::min(kDirectPairTableBytes, io::available_host_memory() / 4); }

bool pair_table_pays(const DirectSpace& space, std::uint64_t units) {
  return units >= direct_pair_table_bytes(space) / 8;
}

namespace {

// Columns first, so that a row of the table is filled one dimension at a time over contiguous
// values (the loop over the other points vectorises).
template <class T>
std::vector<std::uint64_t> build_held(const DirectSpace& space) {
  const std::uint32_t n = space.points, d = space.dimensions, words = space.key_words();
  const std::vector<T>& rows = space.held_rows<T>();
  std::vector<T> columns(std::size_t{n} * d);
  for (std::uint32_t p = 0; p < n; ++p)
    for (std::uint32_t j = 0; j < d; ++j) columns[std::size_t{j} * n + p] = rows[std::size_t{p} * d + j];
  const T eps = held_epsilon<T>(space.epsilon);
  std::vector<std::uint64_t> table(std::size_t{n} * n * words);
  tbb::parallel_for(std::uint32_t{0}, n, [&](std::uint32_t a) {
    std::uint64_t* row = table.data() + std::size_t{a} * n * words;
    // A block of the other points at a time, its words kept in L1 while every dimension passes.
    constexpr std::uint32_t kBlock = 256;
    std::uint64_t close[kBlock];
    for (std::uint32_t w = 0; w < words; ++w) {
      const std::uint32_t dims = std::min(64u, d - w * 64);
      for (std::uint32_t from = 0; from < n; from += kBlock) {
        const std::uint32_t count = std::min(kBlock, n - from);
        std::fill_n(close, count, 0);
        for (std::uint32_t bit = 0; bit < dims; ++bit) {
          const T* column = columns.data() + std::size_t{w * 64 + bit} * n;
          const T value = column[a];
          const T* others = column + from;
          const std::uint64_t mask = std::uint64_t{1} << bit;
          for (std::uint32_t b = 0; b < count; ++b)
            close[b] |= spans_less_than(T{0}, std::fabs(others[b] - value), eps) ? mask : 0;
        }
        for (std::uint32_t b = 0; b < count; ++b) row[std::size_t{from + b} * words + w] = close[b];
      }
    }
  });
  return table;
}

}  // namespace

std::vector<std::uint64_t> build_direct_pair_table(const DirectSpace& space, std::uint64_t budget) {
  if (space.points == 0 || direct_pair_table_bytes(space) > budget) return {};
  return space.visit_precision([&](auto held) { return build_held<decltype(held)>(space); });
}

}  // namespace subscale
