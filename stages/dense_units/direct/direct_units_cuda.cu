// Direct mode on the GPU, the host's side: plans the work items, puts the inputs and the walk's
// scratch on the device, launches the walk (direct_walk_cuda.cu) a batch of items at a time, and
// hands the device subspace table (direct_accumulator_cuda.cuh) over. A batch of items that
// overflows the table is walked again after the table is spilled to the host in bulk (ORing is
// idempotent), and a single item that overflows an empty table is walked on the host. With masks
// of one word a pair table on the device (direct_pair_table_cuda.cuh) gives prefixes and leaves
// their dimensions from a few words instead of values.
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
#include "io/host_memory.hpp"
#include "stages/dense_units/direct/direct_accumulator_cuda.cuh"
#include "stages/dense_units/direct/direct_pair_table.hpp"
#include "stages/dense_units/direct/direct_pair_table_cuda.cuh"
#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/dense_units/direct/direct_walk_cuda.cuh"

namespace subscale {
namespace {

using dense_units::direct::DeviceWalkBuffers;
using dense_units::direct::DeviceWalkScratch;
using dense_units::direct::DirectWorkItem;
using dense_units::direct::kSlots;
using gpu::DeviceBuffer;

template <class T>
struct DeviceDirectInputs {
  DeviceBuffer<T> rows;
  DeviceBuffer<std::uint32_t> sorted, window_end;
  DeviceBuffer<std::uint64_t> binomials, tie_dimensions;
  DeviceBuffer<DirectWorkItem> items;
  dense_units::direct::DirectSpaceView<T> view;

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
  std::uint64_t entries = left / dense_units::direct::DeviceDirectAccumulator::bytes_per_entry(key_words, point_words);
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
  dense_units::direct::fill_pair_table(inputs.rows.data(), space.points, space.dimensions, space.key_words(),
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
  std::optional<dense_units::direct::DeviceDirectAccumulator> table;
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
  dense_units::direct::launch_walk_direct_items(memory.inputs.view, memory.inputs.items.data() + begin, count,
                                                memory.walk_buffers(), memory.table->view(), memory.counters.data(),
                                                skip_covered, memory.threads, memory.stream);
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
void check_spill_room(const dense_units::direct::DirectSubspaceMap& map, std::uint64_t incoming, std::uint64_t limit) {
  const std::uint64_t per_entry =
      dense_units::direct::DirectSubspaceMap::bytes_per_entry(map.key_words(), map.point_words());
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
DenseUnitsResult run_held_units_cuda(const DirectSpace& space, const UnitPlan& plan, const DenseUnitsParams& params,
                                     dense_units::direct::DirectWalkOutput& output, const UnitProgress& progress,
                                     std::span<const UnitRange> only, const gpu::ExecutionContext& context) {
  dense_units::direct::DirectSubspaceMap& subspaces = output.map;
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

DenseUnitsResult run_direct_units_cuda(const DirectSpace& space, const UnitPlan& plan, const DenseUnitsParams& params,
                                       dense_units::direct::DirectWalkOutput& output, const UnitProgress& progress,
                                       std::span<const UnitRange> only, const gpu::ExecutionContext& context) {
  return space.visit_precision([&](auto held) {
    return run_held_units_cuda<decltype(held)>(space, plan, params, output, progress, only, context);
  });
}

}  // namespace subscale
