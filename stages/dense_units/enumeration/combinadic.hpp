#pragma once
// The combinatorial number system in colexicographic order, shared by the CPU and GPU
// backends. A k-subset {c_0 < c_1 < ... < c_{k-1}} of {0, ..., N-1} has rank
//   r = C(c_0, 1) + C(c_1, 2) + ... + C(c_{k-1}, k),
// so the subsets of a window are numbered 0 .. C(N, k) - 1 and the r-th is found from r alone.
// Example (docs/method.md §4): r = 7, k = 4 gives {0, 2, 3, 5}.
#include <cmath>
#include <cstdint>

#include "common/host_device.hpp"

namespace subscale::combinadic {

inline constexpr std::uint64_t kSaturated = ~std::uint64_t{0};

// C(n, k), or kSaturated when it does not fit in 64 bits. Exact: each step multiplies then
// divides in 128-bit arithmetic, and C(n, i) * (n - i) / (i + 1) is always an integer.
SUBSCALE_HD std::uint64_t binomial(std::uint64_t n, std::uint32_t k) {
  if (k > n) return 0;
  if (k > n - k) k = static_cast<std::uint32_t>(n - k);
  unsigned __int128 value = 1;
  for (std::uint32_t i = 0; i < k; ++i) {
    value = value * (n - i) / (i + 1);
    if (value >= kSaturated) return kSaturated;
  }
  return static_cast<std::uint64_t>(value);
}

// A table of C(n, j) for n < rows and j <= max_k, row-major, filled by the caller with
// fill_binomial_table. Lookups are what the hot loops use.
struct BinomialTable {
  const std::uint64_t* values = nullptr;
  std::uint32_t rows = 0;
  std::uint32_t max_k = 0;
  SUBSCALE_HD std::uint64_t operator()(std::uint32_t n, std::uint32_t k) const {
    return values[static_cast<std::uint64_t>(n) * (max_k + 1) + k];
  }
};

inline void fill_binomial_table(std::uint64_t* values, std::uint32_t rows, std::uint32_t max_k) {
  for (std::uint32_t n = 0; n < rows; ++n)
    for (std::uint32_t k = 0; k <= max_k; ++k) values[static_cast<std::uint64_t>(n) * (max_k + 1) + k] = binomial(n, k);
}

// Largest c in [lo, hi) with C(c, j) <= r, for C(., j) nondecreasing in c. Binary search.
SUBSCALE_HD std::uint32_t largest_with_binomial_at_most(const BinomialTable& table, std::uint32_t j, std::uint64_t r,
                                                        std::uint32_t lo, std::uint32_t hi) {
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (table(mid, j) <= r)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// The same answer from a guess: C(c, j) is close to (c - (j-1)/2)^j / j!, so c is close to
// (r j!)^(1/j) + (j-1)/2. A few steps from the guess settle it; a binary search over what is left
// covers a guess that is far off. Table look-ups are what cost (they wait on memory), and this
// needs one to three of them instead of a dozen.
SUBSCALE_HD std::uint32_t largest_with_binomial_guessed(const BinomialTable& table, std::uint32_t j, std::uint64_t r,
                                                        std::uint32_t lo, std::uint32_t hi) {
  if (hi - lo <= 1) return lo;
  double guess = static_cast<double>(r);
  if (j > 1) {
    double factorial = 1;
    for (std::uint32_t i = 2; i <= j; ++i) factorial *= i;
    guess = exp2(log2(guess * factorial + 1) / j) + 0.5 * (j - 1);
  }
  std::uint32_t c = guess <= lo ? lo : guess >= hi - 1 ? hi - 1 : static_cast<std::uint32_t>(guess);
  constexpr int kSteps = 3;
  if (table(c, j) <= r) {
    lo = c;
    for (int step = 0; step < kSteps && lo + 1 < hi; ++step) {
      if (table(lo + 1, j) > r) return lo;
      ++lo;
    }
  } else {
    hi = c;
    for (int step = 0; step < kSteps && hi - 1 > lo; ++step) {
      if (table(hi - 1, j) <= r) return hi - 1;
      --hi;
    }
  }
  return largest_with_binomial_at_most(table, j, r, lo, hi);
}

// Device code guesses (its look-ups wait on memory, its arithmetic is cheap); host code searches
// (the table sits in cache there, and exp2/log2 cost more than the look-ups they save).
#if defined(__CUDA_ARCH__)
inline constexpr bool kGuessByDefault = true;
#else
inline constexpr bool kGuessByDefault = false;
#endif

// Writes the rank-r k-subset of {0, ..., n-1} to c[0..k-1], ascending. Requires r < C(n, k)
// and n < table.rows.
template <bool Guess = kGuessByDefault>
SUBSCALE_HD void unrank(const BinomialTable& table, std::uint64_t r, std::uint32_t n, std::uint32_t k,
                        std::uint32_t* c) {
  std::uint32_t upper = n;
  for (std::uint32_t j = k; j >= 1; --j) {
    const std::uint32_t cj = Guess ? largest_with_binomial_guessed(table, j, r, j - 1, upper)
                                   : largest_with_binomial_at_most(table, j, r, j - 1, upper);
    c[j - 1] = cj;
    r -= table(cj, j);
    upper = cj;
  }
}

// Same as unrank, without a table (slow; for tests and single look-ups).
SUBSCALE_HD void unrank_direct(std::uint64_t r, std::uint32_t n, std::uint32_t k, std::uint32_t* c) {
  std::uint64_t upper = n;
  for (std::uint32_t j = k; j >= 1; --j) {
    std::uint64_t lo = j - 1, hi = upper;  // binomial(lo, j) == 0 <= r
    while (hi - lo > 1) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (binomial(mid, j) <= r)
        lo = mid;
      else
        hi = mid;
    }
    c[j - 1] = static_cast<std::uint32_t>(lo);
    r -= binomial(lo, j);
    upper = lo;
  }
}

// Steps c (a k-subset of {0..n-1}) to its colex successor; returns false after the last one.
// Amortised O(1): the lowest element that can grow does, the ones below it reset.
SUBSCALE_HD bool next_colex(std::uint32_t* c, std::uint32_t k, std::uint32_t n) {
  for (std::uint32_t j = 0; j < k; ++j) {
    const std::uint32_t limit = (j + 1 < k) ? c[j + 1] : n;
    if (c[j] + 1 < limit) {
      ++c[j];
      for (std::uint32_t i = 0; i < j; ++i) c[i] = i;
      return true;
    }
  }
  return false;
}

// The rank of a k-subset (inverse of unrank).
SUBSCALE_HD std::uint64_t rank_direct(const std::uint32_t* c, std::uint32_t k) {
  std::uint64_t r = 0;
  for (std::uint32_t j = 0; j < k; ++j) r += binomial(c[j], j + 1);
  return r;
}

}  // namespace subscale::combinadic
