#pragma once
// What a join produces: pairs of row indices (R row, S row), either gathered into vectors or
// handed to a sink batch by batch (so an output larger than the memory budget can still be
// consumed), and where the time went.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace subscale::join {

struct JoinPairs {
  std::vector<std::uint32_t> r_rows;  // row of R (position in the R key column)
  std::vector<std::uint32_t> s_rows;  // row of S, same length
  std::size_t size() const noexcept { return r_rows.size(); }
};

struct PairSink {
  // Called once with the exact number of pairs, before the first batch.
  std::function<void(std::uint64_t total_pairs)> on_total;
  // Called per batch; the spans are valid only during the call.
  std::function<void(std::span<const std::uint32_t> r_rows, std::span<const std::uint32_t> s_rows)> on_batch;
};

struct JoinTimings {
  double transfer_in_seconds = 0;   // host -> device copies of the keys (cuda only); R is partitioned
                                    // during S's copy, so this and partition_seconds overlap
  double partition_seconds = 0;     // all radix passes of R and S, partition bounds
  double probe_seconds = 0;         // planning, table builds, counting and writing the pairs
  double transfer_out_seconds = 0;  // device -> host copies of the pairs and the sink (cuda);
                                    // the sink alone (cpu)
  std::uint32_t partitions = 0;
  std::uint64_t work_items = 0;
  std::uint64_t prebuilt_tables = 0;  // partitions whose table did not fit fast memory (cuda)
  std::uint64_t output_pairs = 0;
  std::uint64_t output_batches = 0;

  double join_seconds() const noexcept { return partition_seconds + probe_seconds; }
};

}  // namespace subscale::join
