#include "stages/join/radix_layout.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace subscale::join {

int RadixLayout::total_bits() const noexcept {
  int total = 0;
  for (int bits : pass_bits) total += bits;
  return total;
}

int RadixLayout::shift(int pass) const noexcept {
  int total = 0;
  for (int k = 0; k < pass; ++k) total += pass_bits[static_cast<std::size_t>(k)];
  return total;
}

void validate(const RadixLayout& layout) {
  if (layout.passes() < 1 || layout.passes() > kMaxRadixPasses)
    throw UsageError("a radix layout needs 1.." + std::to_string(kMaxRadixPasses) + " passes, not " +
                     std::to_string(layout.passes()));
  for (int bits : layout.pass_bits)
    if (bits < 1 || bits > kMaxRadixBitsPerPass)
      throw UsageError("a radix pass scatters by 1.." + std::to_string(kMaxRadixBitsPerPass) + " bits, not " +
                       std::to_string(bits));
  if (layout.total_bits() > kMaxPartitionBits)
    throw UsageError("the join's radix layout has " + std::to_string(layout.total_bits()) +
                     " partition bits; at most " + std::to_string(kMaxPartitionBits) + " are allowed");
}

namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Bits that bring the average R partition down to kTargetPartitionTuples (at least one).
int wanted_partition_bits(std::uint64_t r_rows) {
  int bits = 1;
  while (bits < kMaxPartitionBits && (r_rows >> bits) > kTargetPartitionTuples) ++bits;
  return bits;
}

}  // namespace

RadixLayout choose_radix_layout(std::uint64_t r_rows, const JoinOptions& options) {
  validate(options);
  const int wanted = wanted_partition_bits(r_rows);
  // Up to 10 bits a pass when chosen automatically: fan-outs beyond ~1024 scatter to too many
  // write streams at once for the caches and the per-warp counters.
  constexpr int kAutoBitsPerPass = 10;
  int passes = options.passes;
  int bits = options.radix_bits;
  if (passes == 0 && bits == 0) passes = ceil_div(wanted, kAutoBitsPerPass);
  if (passes == 0) passes = std::clamp(ceil_div(wanted, bits), 1, kMaxRadixPasses);
  RadixLayout layout;
  if (bits != 0) {
    layout.pass_bits.assign(static_cast<std::size_t>(passes), bits);
  } else {
    // Spread the wanted bits evenly, the earlier passes taking the remainder.
    const int total = std::max(wanted, passes);
    for (int k = 0; k < passes; ++k) layout.pass_bits.push_back(total / passes + (k < total % passes ? 1 : 0));
    for (int& b : layout.pass_bits) b = std::min(b, kMaxRadixBitsPerPass);
  }
  validate(layout);
  return layout;
}

}  // namespace subscale::join
