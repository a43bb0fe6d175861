// Direct mode on the GPU: the same walk as the CPU's (direct_walker.hpp), one work item at a time
// per warp: its lanes walk the item's prefixes alike and deal out the leaves, so they do not
// diverge above the leaves. Warps stay resident and take the next item from an atomic counter, so
// windows of 4 and of thousands of points mix without leaving warps idle for long. Units go into the device
// subspace table (direct_accumulator_cuda.cuh); a batch of items that overflows it is walked
// again after the table is spilled to the host in bulk (ORing is idempotent), and a single item
// that overflows an empty table is walked on the host. With masks of one word a pair table on the
// device (direct_pair_table_cuda.cuh) gives prefixes and leaves their dimensions from a few words
// instead of values.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_budget.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/execution_context.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "io/host_memory.hpp"
#include "stages/dense_units/direct_accumulator_cuda.cuh"
#include "stages/dense_units/direct_pair_table.hpp"
#include "stages/dense_units/direct_pair_table_cuda.cuh"
#include "stages/dense_units/direct_units.hpp"

namespace subscale {
namespace {

using direct::DirectWalker;
using direct::DirectWorkItem;
using gpu::DeviceBuffer;
using gpu_direct::DirectAccumulatorView;

constexpr int kBlockThreads = 128;

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
constexpr std::uint32_t kSlots = 32;

// One thread's emitter: D(U) as a key, its entry (the previous unit's when the keys match), and
// the points ORed in (the prefix's only when this thread has not added them to the entry for the
// same prefix already).
template <class T, std::uint32_t kWords>
struct DeviceEmitter {
  using Walker = DirectWalker<DeviceWalkScratch, T, kWords>;
  DirectAccumulatorView table;
  std::uint32_t cached_entry = gpu_direct::kNoEntry;  // the entry of the last key looked up
  std::uint64_t last_key_first = 0;
  std::uint32_t prefix_entry = gpu_direct::kNoEntry;  // the entry that last got the prefix's points
  std::uint64_t prefix_epoch = 0;

  // Words of a key (those of a dimension mask).
  __device__ std::uint32_t key_words() const { return kWords != 0 ? kWords : table.key_words; }

  __device__ std::uint64_t key_word(const Walker& walker, std::uint32_t k, std::uint32_t w) const {
    std::uint64_t word = walker.scratch.mask(k, w);
    return w == walker.j_word ? word | walker.j_bit : word;
  }

  // The hash of a key given word by word (word(w)), and whether `entry` stores that key.
  template <class KeyWord>
  __device__ std::uint64_t key_hash(KeyWord&& word) const {
    std::uint64_t hash = 0x243f6a8885a308d3ULL;
    for (std::uint32_t w = 0; w < key_words(); ++w) hash = hash::fmix64(hash ^ word(w)) + w;
    return hash;
  }
  template <class KeyWord>
  __device__ bool stores_key(std::uint32_t entry, KeyWord&& word) const {
    const std::uint64_t* stored = table.keys + std::uint64_t{entry} * key_words();
    for (std::uint32_t w = 0; w < key_words(); ++w)
      if (__ldcg(reinterpret_cast<const unsigned long long*>(stored + w)) != word(w)) return false;
    return true;
  }

  __device__ bool key_matches(const Walker& walker, std::uint32_t k, std::uint32_t entry) const {
    return stores_key(entry, [&](std::uint32_t w) { return key_word(walker, k, w); });
  }

  __device__ std::uint32_t claim(const Walker& walker, std::uint32_t k, unsigned long long* slot,
                                 unsigned long long tag) {
    const std::uint32_t entry = atomicAdd(table.entry_count, 1u);
    if (entry >= table.entry_capacity) {
      atomicExch(slot, gpu_direct::kLostSlot);
      return gpu_direct::kNoEntry;
    }
    std::uint64_t* stored = table.keys + std::uint64_t{entry} * key_words();
    for (std::uint32_t w = 0; w < key_words(); ++w) stored[w] = key_word(walker, k, w);
    __threadfence();
    atomicExch(slot, tag << 32 | entry);
    return entry;
  }

  // The slot a probe for `hash` starts at: the hash's low 33 bits (the tag is its high ones) scaled
  // to the slot count by a multiply; a 64-bit remainder took dozens of instructions.
  __device__ std::uint64_t first_slot(std::uint64_t hash) const {
    return __umul64hi(hash << 31 | hash >> 33, table.slot_count);
  }

  __device__ std::uint32_t find_or_add(const Walker& walker, std::uint32_t k, std::uint64_t hash) {
    const unsigned long long tag = (hash >> 33) | 1;  // below 2^31: never a marker's top bit
    std::uint64_t s = first_slot(hash);
    for (std::uint64_t probe = 0; probe < table.slot_count; ++probe) {
      unsigned long long* slot = table.slots + s;
      unsigned long long seen = *reinterpret_cast<volatile unsigned long long*>(slot);
      if (seen == gpu_direct::kEmptySlot) {
        if (*reinterpret_cast<volatile unsigned int*>(table.entry_count) >= table.entry_capacity) break;
        seen = atomicCAS(slot, gpu_direct::kEmptySlot, gpu_direct::kBusySlot);
        if (seen == gpu_direct::kEmptySlot) return claim(walker, k, slot, tag);
      }
      while (seen == gpu_direct::kBusySlot) seen = *reinterpret_cast<volatile unsigned long long*>(slot);
      if (seen != gpu_direct::kLostSlot && (seen >> 32) == tag) {
        const auto entry = static_cast<std::uint32_t>(seen);
        if (key_matches(walker, k, entry)) return entry;
      }
      s = s + 1 == table.slot_count ? 0 : s + 1;
    }
    return gpu_direct::kNoEntry;
  }

  // The unit's key equals the last one looked up? Its first word is kept in a register (all of it
  // up to 64 dimensions), the others in the thread's scratch.
  __device__ bool same_as_last(const Walker& walker, std::uint32_t k) const {
    if (cached_entry == gpu_direct::kNoEntry || last_key_first != key_word(walker, k, 0)) return false;
    for (std::uint32_t w = 1; w < key_words(); ++w)
      if (walker.scratch.last_key(w) != key_word(walker, k, w)) return false;
    return true;
  }

  // The entry of the unit's key (kNoEntry, with the overflow flag set, when the table is full).
  __device__ std::uint32_t lookup(const Walker& walker, std::uint32_t k) {
    if (same_as_last(walker, k)) return cached_entry;
    cached_entry = find_or_add(walker, k, key_hash([&](std::uint32_t w) { return key_word(walker, k, w); }));
    if (cached_entry == gpu_direct::kNoEntry) {
      atomicExch(table.overflow, 1u);
      return gpu_direct::kNoEntry;
    }
    last_key_first = key_word(walker, k, 0);
    for (std::uint32_t w = 1; w < key_words(); ++w) walker.scratch.last_key(w) = key_word(walker, k, w);
    return cached_entry;
  }

  __device__ static void set_bits(std::uint64_t* bits, std::uint32_t word, std::uint64_t mask) {
    // An atomicOr whose result is unused is a fire-and-forget reduction at L2. Measured on an H100:
    // reading the word first to skip set bits, or a per-thread cache of the pairs sent lately, made
    // the walk no faster or slower.
    atomicOr(reinterpret_cast<unsigned long long*>(bits + word), static_cast<unsigned long long>(mask));
  }

  // The prefix's points 0 .. k-1 into `entry`, unless this thread added them for this prefix.
  __device__ void add_prefix(const Walker& walker, std::uint32_t k, std::uint32_t entry) {
    if (entry == prefix_entry && walker.prefix_epoch == prefix_epoch) return;
    std::uint64_t* bits = table.bitmaps + std::uint64_t{entry} * table.point_words;
    for (std::uint32_t t = 0; t < k; ++t) {
      const std::uint32_t p = walker.scratch.points[t];
      set_bits(bits, p >> 6, std::uint64_t{1} << (p & 63));
    }
    prefix_entry = entry;
    prefix_epoch = walker.prefix_epoch;
  }

  __device__ void emit(const Walker& walker, std::uint32_t k) {
    const std::uint32_t entry = lookup(walker, k);
    if (entry == gpu_direct::kNoEntry) return;
    add_prefix(walker, k, entry);
    const std::uint32_t p = walker.scratch.points[k];
    set_bits(table.bitmaps + std::uint64_t{entry} * table.point_words, p >> 6, std::uint64_t{1} << (p & 63));
  }

  // The covering test of direct_host_cover.hpp (which says why it is exact) for a warp, all lanes
  // calling it alike: is every unit below the prefix of `level`, whose other elements lie among the
  // candidates before `bound`, one that would add no point to its subspace? Lane b (1 .. 2^n - 1)
  // looks after the set B of the prefix's live dimensions above j whose bits b sets: the entry of
  // {j} + B in the table, whether it holds the prefix's points, and, 32 candidates at a time, how
  // many can join the prefix in B and whether one of those is missing. The table only gains
  // points (a spill empties it, which only makes the test fail), and a bit read late is one the
  // test does without (a plain load may return an older word), so what it says holds. Only prefixes
  // with two or more elements still to choose are asked: below, a warp tests 32 leaves at once
  // for about what the test costs. Measured on an H200 (dense_units seconds, count_units against this,
  // against asking the last prefix level too): S5500 at 0.01 2.34 / 1.88 / 2.10, the 7494 x 16
  // file 11.46 / 2.52 / 3.13, ties_like_real_350g 18.33 / 17.85 / 23.20. False when off, or with
  // more than kCoverDimensions live dimensions above j.
  bool skip_covered = false;
  static constexpr std::uint32_t kCoverDimensions = 4;

  __device__ bool covers(Walker& walker, std::uint32_t level, std::uint32_t bound) const {
    constexpr unsigned kAll = 0xffffffffu;
    if (!skip_covered || level + 1 >= walker.space.k) return false;
    const auto& space = walker.space;
    auto& scratch = walker.scratch;
    std::uint32_t dims[kCoverDimensions];
    std::uint32_t count = 0;
    for (std::uint32_t w = 0; w < walker.words(); ++w)
      for (std::uint64_t bits = scratch.mask(level, w) & walker.words_above_j(w); bits != 0; bits &= bits - 1) {
        if (count == kCoverDimensions) return false;
        const auto dim = w * 64 + static_cast<std::uint32_t>(__ffsll(static_cast<long long>(bits)) - 1);
#pragma unroll
        for (std::uint32_t t = 0; t < kCoverDimensions; ++t)  // constant indices keep the array in registers
          if (t == count) dims[t] = dim;
        ++count;
      }
    const std::uint32_t lane = scratch.lane(), sets = (1u << count) - 1, need = space.k - level;
    const bool mine = lane >= 1 && lane <= sets;
    std::uint32_t entry = gpu_direct::kNoEntry;
    bool held = false;
    if (mine) {
      entry = find_subset(walker, dims, count, lane);
      held = entry != gpu_direct::kNoEntry;
      for (std::uint32_t t = 0; t <= level && held; ++t) held = holds(entry, scratch.point(t));
    }
    std::uint32_t joining = 0;
    bool missing = false;
    for (std::uint32_t base = 0; base < bound; base += 32) {
      const std::uint32_t c = base + lane;
      std::uint32_t close = 0;  // bit b: candidate c can join the prefix in dims[b]
      std::uint32_t p = 0;
      if (c < bound) {
        p = scratch.candidate_point(c);
        const T* row = space.rows + std::uint64_t{p} * space.dimensions;
#pragma unroll
        for (std::uint32_t b = 0; b < kCoverDimensions; ++b) {
          if (b >= count) break;
          const std::uint32_t dim = dims[b];
          bool near = (scratch.pair(c, dim / 64) >> (dim % 64) & 1) != 0;  // to p_i
          const T v = row[dim];
          for (std::uint32_t t = 1; t <= level && near; ++t) {
            const T u = space.rows[std::uint64_t{scratch.point(t)} * space.dimensions + dim];
            near = spans_less_than(u < v ? u : v, u < v ? v : u, space.epsilon);
          }
          if (near) close |= 1u << b;
        }
      }
      for (std::uint32_t b = 1; b <= sets; ++b) {
        const bool in = (close & b) == b;
        const unsigned lanes_in = __ballot_sync(kAll, in);
        if (lanes_in == 0) continue;
        const std::uint32_t its_entry = __shfl_sync(kAll, entry, b);
        const bool lacks = in && (its_entry == gpu_direct::kNoEntry || !holds(its_entry, p));
        const unsigned lacking = __ballot_sync(kAll, lacks);
        if (lane == b) {
          joining += static_cast<std::uint32_t>(__popc(lanes_in));
          missing = missing || lacking != 0;
        }
      }
    }
    return __ballot_sync(kAll, mine && joining >= need && (!held || missing)) == 0;
  }

  // Word w of the key {j} + B, B the dimensions dims[b] whose bit b `set` has.
  __device__ static std::uint64_t set_key_word(const Walker& walker, const std::uint32_t* dims, std::uint32_t count,
                                               std::uint32_t set, std::uint32_t w) {
    std::uint64_t word = w == walker.j_word ? walker.j_bit : 0;
    for (std::uint32_t b = 0; b < count; ++b)
      if ((set >> b & 1) != 0 && dims[b] / 64 == w) word |= std::uint64_t{1} << (dims[b] % 64);
    return word;
  }

  // The entry of {j} + B if the table has it; kNoEntry when not, or while its slot is being written
  // (the test then fails, which is always safe). Adds nothing.
  __device__ std::uint32_t find_subset(const Walker& walker, const std::uint32_t* dims, std::uint32_t count,
                                       std::uint32_t set) const {
    auto word = [&](std::uint32_t w) { return set_key_word(walker, dims, count, set, w); };
    const std::uint64_t hash = key_hash(word);
    const unsigned long long tag = (hash >> 33) | 1;
    std::uint64_t s = first_slot(hash);
    for (std::uint64_t probe = 0; probe < table.slot_count; ++probe) {
      const unsigned long long seen = *reinterpret_cast<volatile unsigned long long*>(table.slots + s);
      if (seen == gpu_direct::kEmptySlot || seen == gpu_direct::kBusySlot) return gpu_direct::kNoEntry;
      if (seen != gpu_direct::kLostSlot && (seen >> 32) == tag && stores_key(static_cast<std::uint32_t>(seen), word))
        return static_cast<std::uint32_t>(seen);
      s = s + 1 == table.slot_count ? 0 : s + 1;
    }
    return gpu_direct::kNoEntry;
  }

  __device__ bool holds(std::uint32_t entry, std::uint32_t p) const {
    const auto word = table.bitmaps[std::uint64_t{entry} * table.point_words + p / 64];
    return (word >> (p % 64) & 1) != 0;
  }

  // The warp's slots and the patterns last given one, spread over the lanes: lane l holds slot
  // l's entry and cache line l (a pattern and its slot). The other fields are the same in all lanes.
  std::uint32_t* slot_bits = nullptr;  // kSlots x column_words
  std::uint32_t slot_entry = gpu_direct::kNoEntry;
  std::uint64_t cached_pattern = 0;
  std::uint32_t cached_slot = 0;
  unsigned used = 0, touched = 0;                 // slots holding bits; slots that got the current prefix's points
  unsigned cached = 0, next_line = 0;             // valid cache lines (bits); the line written next
  std::uint64_t cache_epoch = ~std::uint64_t{0};  // with several words, patterns are valid while top_epoch is this
  std::uint32_t group_bits = 0, group_word = 0;   // lane l: slot l's leaves of word group_word not yet stored

  __device__ void begin_slot_run() { touched = 0; }

  // The slot of a pattern's subspace (all lanes, the same pattern): from the cache, else looked up
  // in the table by lane 0 and given a slot. kSlots when the table is full (the batch is walked
  // again). The prefix's points (candidates too) go into a slot once a leaf run.
  __device__ std::uint32_t slot_of(Walker& walker, std::uint32_t k, std::uint64_t pattern) {
    constexpr unsigned kAll = 0xffffffffu;
    const std::uint32_t lane = walker.scratch.lane();
    // A one-word pattern is the dimensions themselves: it means the same for the whole item, whose
    // end empties the cache with the slots. Other patterns are places among the top level's dimensions.
    if (walker.words() != 1 && cache_epoch != walker.top_epoch) {
      cache_epoch = walker.top_epoch;
      cached = 0;
    }
    const unsigned hit = __ballot_sync(kAll, (cached >> lane & 1) != 0 && cached_pattern == pattern);
    std::uint32_t slot;
    if (hit != 0) {
      slot = __shfl_sync(kAll, cached_slot, __ffs(static_cast<int>(hit)) - 1);
    } else {
      std::uint32_t entry = gpu_direct::kNoEntry;
      if (lane == 0) {
        walker.write_pattern_key(pattern);
        entry = lookup(walker, k);
      }
      entry = __shfl_sync(kAll, entry, 0);
      if (entry == gpu_direct::kNoEntry) return kSlots;
      const unsigned holding = __ballot_sync(kAll, (used >> lane & 1) != 0 && slot_entry == entry);
      if (holding != 0) {
        slot = static_cast<std::uint32_t>(__ffs(static_cast<int>(holding)) - 1);
      } else {
        if (used == kAll) flush_slots(walker);
        slot = static_cast<std::uint32_t>(__ffs(static_cast<int>(~used)) - 1);
        if (lane == slot) slot_entry = entry;
        used |= 1u << slot;
      }
      if (lane == next_line) {
        cached_pattern = pattern;
        cached_slot = slot;
      }
      cached |= 1u << next_line;
      next_line = (next_line + 1) % 32;
    }
    if ((touched >> slot & 1) == 0) {
      touched |= 1u << slot;
      if (lane == 0)
        for (std::uint32_t t = 1; t < k; ++t) set_candidate(slot, walker.scratch.subset(t), walker);
    }
    return slot;
  }

  // Slot words change only by atomics (a reduction whose result is unused goes out without waiting,
  // where a read-modify-write waited for its read) and are read only by the atomic that empties them.
  __device__ void set_candidate(std::uint32_t slot, std::uint32_t candidate, const Walker& walker) {
    atomicOr(slot_bits + slot * walker.scratch.column_words + candidate / 32, 1u << (candidate % 32));
  }

  // A word of leaves (candidates 32 b ..), called by all lanes: `worth` where a lane's leaf is a
  // unit to emit, with its pattern. The units go into the slots; lane 0 returns their count.
  __device__ std::uint64_t slot_group(Walker& walker, std::uint32_t k, bool worth, std::uint64_t pattern,
                                      std::uint32_t b) {
    constexpr unsigned kAll = 0xffffffffu;
    const unsigned worth_lanes = __ballot_sync(kAll, worth);
    if (worth_lanes == 0) return 0;
    const unsigned same = __match_any_sync(kAll, pattern) & worth_lanes;
    const std::uint32_t lane = walker.scratch.lane();
    std::uint64_t units = 0;
    group_word = b;
    for (unsigned pending = worth_lanes; pending != 0;) {
      const int leader = __ffs(static_cast<int>(pending)) - 1;
      const unsigned group = __shfl_sync(kAll, same, leader);
      const std::uint64_t leader_pattern = __shfl_sync(kAll, pattern, leader);
      pending &= ~group;
      const std::uint32_t slot = slot_of(walker, k, leader_pattern);
      if (slot == kSlots) continue;
      if (lane == slot) group_bits |= group;
      units += static_cast<std::uint64_t>(__popc(group));
    }
    store_group_bits(walker);
    return lane == 0 ? units : 0;
  }

  // Lane l's slot's bits of the word of leaves being handed over (group_word) into the slot, once
  // for all the word's groups: the lanes write their slots at once, where lane 0 read and wrote
  // one slot a group after another. All lanes; the warp syncs around it, as lane 0 writes slots'
  // words too (the prefix's candidates).
  __device__ void store_group_bits(const Walker& walker) {
    __syncwarp();
    if (group_bits != 0)
      atomicOr(slot_bits + walker.scratch.lane() * walker.scratch.column_words + group_word, group_bits);
    group_bits = 0;
    __syncwarp();
  }

  // Every slot's candidates' points (and p_i) into its table entry; the slots are emptied. All lanes.
  __device__ void flush_slots(const Walker& walker) {
    constexpr unsigned kAll = 0xffffffffu;
    store_group_bits(walker);
    __syncwarp();
    const std::uint32_t lane = walker.scratch.lane(), words = (walker.scratch.candidates() + 31) / 32;
    for (unsigned rest = used; rest != 0; rest &= rest - 1) {
      const int s = __ffs(static_cast<int>(rest)) - 1;
      const std::uint32_t entry = __shfl_sync(kAll, slot_entry, s);
      std::uint64_t* bits = table.bitmaps + std::uint64_t{entry} * table.point_words;
      if (lane == 0) {
        const std::uint32_t p = walker.scratch.points[0];
        set_bits(bits, p >> 6, std::uint64_t{1} << (p & 63));
      }
      for (std::uint32_t b = lane; b < words; b += 32) {
        for (std::uint32_t set = atomicExch(slot_bits + s * walker.scratch.column_words + b, 0u); set != 0;
             set &= set - 1) {
          const std::uint32_t p =
              walker.scratch.candidate_point(b * 32 + static_cast<std::uint32_t>(__ffs(static_cast<int>(set)) - 1));
          set_bits(bits, p >> 6, std::uint64_t{1} << (p & 63));
        }
      }
    }
    used = touched = cached = 0;
    __syncwarp();
  }
};

// What the walk calls to emit: one unit (emit()) or a word of leaves that share slots (slot_group),
// each handed to the thread's emitter.
template <class T, std::uint32_t kWords>
struct DeviceEmit {
  DeviceEmitter<T, kWords>& emitter;
  DirectWalker<DeviceWalkScratch, T, kWords>& walker;
  std::uint32_t k;

  __device__ void operator()() { emitter.emit(walker, k); }
  __device__ void begin_slot_run() { emitter.begin_slot_run(); }
  __device__ std::uint64_t slot_group(bool worth, std::uint64_t pattern, std::uint32_t b) {
    return emitter.slot_group(walker, k, worth, pattern, b);
  }
  __device__ bool covers(std::uint32_t level, std::uint32_t bound) { return emitter.covers(walker, level, bound); }
  // The device does not track the points it adds: a top-level prefix is asked once.
  __device__ std::uint64_t additions() const { return 0; }
};

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

// Blocks a multiprocessor keeps resident: 28 warps, 72 registers a thread (32 and 64 with one-word
// masks). Measured on an H200 in
// one call (S5500 at 0.01 / the 7494 x 16 file / ties_like_real_20g), before the one-word leaf runs
// used slots: 2.79 / 13.5 / 1.78 s at 4 blocks (124 registers, no spills), 2.66 / 12.3 / 1.76 s
// at 5 (96), 2.67 / 11.6 / 1.70 s at 6 (80) and 2.48 / 11.6 / 1.69 s at 7 (72). Once the one-word
// leaf runs read the pair table, their kernel waits on loads more than it computes, and 8 blocks
// (32 warps, 64 registers) walked S5500 in 1.014-1.034 s against 1.051-1.052 s at 7, the 7494 x 16
// file in 2.05 against 2.13 s (same call, same code otherwise); the kernel of wider masks keeps 7.
template <std::uint32_t kWords>
constexpr int kWalkBlocks = kWords == 1 ? 8 : 7;

// counters[0]: next item, [1]: nodes, [2]: units emitted, [3]: covered subtrees passed over (with
// skip_covered). kWords: the mask words when fixed at compile time (1), else 0 (walk_batch says
// why). A warp takes one item at a time (taking
// four neighbouring items at once, to share a window's candidates, made no difference).
template <class T, std::uint32_t kWords>
__global__ void __launch_bounds__(kBlockThreads, kWalkBlocks<kWords>)
    walk_direct_items(direct::DirectSpaceView<T> space, const DirectWorkItem* items, unsigned long long item_count,
                      DeviceWalkBuffers buffers, DirectAccumulatorView table, unsigned long long* counters,
                      bool skip_covered) {
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const std::uint32_t lane = threadIdx.x % DeviceWalkScratch::kLanes;
  const std::uint64_t warp = thread / DeviceWalkScratch::kLanes;
  const std::uint32_t capacity = buffers.pair_capacity, column_words = (capacity + 31) / 32;
  const std::uint32_t words = kWords != 0 ? kWords : space.words;  // a constant the scratch's indexing folds
  DeviceWalkScratch scratch{buffers.masks + thread,
                            buffers.pairs + warp * capacity * words,
                            buffers.candidate_slots + warp * capacity * 2,
                            buffers.columns + warp * column_words * buffers.tie_count,
                            buffers.built + warp * words,
                            column_words,
                            buffers.tie_count,
                            std::uint64_t{gridDim.x} * blockDim.x,
                            words,
                            space.k + 1,
                            capacity,
                            lane};
  DirectWalker<DeviceWalkScratch, T, kWords> walker{space, scratch};
  DeviceEmitter<T, kWords> emitter{table};
  emitter.slot_bits = buffers.slot_bits + warp * kSlots * column_words;
  emitter.skip_covered = skip_covered;
  DeviceEmit<T, kWords> emit{emitter, walker, space.k};
  unsigned long long nodes = 0, emitted = 0, covered = 0;
  while (true) {
    __syncwarp();
    unsigned long long item = 0;
    if (lane == 0) item = atomicAdd(counters, 1ull);
    item = __shfl_sync(0xffffffffu, item, 0);
    if (item >= item_count) break;
    const auto counts = walker.walk(items[item], emit);
    // The slots hold candidates of this item's window, which the next item may replace.
    if (emitter.used != 0) emitter.flush_slots(walker);
    nodes += counts.nodes;
    emitted += counts.emitted;
    if (lane == 0) covered += counts.covered;  // every lane counts the prefixes it walks with the others
  }
  atomicAdd(counters + 1, nodes);
  atomicAdd(counters + 2, emitted);
  atomicAdd(counters + 3, covered);
}

template <class T>
struct DeviceDirectInputs {
  DeviceBuffer<T> rows;
  DeviceBuffer<std::uint32_t> sorted, window_end;
  DeviceBuffer<std::uint64_t> binomials, tie_dimensions;
  DeviceBuffer<DirectWorkItem> items;
  direct::DirectSpaceView<T> view;

  DeviceDirectInputs(const DirectSpace& space, const UnitPlan& plan, const std::vector<DirectWorkItem>& host_items,
                     cudaStream_t stream)
      : rows(DeviceBuffer<T>::from_host(space.held_rows<T>(), stream)),
        sorted(DeviceBuffer<std::uint32_t>::from_host(space.sorted, stream)),
        window_end(DeviceBuffer<std::uint32_t>::from_host(space.window_end, stream)),
        binomials(DeviceBuffer<std::uint64_t>::from_host(plan.binomial_values(), stream)),
        tie_dimensions(DeviceBuffer<std::uint64_t>::from_host(space.tie_dimensions, stream)),
        items(DeviceBuffer<DirectWorkItem>::from_host(host_items, stream)),
        view(space.view<T>(plan)) {
    view.rows = rows.data();
    view.sorted = sorted.data();
    view.window_end = window_end.data();
    view.binomials.values = binomials.data();
    view.tie_dimensions = tie_dimensions.data();
  }
  std::uint64_t bytes() const {
    return rows.bytes() + sorted.bytes() + window_end.bytes() + binomials.bytes() + tie_dimensions.bytes() +
           items.bytes();
  }
  void release() {
    rows = {};
    sorted = {};
    window_end = {};
    binomials = {};
    tie_dimensions = {};
    items = {};
  }
};

std::uint64_t units_of(const std::vector<DirectWorkItem>& items, std::uint64_t begin, std::uint64_t end) {
  std::uint64_t units = 0;
  for (std::uint64_t t = begin; t < end; ++t) units += items[t].rank_end - items[t].rank_begin;
  return units;
}

// Entries the device table gets: what the budget leaves after inputs and scratch, at most 2^31,
// and never more than the units walked (each subspace needs one), which keeps a small walk from
// paying to allocate and clear most of the device's memory.
std::uint32_t table_entries(const DenseUnitsParams& params, std::uint64_t left, std::uint32_t dimensions,
                            std::uint32_t key_words, std::uint32_t point_words, std::uint64_t units) {
  std::uint64_t entries = left / gpu_direct::DeviceDirectAccumulator::bytes_per_entry(key_words, point_words);
  entries = std::min<std::uint64_t>({entries, std::uint64_t{1} << 31, std::max<std::uint64_t>(units, 1)});
  // Nor more than there are subspaces of two or more dimensions: S5500 (20 dimensions) took 128 GB
  // of table for 153,830 subspaces, and 0.1 s to clear and free it.
  if (dimensions < 31) entries = std::min<std::uint64_t>(entries, (std::uint64_t{1} << dimensions) - dimensions - 1);
  if (params.device_subspace_capacity > 0) entries = std::min(entries, params.device_subspace_capacity);
  if (entries < 1)
    throw ResourceError("direct mode: the device budget leaves no room for the subspace table; raise " +
                        std::string("memory.device_bytes or run with backend: cpu"));
  return static_cast<std::uint32_t>(entries);
}

// The pair table on the device, its view set in `inputs`, or an empty buffer (the walk then reads
// values, with the same result): only for masks of one word, where the warps' leaf runs take their
// dimensions from it, and, unless params.device_pair_table_bytes asks for it, only for a walk that
// pays for its building (pair_table_pays) within an eighth of the budget. Measured on an H200
// (S5500 at 0.01, one call): see bench/RESULTS.md, "the pair table on the device".
template <class T>
DeviceBuffer<std::uint64_t> device_pair_table(const DirectSpace& space, DeviceDirectInputs<T>& inputs,
                                              const DenseUnitsParams& params, std::uint64_t budget, std::uint64_t units,
                                              cudaStream_t stream, std::vector<std::string>& notes) {
  if (space.key_words() != 1 || !pair_table_wanted(space, units, params.device_pair_table_bytes, budget / 8)) return {};
  const std::uint64_t bytes = direct_pair_table_bytes(space);
  DeviceBuffer<std::uint64_t> table;
  try {
    table = DeviceBuffer<std::uint64_t>((bytes + 7) / 8);
  } catch (const ResourceError&) {
    cudaGetLastError();  // an out-of-memory is not sticky
    notes.push_back("the device had no room for the pair table (" + io::describe_bytes(bytes) +
                    "); the walk reads values instead");
    return {};
  }
  const std::uint32_t word_bytes = pair_table_word_bytes(space);
  gpu_direct::fill_pair_table(inputs.rows.data(), space.points, space.dimensions, space.key_words(),
                              inputs.view.epsilon, word_bytes, table.data(), stream);
  inputs.view.pair_table = table.data();
  inputs.view.pair_word_bytes = word_bytes;
  return table;
}

// What the walk allocates on the device: inputs, the walkers' scratch (masks and, where they fit,
// the windows' pair masks), the counters and the subspace table, which takes what the rest leave.
template <class T>
struct DirectDeviceMemory {
  cudaStream_t stream;
  std::uint64_t threads;
  DeviceDirectInputs<T> inputs;
  DeviceBuffer<std::uint64_t> masks, pairs, built;
  DeviceBuffer<std::uint32_t> candidate_slots, columns, slot_bits;
  std::uint32_t pair_capacity = 0, tie_count = 0;
  DeviceBuffer<unsigned long long> counters;
  DeviceBuffer<std::uint64_t> pair_table;
  std::optional<gpu_direct::DeviceDirectAccumulator> table;
  std::uint32_t entries = 0;

  DirectDeviceMemory(const DirectSpace& space, const UnitPlan& plan, const DenseUnitsParams& params,
                     const gpu::DeviceInfo& device, const gpu::ExecutionContext& context,
                     const std::vector<DirectWorkItem>& items, std::vector<std::string>& notes)
      : stream(context.stream),
        threads(std::uint64_t(device.multiprocessors) * 2048),
        inputs(space, plan, items, context.stream),
        masks(threads * (space.k + 2) * space.key_words()),
        counters(4) {
    // Pair masks and candidates take at most a quarter of the budget: they turn most leaves away
    // with one word, but a window past their room walks without them (and all its following points).
    const std::uint64_t budget = gpu::device_budget(context.device_bytes, device.free_bytes);
    const std::uint64_t units = units_of(items, 0, items.size());
    pair_table = device_pair_table(space, inputs, params, budget, units, stream, notes);
    const std::uint64_t words = space.key_words();
    const std::uint64_t warps = threads / DeviceWalkScratch::kLanes;
    // An element also takes a bit in every tie dimension's column and in every slot (whole
    // words of 32 elements; the 32 spare elements cover the rounding).
    for (const std::uint64_t word : space.tie_dimensions) tie_count += static_cast<std::uint32_t>(std::popcount(word));
    const std::uint64_t per_element = words * 8 + 2 * 4 + (tie_count + kSlots + 7) / 8;
    const std::uint64_t wanted = warps * (std::uint64_t{std::max(plan.largest_window(), 1u)} + 32) * per_element;
    pair_capacity = static_cast<std::uint32_t>(std::min(budget / 4, wanted) / (warps * per_element));
    pair_capacity = pair_capacity > 32 ? pair_capacity - 32 : 0;
    const std::uint64_t column_words = (pair_capacity + 31) / 32;
    pairs = DeviceBuffer<std::uint64_t>(std::max<std::uint64_t>(1, warps * pair_capacity * words));
    candidate_slots = DeviceBuffer<std::uint32_t>(std::max<std::uint64_t>(1, warps * pair_capacity * 2));
    columns = DeviceBuffer<std::uint32_t>(std::max<std::uint64_t>(1, warps * column_words * tie_count));
    built = DeviceBuffer<std::uint64_t>(warps * words);
    slot_bits = DeviceBuffer<std::uint32_t>(std::max<std::uint64_t>(1, warps * kSlots * column_words));
    // Slots start empty and are left empty by every item; built columns are reset with the candidates.
    SUBSCALE_CUDA_CHECK(cudaMemsetAsync(built.data(), 0, built.bytes(), stream));
    SUBSCALE_CUDA_CHECK(cudaMemsetAsync(slot_bits.data(), 0, slot_bits.bytes(), stream));
    const std::uint64_t used = inputs.bytes() + masks.bytes() + walk_scratch_bytes();
    // The free memory may have shrunk since it was measured: a smaller table (more spills) instead
    // of failing.
    for (entries = table_entries(params, budget > used ? budget - used : 0, space.dimensions, space.key_words(),
                                 space.point_words(), units);
         !table;) {
      try {
        table.emplace(entries, space.key_words(), space.point_words(), stream);
      } catch (const ResourceError&) {
        cudaGetLastError();  // an out-of-memory is not sticky
        if (entries < 2) throw;
        notes.push_back("the device had no room for a subspace table of " + std::to_string(entries) +
                        " entries; took half as many");
        entries /= 2;
      }
    }
  }
  std::uint64_t walk_scratch_bytes() const {
    return pair_table.bytes() + pairs.bytes() + candidate_slots.bytes() + columns.bytes() + built.bytes() +
           slot_bits.bytes();
  }
  std::uint64_t bytes() const { return inputs.bytes() + masks.bytes() + walk_scratch_bytes() + table->bytes(); }
  DeviceWalkBuffers walk_buffers() {
    return {masks.data(), pairs.data(),     candidate_slots.data(), columns.data(),
            built.data(), slot_bits.data(), pair_capacity,          tie_count};
  }
  // Once the walk is over, its room goes to ordering and listing the table.
  void release_walk() {
    inputs.release();
    pair_table = {};
    masks = {};
    pairs = {};
    candidate_slots = {};
    columns = {};
    built = {};
    slot_bits = {};
  }
};

// Walks items[begin, begin + count) on the device; false when the table overflowed (the batch
// must be walked again after a spill), else adds its counts to the result.
template <class T>
bool walk_batch(DirectDeviceMemory<T>& memory, std::uint64_t begin, std::uint64_t count, bool skip_covered,
                DenseUnitsResult& result) {
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(memory.counters.data(), 0, memory.counters.bytes(), memory.stream));
  // Masks of one word (at most 64 dimensions) have a kernel of their own: without the loops over
  // words and the paths only several words take, the code a warp runs most is shorter, and
  // instruction fetch was the walk's largest stall.
  const auto launch = [&](auto kernel) {
    kernel<<<memory.threads / kBlockThreads, kBlockThreads, 0, memory.stream>>>(
        memory.inputs.view, memory.inputs.items.data() + begin, count, memory.walk_buffers(), memory.table->view(),
        memory.counters.data(), skip_covered);
  };
  if (memory.inputs.view.words == 1)
    launch(walk_direct_items<T, 1>);
  else
    launch(walk_direct_items<T, 0>);
  SUBSCALE_CUDA_CHECK_LAUNCH("walk_direct_items");
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(memory.stream));
  if (memory.table->overflowed()) return false;
  const auto totals = memory.counters.to_host(4, memory.stream);
  result.walk_nodes += totals[1];
  result.distinct_multi_units += totals[2];
  result.walk_covered += totals[3];
  return true;
}

// Refuses a spill of `incoming` entries that could take the host map past `limit` bytes: at worst
// every entry is new and the map's arrays double while they grow.
void check_spill_room(const direct::DirectSubspaceMap& map, std::uint64_t incoming, std::uint64_t limit) {
  const std::uint64_t per_entry = direct::DirectSubspaceMap::bytes_per_entry(map.key_words(), map.point_words());
  const std::uint64_t after = (std::uint64_t{map.size()} + incoming) * per_entry;
  if (2 * after <= limit) return;
  throw ResourceError("direct mode: " + std::to_string(map.size()) + " subspaces are held on the host and " +
                      std::to_string(incoming) + " more wait on the device; as point bitmaps they would take up to " +
                      io::describe_bytes(2 * after) + " of host memory, more than the " + io::describe_bytes(limit) +
                      " this process can take. This input has more distinct subspaces than one machine's memory "
                      "holds: raise epsilon or min_points, or run it on several machines with mpirun (each "
                      "process holds the subspaces of its share)");
}

template <class T>
DenseUnitsResult run_held_units_gpu(const DirectSpace& space, const UnitPlan& plan, const DenseUnitsParams& params,
                                    direct::DirectWalkOutput& output, const UnitProgress& progress,
                                    std::span<const UnitRange> only, const gpu::ExecutionContext& context) {
  direct::DirectSubspaceMap& subspaces = output.map;
  DenseUnitsResult result;
  PhaseTimer timer(result.phase_seconds);
  timer.start("direct: device query");
  const gpu::DeviceInfo device = gpu::query_device();
  if (!device.available) throw ResourceError("backend: cuda was asked for, but " + device.reason);
  timer.start("direct: work items");
  const std::vector<DirectWorkItem> items = make_direct_work_items(
      plan, params.device_units_per_run > 0 ? params.device_units_per_run : kDeviceUnitsPerItem, only);
  timer.start("direct: inputs to device");
  // Held so that its release (tens of gigabytes of table) is timed like the other phases.
  std::optional<DirectDeviceMemory<T>> held_memory;
  DirectDeviceMemory<T>& memory = held_memory.emplace(space, plan, params, device, context, items, result.notes);
  const std::uint64_t host_limit = params.host_map_bytes > 0 ? params.host_map_bytes : io::available_host_memory();
  auto spill = [&] {
    check_spill_room(subspaces, memory.table->entries(), host_limit);
    memory.table->spill_into(subspaces);
  };
  result.device_bytes = memory.bytes();
  result.device_pair_table_bytes = memory.pair_table.bytes();
  // Batches of items: one that overflows the table is walked again, halved, after a spill (ORing
  // is idempotent); a single item that overflows an empty table is walked on the host. A batch
  // ends with the device waiting for its slowest warps (an item can take tens of milliseconds), so
  // batches double while they take under a few seconds: ties_like_real_350g's 5 M items in 76
  // batches of 2^16 walked in 59.7 s, in 38 batches of up to 2^17 in 58.7 s. A batch that
  // overflows the table wastes its walk, so they stay far from the whole run.
  constexpr std::uint64_t kFirstBatchItems = std::uint64_t{1} << 16, kMostBatchItems = std::uint64_t{1} << 21;
  constexpr double kBatchSeconds = 4.0;
  std::uint64_t batch = kFirstBatchItems, redone = 0, host_items = 0;
  for (std::uint64_t begin = 0; begin < items.size();) {
    const std::uint64_t count = std::min<std::uint64_t>(batch, items.size() - begin);
    timer.start("direct: walk");
    const auto started = std::chrono::steady_clock::now();
    if (walk_batch(memory, begin, count, !params.direct_count_units, result)) {
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
      if (took.count() < kBatchSeconds) batch = std::min(batch * 2, kMostBatchItems);
    } else {
      timer.start("direct: spill to host");
      spill();
      ++redone;
      if (count > 1) {
        batch = std::max<std::uint64_t>(1, count / 2);
        continue;
      }
      const auto counts = walk_direct_item(space, plan, items[begin], subspaces);
      result.walk_nodes += counts.nodes;
      result.distinct_multi_units += counts.emitted;
      ++host_items;
    }
    if (progress) progress(units_of(items, begin, begin + count));
    begin += count;
    if (memory.table->entries() > memory.entries / 2) {
      timer.start("direct: spill to host");
      spill();
    }
  }
  // A table that held everything is ordered and listed on the device; one that spilled before
  // (or finds no room for that) goes to the host map.
  std::uint64_t listed = 0;
  if (output.list_on_device && subspaces.size() == 0) {
    timer.start("direct: count bits on device");
    memory.release_walk();
    output.listed = memory.table->list_in_order(space.dimensions, params.device_list_chunk_ids,
                                                [&](const char* step) { timer.start(step); });
    if (output.listed) listed = output.listed->size();
  }
  if (!output.listed) {
    timer.start("direct: spill to host");
    spill();
  }
  timer.stop();
  result.walk_items = items.size();
  result.multi_units_counted = params.direct_count_units;
  result.enumerated_units = units_in(plan, only);
  result.device_subspaces = memory.table->spilled_entries() + listed;
  result.table_bytes = subspaces.bytes();
  if (redone > 0)
    result.notes.push_back(std::to_string(redone) + " batch(es) of work items overflowed the device subspace table (" +
                           std::to_string(memory.entries) + " entries) and were walked again after a spill to the " +
                           "host" +
                           (host_items > 0 ? "; " + std::to_string(host_items) + " item(s) walked on the host" : ""));
  timer.start("direct: release device memory");
  held_memory.reset();
  timer.stop();
  return result;
}

}  // namespace

DenseUnitsResult run_direct_units_gpu(const DirectSpace& space, const UnitPlan& plan, const DenseUnitsParams& params,
                                      direct::DirectWalkOutput& output, const UnitProgress& progress,
                                      std::span<const UnitRange> only, const gpu::ExecutionContext& context) {
  return space.visit_precision([&](auto held) {
    return run_held_units_gpu<decltype(held)>(space, plan, params, output, progress, only, context);
  });
}

}  // namespace subscale
