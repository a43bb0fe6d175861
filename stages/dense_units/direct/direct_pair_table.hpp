#pragma once
// Direct mode's pair table on the CPU: for every two points, the dimensions in which they lie
// within epsilon, as a mask. A set of points spans less than epsilon in a dimension exactly when
// each two of them do, so with the table the host walk finds a prefix's or a leaf's dimensions by
// ANDing a few words instead of reading values (direct_walker.hpp, narrow_by_pairs). It takes
// points x points x key words x 8 bytes, or 2 or 4 bytes a pair when the dimensions fit in 16 or
// 32 bits (pair_table_word_bytes), so it is built only under a budget; past it the walk keeps value
// ranges instead, with the same result.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "stages/dense_units/direct/direct_units.hpp"

namespace subscale {

// The most the default budget allows: 512 MiB holds the table of about 8,000 points with up to 64
// dimensions.
inline constexpr std::uint64_t kDirectPairTableBytes = std::uint64_t{512} << 20;

// The default budget: kDirectPairTableBytes, or a quarter of the host memory available now when
// that is less (the table is a speed-up, never worth a run's memory).
std::uint64_t default_pair_table_budget();

// Whether a walk over `units` units is worth the table's building: when it has at least as many
// units as the table has words. A word takes a handful of comparisons to build; a shorter walk
// (a small share of a run, such as one checkpoint's) could spend more on the table than it saves.
bool pair_table_pays(const DirectSpace& space, std::uint64_t units);

// Whether a walk over `units` units builds the table, on the CPU or the GPU: a budget given
// (`asked_bytes` not 0) is the only test; by default the walk must pay for it (pair_table_pays)
// and it must fit `default_budget`.
bool pair_table_wanted(const DirectSpace& space, std::uint64_t units, std::uint64_t asked_bytes,
                       std::uint64_t default_budget);

// Bytes of one word of the table: 2 with at most 16 dimensions, 4 with at most 32, else 8 (and
// key words of them a pair). The walk reads one word a pair of points, at random: the narrower the
// words, the more of the table the caches hold (S1500's 20 dimensions: 9 MB instead of 18 MB).
std::uint32_t pair_table_word_bytes(const DirectSpace& space);

// Bytes the table of `space` takes (saturating at the largest 64-bit value).
std::uint64_t direct_pair_table_bytes(const DirectSpace& space);

// The table's words, each word_bytes() wide. They are not zeroed when allocated: the threads that
// build the table fill every row, which also spreads the first touch of its pages over them (a
// serial zeroing took about 8 ms of S1500's 18 MB).
class DirectPairTable {
 public:
  DirectPairTable() = default;
  DirectPairTable(std::size_t size, std::uint32_t word_bytes)
      : storage_(new std::uint64_t[(size * word_bytes + 7) / 8]), size_(size), word_bytes_(word_bytes) {}
  void* data() { return storage_.get(); }
  const void* data() const { return storage_.get(); }
  std::size_t size() const { return size_; }  // words
  std::uint32_t word_bytes() const { return word_bytes_; }
  bool empty() const { return size_ == 0; }
  std::uint64_t operator[](std::size_t i) const;

 private:
  std::unique_ptr<std::uint64_t[]> storage_;
  std::size_t size_ = 0;
  std::uint32_t word_bytes_ = 8;
};

// The table of `space`, row a at a * points * key words: word w of (a, b) holds bit (dimension
// mod 64) for each dimension of that word in which |x_a - x_b| < epsilon, computed in the held
// precision with the subtraction the walk makes; its words are pair_table_word_bytes wide. Empty
// when it would take more than `budget` bytes.
DirectPairTable build_direct_pair_table(const DirectSpace& space, std::uint64_t budget);

}  // namespace subscale
