#include "stages/dense_units/direct/direct_pair_table.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "io/host_memory.hpp"
#include "stages/dense_units/direct/direct_walker.hpp"

namespace subscale {

std::uint32_t pair_table_word_bytes(const DirectSpace& space) {
  return space.dimensions <= 16 ? 2 : space.dimensions <= 32 ? 4 : 8;
}

std::uint64_t DirectPairTable::operator[](std::size_t i) const {
  return dense_units::direct::PairRow{data(), word_bytes_}[i];
}

std::uint64_t direct_pair_table_bytes(const DirectSpace& space) {
  const std::uint64_t n = space.points, per_pair = std::uint64_t{space.key_words()} * pair_table_word_bytes(space);
  const std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  if (n != 0 && n > most / n) return most;
  return n * n > most / per_pair ? most : n * n * per_pair;
}

std::uint64_t default_pair_table_budget() { return std::min(kDirectPairTableBytes, io::available_host_memory() / 4); }

bool pair_table_pays(const DirectSpace& space, std::uint64_t units) {
  return units >= direct_pair_table_bytes(space) / pair_table_word_bytes(space);
}

bool pair_table_wanted(const DirectSpace& space, std::uint64_t units, std::uint64_t asked_bytes,
                       std::uint64_t default_budget) {
  if (asked_bytes != 0) return direct_pair_table_bytes(space) <= asked_bytes;
  return pair_table_pays(space, units) && direct_pair_table_bytes(space) <= default_budget;
}

namespace {

// A dimension is swept (every other point compared, 64 bits of a row at a time, the loop
// vectorised) when its points have many close neighbours, and scanned otherwise: from the point's
// place in the dimension's sorted order outward, only as far as the neighbours stay close. Sorted
// values only grow away from the point, and so does their rounded difference with it, so the first
// one that is not close ends each direction, and the bits are the sweep's. Sweeping costs about a
// comparison per point pair, scanning a few per close pair. S1500 at 0.005 (tens of close
// neighbours a point and dimension) took 0.036 s swept and 0.016 s scanned on one thread, 0.025 and
// 0.008 s on two, the rows no longer zeroed first by one thread.
constexpr std::uint64_t kScanCostPerPair = 4;

template <class T>
class HeldPairTableBuilder {
 public:
  explicit HeldPairTableBuilder(const DirectSpace& space)
      : space_(space),
        n_(space.points),
        d_(space.dimensions),
        words_(space.key_words()),
        eps_(held_epsilon<T>(space.epsilon)) {
    const std::vector<T>& rows = space.held_rows<T>();
    place_.resize(std::size_t{n_} * d_);
    sorted_values_.resize(std::size_t{n_} * d_);
    std::vector<std::uint8_t> ascending(d_, 1);
    tbb::parallel_for(std::uint32_t{0}, d_, [&](std::uint32_t j) {
      const std::uint32_t* order = space.sorted.data() + std::size_t{j} * n_;
      T* values = sorted_values_.data() + std::size_t{j} * n_;
      for (std::uint32_t i = 0; i < n_; ++i) {
        place_[std::size_t{j} * n_ + order[i]] = i;
        values[i] = rows[std::size_t{order[i]} * d_ + j];
        // The order comes from the 1-D stage, which may have sorted the values in another
        // precision; a scan needs them ascending in the held one.
        if (i > 0 && values[i] < values[i - 1]) ascending[j] = 0;
      }
    });
    for (std::uint32_t j = 0; j < d_; ++j) (ascending[j] != 0 && scans(j) ? scanned_ : swept_).push_back(j);
    if (!swept_.empty()) {
      columns_.resize(std::size_t{n_} * swept_.size());
      for (std::size_t s = 0; s < swept_.size(); ++s)
        for (std::uint32_t p = 0; p < n_; ++p) columns_[s * n_ + p] = rows[std::size_t{p} * d_ + swept_[s]];
    }
  }

  // Row a of the table: word w of point b at b * words.
  void fill_row(std::uint32_t a, std::uint64_t* row) const {
    std::fill_n(row, std::size_t{n_} * words_, 0);
    if (!swept_.empty()) sweep(a, row);
    for (const std::uint32_t j : scanned_) scan(a, j, row);
  }

 private:
  // Close pairs of dimension j (its windows' sizes, an estimate) against n comparisons a point.
  bool scans(std::uint32_t j) const {
    std::uint64_t pairs = 0;
    for (std::uint32_t i = 0; i < n_; ++i) pairs += space_.window_end[std::size_t{j} * n_ + i] - i - 1;
    return 2 * pairs * kScanCostPerPair < std::uint64_t{n_} * n_;
  }

  bool close(T x, T y) const { return pair_within(x, y, eps_); }

  void scan(std::uint32_t a, std::uint32_t j, std::uint64_t* row) const {
    const std::uint32_t* order = space_.sorted.data() + std::size_t{j} * n_;
    const T* values = sorted_values_.data() + std::size_t{j} * n_;
    const std::uint32_t at = place_[std::size_t{j} * n_ + a];
    const T x = values[at];
    const std::uint64_t bit = std::uint64_t{1} << (j % 64);
    const std::uint32_t w = j / 64;
    if (close(x, x)) row[std::size_t{a} * words_ + w] |= bit;
    for (std::uint32_t i = at + 1; i < n_ && close(x, values[i]); ++i) row[std::size_t{order[i]} * words_ + w] |= bit;
    for (std::uint32_t i = at; i-- > 0 && close(x, values[i]);) row[std::size_t{order[i]} * words_ + w] |= bit;
  }

  // The swept dimensions: a block of the other points at a time, its words kept in L1 while every
  // swept dimension passes over contiguous values.
  void sweep(std::uint32_t a, std::uint64_t* row) const {
    constexpr std::uint32_t kBlock = 256;
    std::uint64_t bits[kBlock];
    for (std::uint32_t from = 0; from < n_; from += kBlock) {
      const std::uint32_t count = std::min(kBlock, n_ - from);
      std::uint32_t word = swept_.front() / 64;
      std::fill_n(bits, count, 0);
      for (std::size_t s = 0; s <= swept_.size(); ++s) {
        if (s == swept_.size() || swept_[s] / 64 != word) {  // the word's dimensions are done
          for (std::uint32_t b = 0; b < count; ++b) row[std::size_t{from + b} * words_ + word] |= bits[b];
          if (s == swept_.size()) break;
          word = swept_[s] / 64;
          std::fill_n(bits, count, 0);
        }
        const T* column = columns_.data() + s * n_;
        const T value = column[a];
        const T* others = column + from;
        const std::uint64_t mask = std::uint64_t{1} << (swept_[s] % 64);
        for (std::uint32_t b = 0; b < count; ++b) bits[b] |= close(value, others[b]) ? mask : 0;
      }
    }
  }

  const DirectSpace& space_;
  const std::uint32_t n_, d_, words_;
  const T eps_;
  std::vector<std::uint32_t> place_;  // dimensions x points: a point's place in the sorted order
  std::vector<T> sorted_values_;      // dimensions x points: the values in sorted order
  std::vector<std::uint32_t> swept_, scanned_;
  std::vector<T> columns_;  // swept dimensions x points, by point
};

// Rows of narrower words are built in 64-bit words first, a thread's row at a time.
template <class T, class Word>
void fill_rows(const HeldPairTableBuilder<T>& builder, std::uint32_t n, std::uint32_t words, Word* table) {
  if constexpr (sizeof(Word) == 8) {
    tbb::parallel_for(std::uint32_t{0}, n,
                      [&](std::uint32_t a) { builder.fill_row(a, table + std::size_t{a} * n * words); });
  } else {
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> rows(std::size_t{n} * words);
    tbb::parallel_for(std::uint32_t{0}, n, [&](std::uint32_t a) {
      std::vector<std::uint64_t>& row = rows.local();
      builder.fill_row(a, row.data());
      std::transform(row.begin(), row.end(), table + std::size_t{a} * n * words,
                     [](std::uint64_t word) { return static_cast<Word>(word); });
    });
  }
}

template <class T>
DirectPairTable build_held(const DirectSpace& space) {
  const HeldPairTableBuilder<T> builder(space);
  const std::uint32_t n = space.points, words = space.key_words();
  DirectPairTable table(std::size_t{n} * n * words, pair_table_word_bytes(space));
  switch (table.word_bytes()) {
    case 2:
      fill_rows(builder, n, words, static_cast<std::uint16_t*>(table.data()));
      break;
    case 4:
      fill_rows(builder, n, words, static_cast<std::uint32_t*>(table.data()));
      break;
    default:
      fill_rows(builder, n, words, static_cast<std::uint64_t*>(table.data()));
  }
  return table;
}

}  // namespace

DirectPairTable build_direct_pair_table(const DirectSpace& space, std::uint64_t budget) {
  if (space.points == 0 || direct_pair_table_bytes(space) > budget) return {};
  return space.visit_precision([&](auto held) { return build_held<decltype(held)>(space); });
}

}  // namespace subscale
