#pragma once
// Stage filter (docs/stages.md §4): the rows of a column table that satisfy a predicate, as ascending row
// ids, and optionally an aggregate over those rows computed in the same pass. The CPU backend
// (oneTBB) and the CUDA backend select the same rows and give the same exact aggregates.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/backend.hpp"
#include "gpu/execution_context.hpp"
#include "stages/filter/aggregate.hpp"
#include "stages/filter/column_table.hpp"
#include "stages/filter/predicate.hpp"

namespace subscale::filter {

Backend parse_backend(const std::string& name);  // cpu | cuda
std::string to_string(Backend backend);

// How the CUDA backend gives strings to threads (a measured choice, see bench/filter).
enum class StringLayout {
  lane_refill,      // one string per lane; a lane that finishes takes the next string from a queue
  lane_per_string,  // one string per lane, fixed assignment (the seed's plain layout)
  warp_per_string,  // a warp's 32 lanes share one string
};
StringLayout parse_string_layout(const std::string& name);
std::string to_string(StringLayout layout);

// How the CUDA backend turns the selection bitmap into row ids.
enum class Compaction {
  bitmap_words,  // popcount per 32-row word, CUB exclusive scan, then each word writes its rows
  cub_select,    // cub::DeviceSelect::If over the row numbers with the bitmap as the predicate
};
Compaction parse_compaction(const std::string& name);
std::string to_string(Compaction compaction);

struct FilterOptions {
  Backend backend = Backend::cpu;
  bool want_ids = true;  // false: count (and aggregate) only
  StringLayout string_layout = StringLayout::lane_refill;
  bool fused = true;  // cuda: a Q6-shaped query (ANDed numeric ranges) runs as one fused kernel
  // cuda, fused: exact ranges and an exact aggregate run as the vectorised kernel (4 rows a
  // thread, 16-byte loads); false keeps the row-per-lane kernel (kept to measure one against the other)
  bool vector_fused = true;
  Compaction compaction = Compaction::bitmap_words;
};

struct FilterTimings {
  double transfer_in_seconds = 0;   // cuda: columns to the device
  double select_seconds = 0;        // predicate (+ aggregate) over the rows
  double compact_seconds = 0;       // bitmap to row ids
  double transfer_out_seconds = 0;  // cuda: ids and results back
  std::string path;                 // which kernels ran (e.g. "fused-q6", "bitmap+select")
};

struct FilterResult {
  std::uint64_t rows = 0;          // rows of the table
  std::uint64_t selected = 0;      // rows selected
  std::vector<std::uint64_t> ids;  // ascending; empty unless want_ids
  std::optional<AggregateResult> aggregate;
  FilterTimings timings;
};

// `context`: the stream and budget of the cuda backend (gpu/execution_context.hpp).
FilterResult run_filter(const ColumnTable& table, const Predicate& predicate, const Aggregate& aggregate,
                        const FilterOptions& options, const gpu::ExecutionContext& context = {});

// The cpu backend; run_filter dispatches on options.backend (the cuda one is in filter_cuda.hpp).
FilterResult run_filter_cpu(const ColumnTable& table, const Predicate& predicate, const Aggregate& aggregate,
                            const FilterOptions& options);

// The selection bitmap of rows [first_row, first_row + 64 * words) on the CPU, bit r % 64 of word
// r / 64 (relative to first_row); rows past the table are 0. `care` restricts the work (a row
// whose care bit is 0 may come back either way).
void evaluate_predicate_block(const ColumnTable& table, const Predicate& predicate, std::uint64_t first_row,
                              std::size_t words, std::uint64_t* out);

}  // namespace subscale::filter
