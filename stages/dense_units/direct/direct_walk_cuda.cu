// Direct mode's walk on the GPU: the same walk as the CPU's (direct_walker.hpp), one work item at a
// time per warp: its lanes walk the item's prefixes alike and deal out the leaves, so they do not
// diverge above the leaves. Warps stay resident and take the next item from an atomic counter, so
// windows of 4 and of thousands of points mix without leaving warps idle for long. Each thread's
// emitter puts its units into the device subspace table (direct_accumulator_cuda.cuh), the units
// of a warp's one-word and tie-column leaf runs by way of the warp's slots.
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/hash/hash_functions.hpp"
#include "stages/dense_units/direct/direct_accumulator_cuda.cuh"
#include "stages/dense_units/direct/direct_walk_cuda.cuh"
#include "stages/dense_units/direct/direct_walker.hpp"

namespace subscale {
namespace {

using dense_units::direct::DeviceWalkBuffers;
using dense_units::direct::DeviceWalkScratch;
using dense_units::direct::DirectAccumulatorView;
using dense_units::direct::DirectWalker;
using dense_units::direct::DirectWorkItem;
using dense_units::direct::kBlockThreads;
using dense_units::direct::kSlots;

// One thread's emitter: D(U) as a key, its entry (the previous unit's when the keys match), and
// the points ORed in (the prefix's only when this thread has not added them to the entry for the
// same prefix already).
template <class T, std::uint32_t kWords>
struct DeviceEmitter {
  using Walker = DirectWalker<DeviceWalkScratch, T, kWords>;
  DirectAccumulatorView table;
  std::uint32_t cached_entry = dense_units::direct::kNoEntry;  // the entry of the last key looked up
  std::uint64_t last_key_first = 0;
  std::uint32_t prefix_entry = dense_units::direct::kNoEntry;  // the entry that last got the prefix's points
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
      atomicExch(slot, dense_units::direct::kLostSlot);
      return dense_units::direct::kNoEntry;
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
      if (seen == dense_units::direct::kEmptySlot) {
        if (*reinterpret_cast<volatile unsigned int*>(table.entry_count) >= table.entry_capacity) break;
        seen = atomicCAS(slot, dense_units::direct::kEmptySlot, dense_units::direct::kBusySlot);
        if (seen == dense_units::direct::kEmptySlot) return claim(walker, k, slot, tag);
      }
      while (seen == dense_units::direct::kBusySlot) seen = *reinterpret_cast<volatile unsigned long long*>(slot);
      if (seen != dense_units::direct::kLostSlot && (seen >> 32) == tag) {
        const auto entry = static_cast<std::uint32_t>(seen);
        if (key_matches(walker, k, entry)) return entry;
      }
      s = s + 1 == table.slot_count ? 0 : s + 1;
    }
    return dense_units::direct::kNoEntry;
  }

  // The unit's key equals the last one looked up? Its first word is kept in a register (all of it
  // up to 64 dimensions), the others in the thread's scratch.
  __device__ bool same_as_last(const Walker& walker, std::uint32_t k) const {
    if (cached_entry == dense_units::direct::kNoEntry || last_key_first != key_word(walker, k, 0)) return false;
    for (std::uint32_t w = 1; w < key_words(); ++w)
      if (walker.scratch.last_key(w) != key_word(walker, k, w)) return false;
    return true;
  }

  // The entry of the unit's key (kNoEntry, with the overflow flag set, when the table is full).
  __device__ std::uint32_t lookup(const Walker& walker, std::uint32_t k) {
    if (same_as_last(walker, k)) return cached_entry;
    cached_entry = find_or_add(walker, k, key_hash([&](std::uint32_t w) { return key_word(walker, k, w); }));
    if (cached_entry == dense_units::direct::kNoEntry) {
      atomicExch(table.overflow, 1u);
      return dense_units::direct::kNoEntry;
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
    if (entry == dense_units::direct::kNoEntry) return;
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
    std::uint32_t entry = dense_units::direct::kNoEntry;
    bool held = false;
    if (mine) {
      entry = find_subset(walker, dims, count, lane);
      held = entry != dense_units::direct::kNoEntry;
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
        const bool lacks = in && (its_entry == dense_units::direct::kNoEntry || !holds(its_entry, p));
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
      if (seen == dense_units::direct::kEmptySlot || seen == dense_units::direct::kBusySlot)
        return dense_units::direct::kNoEntry;
      if (seen != dense_units::direct::kLostSlot && (seen >> 32) == tag &&
          stores_key(static_cast<std::uint32_t>(seen), word))
        return static_cast<std::uint32_t>(seen);
      s = s + 1 == table.slot_count ? 0 : s + 1;
    }
    return dense_units::direct::kNoEntry;
  }

  __device__ bool holds(std::uint32_t entry, std::uint32_t p) const {
    const auto word = table.bitmaps[std::uint64_t{entry} * table.point_words + p / 64];
    return (word >> (p % 64) & 1) != 0;
  }

  // The warp's slots and the patterns last given one, spread over the lanes: lane l holds slot
  // l's entry and cache line l (a pattern and its slot). The other fields are the same in all lanes.
  std::uint32_t* slot_bits = nullptr;  // kSlots x column_words
  std::uint32_t slot_entry = dense_units::direct::kNoEntry;
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
      std::uint32_t entry = dense_units::direct::kNoEntry;
      if (lane == 0) {
        walker.write_pattern_key(pattern);
        entry = lookup(walker, k);
      }
      entry = __shfl_sync(kAll, entry, 0);
      if (entry == dense_units::direct::kNoEntry) return kSlots;
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
// skip_covered). kWords: the mask words when fixed at compile time (1), else 0
// (launch_walk_direct_items says why). A warp takes one item at a time (taking four neighbouring
// items at once, to share a window's candidates, made no difference).
template <class T, std::uint32_t kWords>
__global__ void __launch_bounds__(kBlockThreads, kWalkBlocks<kWords>)
    walk_direct_items(dense_units::direct::DirectSpaceView<T> space, const DirectWorkItem* items,
                      unsigned long long item_count, DeviceWalkBuffers buffers, DirectAccumulatorView table,
                      unsigned long long* counters, bool skip_covered) {
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

}  // namespace

namespace dense_units::direct {

template <class T>
void launch_walk_direct_items(const dense_units::direct::DirectSpaceView<T>& space,
                              const dense_units::direct::DirectWorkItem* items, unsigned long long item_count,
                              const DeviceWalkBuffers& buffers, const DirectAccumulatorView& table,
                              unsigned long long* counters, bool skip_covered, std::uint64_t threads,
                              cudaStream_t stream) {
  // Masks of one word (at most 64 dimensions) have a kernel of their own: without the loops over
  // words and the paths only several words take, the code a warp runs most is shorter, and
  // instruction fetch was the walk's largest stall.
  const auto launch = [&](auto kernel) {
    kernel<<<threads / kBlockThreads, kBlockThreads, 0, stream>>>(space, items, item_count, buffers, table, counters,
                                                                  skip_covered);
  };
  if (space.words == 1)
    launch(walk_direct_items<T, 1>);
  else
    launch(walk_direct_items<T, 0>);
}

template void launch_walk_direct_items<float>(const dense_units::direct::DirectSpaceView<float>&,
                                              const dense_units::direct::DirectWorkItem*, unsigned long long,
                                              const DeviceWalkBuffers&, const DirectAccumulatorView&,
                                              unsigned long long*, bool, std::uint64_t, cudaStream_t);
template void launch_walk_direct_items<double>(const dense_units::direct::DirectSpaceView<double>&,
                                               const dense_units::direct::DirectWorkItem*, unsigned long long,
                                               const DeviceWalkBuffers&, const DirectAccumulatorView&,
                                               unsigned long long*, bool, std::uint64_t, cudaStream_t);

}  // namespace dense_units::direct
}  // namespace subscale
