// The CPU radix partitioning: per pass, per-chunk histograms (parallel), an exclusive scan over
// (digit, chunk) (sequential: digits x chunks is small), and a stable scatter (parallel, each
// chunk writing its own disjoint ranges).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <vector>

#include "common/error.hpp"
#include "stages/join/join_hash.hpp"
#include "stages/join/radix_partition.hpp"

namespace subscale::join {

namespace {

struct Chunking {
  std::size_t chunks = 1;
  std::size_t size = 0;
  std::size_t begin(std::size_t c, std::size_t n) const { return std::min(n, c * size); }
  std::size_t end(std::size_t c, std::size_t n) const { return std::min(n, (c + 1) * size); }
};

Chunking make_chunking(std::size_t n) {
  // A few chunks per thread for balance, but each big enough that histograms stay cheap.
  constexpr std::size_t kMinChunk = 1 << 15;
  const std::size_t threads = static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  Chunking c;
  c.chunks = std::clamp<std::size_t>(n / kMinChunk, 1, 4 * threads);
  c.size = (n + c.chunks - 1) / c.chunks;
  return c;
}

// One stable scatter pass. rows_in == nullptr means row = input position (the first pass).
void scatter_pass(const std::uint64_t* keys_in, const std::uint32_t* rows_in, std::size_t n, int shift, int bits,
                  JoinHash hash, std::uint64_t* keys_out, std::uint32_t* rows_out) {
  const Chunking chunking = make_chunking(n);
  const std::size_t digits = std::size_t{1} << bits;
  // counts[digit * chunks + chunk]: scanning this order gives each chunk its start per digit
  // after all smaller digits and after the same digit of earlier chunks (stability).
  std::vector<std::uint32_t> counts(digits * chunking.chunks, 0);
  tbb::parallel_for(std::size_t{0}, chunking.chunks, [&](std::size_t c) {
    std::vector<std::uint32_t> local(digits, 0);
    for (std::size_t i = chunking.begin(c, n); i < chunking.end(c, n); ++i)
      ++local[radix_digit(join_hash(keys_in[i], hash), shift, bits)];
    for (std::size_t d = 0; d < digits; ++d) counts[d * chunking.chunks + c] = local[d];
  });
  std::uint32_t running = 0;
  for (auto& count : counts) {
    const std::uint32_t value = count;
    count = running;
    running += value;
  }
  tbb::parallel_for(std::size_t{0}, chunking.chunks, [&](std::size_t c) {
    std::vector<std::uint32_t> cursor(digits);
    for (std::size_t d = 0; d < digits; ++d) cursor[d] = counts[d * chunking.chunks + c];
    for (std::size_t i = chunking.begin(c, n); i < chunking.end(c, n); ++i) {
      const std::uint64_t key = keys_in[i];
      const std::uint32_t position = cursor[radix_digit(join_hash(key, hash), shift, bits)]++;
      keys_out[position] = key;
      rows_out[position] = rows_in ? rows_in[i] : static_cast<std::uint32_t>(i);
    }
  });
}

}  // namespace

PartitionedKeys radix_partition_cpu(std::span<const std::uint64_t> keys, const RadixLayout& layout, JoinHash hash) {
  if (keys.size() > kMaxJoinRows)
    throw UsageError("a join relation has " + std::to_string(keys.size()) + " rows; at most " +
                     std::to_string(kMaxJoinRows) + " are supported: join smaller pieces");
  validate(layout);
  const std::size_t n = keys.size();
  PartitionedKeys out;
  out.keys.resize(n);
  out.rows.resize(n);
  std::vector<std::uint64_t> spare_keys(layout.passes() > 1 ? n : 0);
  std::vector<std::uint32_t> spare_rows(layout.passes() > 1 ? n : 0);
  // Ping-pong so that the last pass writes into `out`.
  const std::uint64_t* keys_in = keys.data();
  const std::uint32_t* rows_in = nullptr;
  for (int pass = 0; pass < layout.passes(); ++pass) {
    const bool into_out = (layout.passes() - 1 - pass) % 2 == 0;
    std::uint64_t* keys_out = into_out ? out.keys.data() : spare_keys.data();
    std::uint32_t* rows_out = into_out ? out.rows.data() : spare_rows.data();
    scatter_pass(keys_in, rows_in, n, layout.shift(pass), layout.pass_bits[static_cast<std::size_t>(pass)], hash,
                 keys_out, rows_out);
    keys_in = keys_out;
    rows_in = rows_out;
  }
  const std::uint32_t partitions = layout.partitions();
  out.offsets.resize(std::size_t{partitions} + 1);
  tbb::parallel_for(tbb::blocked_range<std::uint32_t>(0, partitions + 1), [&](const auto& range) {
    for (std::uint32_t p = range.begin(); p < range.end(); ++p)
      out.offsets[p] =
          partition_lower_bound(out.keys.data(), static_cast<std::uint32_t>(n), p, layout.total_bits(), hash);
  });
  return out;
}

}  // namespace subscale::join
