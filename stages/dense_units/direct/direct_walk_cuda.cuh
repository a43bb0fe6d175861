#pragma once
// What direct mode's walk kernel (direct_walk_cuda.cu) and its host driver (direct_units_cuda.cu)
// share: the layout of the walk's scratch, which the driver allocates for every thread and warp
// of the grid and the kernel cuts into their shares, and the launch.
#include <cuda_runtime.h>

#include <cstdint>

#include "stages/dense_units/direct/direct_accumulator_cuda.cuh"
#include "stages/dense_units/direct/direct_walker.hpp"

namespace subscale::dense_units::direct {

inline constexpr int kBlockThreads = 128;

// A walker's masks interleaved across all threads (thread t's word x at x * stride + t), so that
// lanes touching the same level and word touch one line; after the k + 1 levels of masks comes the
// key of the unit emitted last. The 32 lanes of a warp walk one item together (every prefix alike,
// the leaves dealt out), so they share one region of pair masks (pair_capacity following
// elements, contiguous: neighbouring leaves read neighbouring words). Subsets and points live in
// local memory.
struct DeviceWalkScratch {
  static constexpr bool kKeepsBounds = false;
  static constexpr std::uint32_t kLanes = 32;
  std::uint64_t* masks;
  std::uint64_t* pairs;
  std::uint32_t* candidate_slots;  // pair_capacity candidates' points, then as many origins
  std::uint32_t* columns;  // tie columns: the r-th tie dimension's word b (candidates 32 b ..) at r * column_words + b
  std::uint64_t* built;    // words: the dimensions whose columns hold the current candidates
  std::uint32_t column_words;  // pair_capacity / 32, rounded up
  std::uint32_t tie_count;     // tie dimensions (columns); none: no prefix has only tie dimensions live
  std::uint64_t stride;
  std::uint32_t words;
  std::uint32_t levels;  // k + 1
  std::uint32_t pair_capacity;
  std::uint32_t lane_index;
  std::uint64_t pair_window = ~std::uint64_t{0};
  std::uint32_t pair_count = 0;
  std::uint32_t candidate_count = 0;
  std::uint32_t subsets[64];
  std::uint32_t points[65];

  __device__ std::uint64_t& mask(std::uint32_t level, std::uint32_t word) {
    return masks[(std::uint64_t{level} * words + word) * stride];
  }
  __device__ std::uint64_t& last_key(std::uint32_t word) { return mask(levels, word); }
  __device__ std::uint32_t& subset(std::uint32_t t) { return subsets[t]; }
  __device__ std::uint32_t& point(std::uint32_t t) { return points[t]; }
  __device__ std::uint32_t lane() const { return lane_index; }
  __device__ std::uint32_t lanes() const { return kLanes; }
  __device__ std::uint64_t or_across_lanes(std::uint64_t word) const {
    const unsigned low = __reduce_or_sync(0xffffffffu, static_cast<unsigned>(word));
    const unsigned high = __reduce_or_sync(0xffffffffu, static_cast<unsigned>(word >> 32));
    return std::uint64_t{high} << 32 | low;
  }
  __device__ bool keeps_pairs(std::uint32_t following) const { return following <= pair_capacity; }
  __device__ std::uint32_t pairs_filled(std::uint64_t window) const { return window == pair_window ? pair_count : 0; }
  __device__ void reserve_pairs(std::uint32_t) {}
  __device__ void set_pairs_filled(std::uint64_t window, std::uint32_t count, std::uint32_t kept) {
    pair_window = window;
    pair_count = count;
    candidate_count = kept;
  }
  __device__ std::uint32_t candidates() const { return candidate_count; }
  __device__ std::uint32_t& candidate_point(std::uint32_t c) { return candidate_slots[c]; }
  __device__ const std::uint32_t* candidate_points() const { return candidate_slots; }
  __device__ std::uint32_t& candidate_origin(std::uint32_t c) { return candidate_slots[pair_capacity + c]; }
  __device__ std::uint64_t& pair(std::uint32_t e, std::uint32_t word) { return pairs[std::uint64_t{e} * words + word]; }
  __device__ std::uint32_t& tie_column(std::uint32_t tie_rank, std::uint32_t b) {
    return columns[std::uint64_t{tie_rank} * column_words + b];
  }
  __device__ const std::uint32_t* tie_columns() const { return columns; }
  __device__ bool keeps_tie_columns() const { return tie_count != 0; }
  __device__ std::uint64_t& columns_built(std::uint32_t word) { return built[word]; }
};

// Slots in which a warp gathers the units of one item that its one-word and tie-column leaf runs
// find (DirectWalker::leaf_run_one_word_warp, leaf_run_tie_columns): each slot is one subspace
// entry and holds a bit a candidate, so lanes whose leaves share D(U) cost one word ORed in the
// warp's own memory instead of an atomic a unit on the table. The slots go to the table when the
// item ends (or all are taken): each candidate's point once, and p_i. Measured on an H200, S5500
// at 0.01 walked in 2.13 s this way and 2.49 s when each lane's unit went to the table (lanes
// whose points shared a bitmap word joined first).
inline constexpr std::uint32_t kSlots = 32;

// The walk's scratch in device memory, cut into warps' and threads' shares by the kernel.
struct DeviceWalkBuffers {
  std::uint64_t* masks;
  std::uint64_t* pairs;
  std::uint32_t* candidate_slots;
  std::uint32_t* columns;
  std::uint64_t* built;
  std::uint32_t* slot_bits;
  std::uint32_t pair_capacity;
  std::uint32_t tie_count;  // tie dimensions: the columns a warp keeps
};

// Walks items[0, item_count) on `stream`, without waiting: `threads` threads (a multiple of
// kBlockThreads, each with its share of `buffers`), whose warps take one item at a time from
// counters[0] and add to counters[1 .. 3] the nodes, units and covered subtrees (with
// skip_covered) they walked. The units go into `table`.
template <class T>
void launch_walk_direct_items(const dense_units::direct::DirectSpaceView<T>& space,
                              const dense_units::direct::DirectWorkItem* items, unsigned long long item_count,
                              const DeviceWalkBuffers& buffers, const DirectAccumulatorView& table,
                              unsigned long long* counters, bool skip_covered, std::uint64_t threads,
                              cudaStream_t stream);

}  // namespace subscale::dense_units::direct
