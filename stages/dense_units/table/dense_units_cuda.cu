// The CUDA backend of dense_units. Per partition of the signature space, one pass enumerates every
// unit and inserts those of the partition into the device signature table
// (signature_table_cuda.cuh); the duplicate groups are sorted and resolved on the device
// (group_resolver_cuda.cuh), and the units found in two or more dimensions are grouped into
// subspaces on the device (subspace_accumulator_cuda.cuh) or handed to the host. The memory
// budget is split once, up front: resolver and accumulator buffers of a fixed size, and the rest
// for the table, which sets how many units a pass can take and so the number of partitions. A
// partition whose table or duplicate list overflows is split in two and redone: more
// partitions, never a crash.
#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "common/phase_timer.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_budget.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "stages/dense_units/table/dense_units_cuda.hpp"
#include "stages/dense_units/table/group_resolver_cuda.cuh"
#include "stages/dense_units/table/signature_table_cuda.cuh"
#include "stages/dense_units/unit_space.hpp"
#include "stages/subspaces/subspace_accumulator_cuda.cuh"

namespace subscale {
namespace {

using dense_units::table::SignatureRange;
using gpu::DeviceBuffer;

constexpr double kMaxLoad = 0.65;                // units per slot a partition is planned for
constexpr std::uint64_t kSlotsPerDuplicate = 4;  // duplicate list: one entry per this many slots
constexpr std::uint64_t kMaxResolveChunk = std::uint64_t{32} << 20;
// The accumulator's share of the budget (1/32) sets its size up to this: 16 M subspaces (a full
// one spills to the host in one piece and starts again).
constexpr std::uint64_t kMaxDeviceSubspaces = std::uint64_t{1} << 24;
constexpr double kWarpWalkRun = 24;  // mean run of the lowest element from which warps walk

// The partitions' inclusive signature ranges from the plan's lower bounds.
std::deque<SignatureRange> ranges_of(const PartitionPlan& plan) {
  std::deque<SignatureRange> ranges;
  for (std::size_t p = 0; p < plan.count(); ++p)
    ranges.push_back({plan.lower[p], p + 1 < plan.count() ? plan.lower[p + 1] - 1 : ~std::uint64_t{0}});
  return ranges;
}

// Device copies of what the walker and the resolver read.
struct DeviceInputs {
  DeviceBuffer<std::uint64_t> window_start, sorted_keys, binomials, primary, secondary, bucket_window;
  DeviceBuffer<std::uint32_t> window_end, orders;
  dense_units::table::ResolveView view;

  DeviceInputs(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
               const UnitSpaceArrays& arrays, bool second_signature, cudaStream_t stream)
      : window_start(DeviceBuffer<std::uint64_t>::from_host(arrays.window_start, stream)),
        sorted_keys(DeviceBuffer<std::uint64_t>::from_host(arrays.sorted_keys, stream)),
        binomials(DeviceBuffer<std::uint64_t>::from_host(plan.binomial_values(), stream)),
        primary(DeviceBuffer<std::uint64_t>::from_host(keys.primary, stream)),
        secondary(DeviceBuffer<std::uint64_t>::from_host(keys.secondary, stream)),
        bucket_window(DeviceBuffer<std::uint64_t>::from_host(plan.bucket_window(), stream)),
        window_end(DeviceBuffer<std::uint32_t>::from_host(arrays.window_end, stream)) {
    // The resolver's 1-D orders: point id at position i of dimension j, window by window.
    orders = DeviceBuffer<std::uint32_t>::from_host(flat_orders(density, plan.points()), stream);
    view.space = arrays.view(plan);
    view.space.window_start = window_start.data();
    view.space.sorted_keys = sorted_keys.data();
    view.space.window_end = window_end.data();
    view.space.binomials.values = binomials.data();
    view.space.bucket_window = plan.bucket_window().empty() ? nullptr : bucket_window.data();
    view.order = orders.data();
    view.primary_keys = primary.data();
    view.secondary_keys = secondary.data();
    view.second_signature = second_signature;
  }

  static std::uint64_t bytes_for(const UnitPlan& plan, const UnitSpaceArrays& arrays) {
    return arrays.window_start.size() * 8 + arrays.sorted_keys.size() * 8 + arrays.window_end.size() * 4 +
           plan.bucket_window().size() * 8 + plan.binomial_values().size() * 8 +
           std::uint64_t{plan.points()} * (16 + 4ull * plan.dimensions());
  }
  std::uint64_t bytes() const {
    return window_start.bytes() + sorted_keys.bytes() + binomials.bytes() + primary.bytes() + secondary.bytes() +
           bucket_window.bytes() + window_end.bytes() + orders.bytes();
  }
};

// How the device budget is spent: fixed-size resolver and accumulator buffers, the table the rest.
struct MemoryPlan {
  std::uint64_t resolve_chunk = 0;
  std::uint64_t subspace_capacity = 0;  // 0: subspaces are grouped on the host
  std::uint64_t table_slots = 0;
  std::uint32_t units_per_run = 0;
  bool warp_walk = false;
};

// The mean length, over units, of the runs of the lowest subset element (what a warp deals out
// to its lanes): a window with f following points has runs of (f - k + 1) / k units on average.
double mean_lowest_run(const UnitSpaceArrays& arrays, std::uint32_t points, std::uint32_t k) {
  double weighted = 0, units = 0;
  for (std::size_t w = 0; w < arrays.window_end.size(); ++w) {
    const auto count = static_cast<double>(arrays.window_start[w + 1] - arrays.window_start[w]);
    if (count == 0) continue;
    const double following = arrays.window_end[w] - static_cast<double>(w % points) - 1.0;
    weighted += count * (following - k + 1) / k;
    units += count;
  }
  return units > 0 ? weighted / units : 0;
}

MemoryPlan plan_memory(const UnitPlan& plan, const DenseUnitsParams& params, std::uint64_t available,
                       bool group_on_device, int multiprocessors, double lowest_run) {
  MemoryPlan memory;
  const std::uint32_t m = plan.min_points();
  // A chunk takes at most 1/16 of the memory, and always at least a few groups of every size.
  const std::uint64_t smallest_chunk = 4ull * plan.dimensions() + 1024;
  memory.resolve_chunk =
      params.device_resolve_chunk > 0
          ? std::max(params.device_resolve_chunk, smallest_chunk)
          : std::clamp(available / 16 / dense_units::table::DeviceGroupResolver::bytes_per_duplicate(m), smallest_chunk,
                       std::max(smallest_chunk, kMaxResolveChunk));
  std::uint64_t accumulator_bytes = 0;
  if (group_on_device) {
    const std::uint64_t per_subspace = dense_units::table::DeviceSubspaceAccumulator::bytes_per_subspace(plan.points());
    memory.subspace_capacity = params.device_subspace_capacity > 0
                                   ? params.device_subspace_capacity
                                   : std::clamp<std::uint64_t>(available / 32 / per_subspace, 64, kMaxDeviceSubspaces);
    accumulator_bytes = dense_units::table::DeviceSubspaceAccumulator::bytes_for(
        plan.points(), plan.dimensions(), memory.subspace_capacity, memory.resolve_chunk);
  }
  const std::uint64_t resolver_bytes =
      memory.resolve_chunk * dense_units::table::DeviceGroupResolver::bytes_per_duplicate(m);
  const std::uint64_t fixed = resolver_bytes + accumulator_bytes + (16ull << 20);
  if (available < fixed + (16ull << 20))
    throw ResourceError("memory.device_bytes leaves " + std::to_string(available) +
                        " bytes after the windows and keys, less than the " + std::to_string(fixed + (16ull << 20)) +
                        " the resolver, the accumulator and a minimal table need; raise it");
  const std::uint64_t wanted =
      std::max<std::uint64_t>(1 << 16, static_cast<std::uint64_t>(plan.total_units() / kMaxLoad) + 1);
  memory.table_slots = std::min(
      wanted, (available - fixed) / dense_units::table::DeviceSignatureTable::bytes_per_slot(kSlotsPerDuplicate));
  if (params.device_table_slots > 0) memory.table_slots = std::min(memory.table_slots, params.device_table_slots);
  // Long runs amortise a thread's search and unrank; short ones keep every thread busy on small
  // inputs. About 8 runs for each thread the device holds at once.
  const std::uint64_t resident = std::uint64_t(multiprocessors) * 2048;
  memory.units_per_run = params.device_units_per_run > 0
                             ? params.device_units_per_run
                             : static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
                                   plan.total_units() / std::max<std::uint64_t>(1, resident * 8), 64, 4096));
  // A warp pays off when the runs it deals out keep most of its lanes busy.
  memory.warp_walk = params.device_walk_lanes > 0 ? params.device_walk_lanes == 32 : lowest_run >= kWarpWalkRun;
  return memory;
}

}  // namespace

DenseUnitsResult run_dense_units_cuda(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                                      const DenseUnitsParams& params, const UnitProgress& progress,
                                      const UnitSink& sink, const SubspaceSink& subspace_sink,
                                      const gpu::ExecutionContext& context) {
  const gpu::DeviceInfo device = gpu::query_device();
  if (!device.available)
    throw ResourceError("backend: cuda was asked for, but " + device.reason + "; use backend: cpu or auto");
  check_signature_bits(params.signature_bits);
  if (params.mode == TableMode::exact)
    throw UsageError("mode: exact runs on the CPU backend only (it is the reference); use backend: cpu");
  if (plan.min_points() - 1 > enumeration::kMaxWalkerK)
    throw UsageError("the GPU backend handles min_points up to " + std::to_string(enumeration::kMaxWalkerK + 1) +
                     "; use backend: cpu for larger values");
  const std::uint64_t total = plan.total_units();
  if (total >= dense_units::table::kMaxUnits)
    throw ResourceError("the plan has " + std::to_string(total) + " dense units; the GPU backend indexes at most " +
                        std::to_string(dense_units::table::kMaxUnits) + "; lower epsilon or raise min_points");

  DenseUnitsResult result;
  PhaseTimer timer(result.phase_seconds);
  timer.start("setup");
  const UnitSpaceArrays arrays(plan, density, keys);
  const std::uint64_t budget = gpu::device_budget(context.device_bytes, device.free_bytes);
  const cudaStream_t stream = context.stream;
  const std::uint64_t inputs_bytes = DeviceInputs::bytes_for(plan, arrays);
  if (budget < inputs_bytes + (64ull << 20))
    throw ResourceError("memory.device_bytes (" + std::to_string(budget) + ") cannot hold the " +
                        std::to_string(inputs_bytes) + " bytes of windows and keys plus a table; raise it");
  const bool group_on_device = static_cast<bool>(subspace_sink);
  const double lowest_run = mean_lowest_run(arrays, plan.points(), plan.min_points() - 1);
  const MemoryPlan memory =
      plan_memory(plan, params, budget - inputs_bytes, group_on_device, device.multiprocessors, lowest_run);
  result.notes.push_back(std::string(memory.warp_walk ? "warps" : "threads") + " walk the units (runs of the " +
                         "lowest element average " + std::to_string(static_cast<int>(lowest_run)) + " units)");

  const DeviceInputs inputs(plan, density, keys, arrays, params.signature_bits == 128, stream);
  dense_units::table::DeviceGroupResolver resolver(inputs.view, memory.resolve_chunk, stream);
  std::optional<dense_units::table::DeviceSubspaceAccumulator> accumulator;
  if (group_on_device) {
    accumulator.emplace(plan.points(), plan.dimensions(), memory.subspace_capacity, memory.resolve_chunk, stream);
    accumulator->set_spill(subspace_sink);
  }
  // The free memory may have shrunk since it was measured (another process): a smaller table,
  // and so more partitions, instead of failing.
  std::optional<dense_units::table::DeviceSignatureTable> table;
  for (std::uint64_t slots = memory.table_slots; !table;) {
    try {
      // Enough room in every stripe of the list for one unit found in every dimension.
      table.emplace(slots,
                    std::max<std::uint64_t>({std::uint64_t{1} << 12, slots / kSlotsPerDuplicate,
                                             std::uint64_t{256} * (2 * plan.dimensions() + 16)}),
                    stream);
    } catch (const ResourceError&) {
      cudaGetLastError();  // an out-of-memory is not sticky: clear it and go on
      if (slots <= (1 << 16)) throw;
      result.notes.push_back("the device had no room for a table of " + std::to_string(slots) +
                             " slots; took half as many, so more partitions");
      slots /= 2;
    }
  }
  result.device_bytes = inputs.bytes() + resolver.bytes() + (accumulator ? accumulator->bytes() : 0) + table->bytes();
  result.table_bytes = table->capacity() * 8;

  DenseUnitsParams planned = params;
  const auto units_per_pass = static_cast<std::uint64_t>(static_cast<double>(table->capacity()) * kMaxLoad);
  if (planned.partitions == 0)
    planned.partitions =
        static_cast<std::size_t>(std::max<std::uint64_t>(1, (total + units_per_pass - 1) / units_per_pass));
  const PartitionPlan partitions = plan_partitions(plan, density, keys, planned);
  result.scheme = partitions.scheme;
  result.units.min_points = plan.min_points();

  MaximalUnits batch;
  batch.min_points = plan.min_points();
  std::deque<SignatureRange> work;
  {
    const std::deque<SignatureRange> all = ranges_of(partitions);
    for (const std::uint32_t p : selected_partitions(params, partitions.count())) work.push_back(all[p]);
  }
  // Halves the partition at the front of the work list; both halves are redone.
  auto split_front = [&](const char* why) {
    const SignatureRange range = work.front();
    if (range.lower == range.upper)
      throw ResourceError(std::string("one signature value holds more units than the device can take (") + why +
                          "); raise memory.device_bytes or use backend: cpu");
    const std::uint64_t middle = range.lower + (range.upper - range.lower) / 2;
    work.pop_front();
    work.push_front({middle + 1, range.upper});
    work.push_front({range.lower, middle});
    ++result.partition_splits;
  };
  auto on_units = [&](const dense_units::table::DeviceUnitsView& units) {
    if (accumulator) {
      timer.start("subspaces on device");
      accumulator->add(units, batch);
    } else {
      timer.start("copy units to host");
      dense_units::table::append_to_host(units, nullptr, batch, stream);
    }
  };
  while (!work.empty()) {
    const SignatureRange range = work.front();
    timer.start("insert");
    const dense_units::table::InsertStatus status =
        table->insert(inputs.view.space, total, range, memory.units_per_run, memory.warp_walk, device.multiprocessors);
    result.enumerated_units += total;
    if (status.table_full) {
      split_front("table full");
      continue;
    }
    if (status.duplicate_list_full) {
      split_front("duplicate list full");
      continue;
    }
    work.pop_front();
    timer.start("sort duplicates");
    const dense_units::table::SortedDuplicates duplicates = table->sort_duplicates(status.duplicates);
    SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
    batch.points.clear();
    batch.dimensions.clear();
    batch.dimension_begin.assign(1, 0);
    result.distinct_multi_units += resolver.resolve(duplicates, on_units, &timer);
    if (batch.size() > 0) {
      timer.start("hand over units");
      if (sink)
        sink(batch);
      else
        result.units.append(batch);
    }
    result.partitions.push_back({range.lower, status.kept});
    if (progress) progress(total / std::max<std::size_t>(1, partitions.count()));
  }
  result.resolved_members = resolver.members_resolved();
  if (accumulator) {
    timer.start("subspaces to host");
    subspace_sink(accumulator->subspaces());
    result.device_subspaces = accumulator->total();
    if (accumulator->spills() > 0)
      result.notes.push_back("the device subspace table (" + std::to_string(memory.subspace_capacity) +
                             " subspaces) filled " + std::to_string(accumulator->spills()) +
                             " time(s) and was handed to the host in one piece each time");
  }
  timer.stop();
  result.false_match_probability =
      false_match_probability(total, params.signature_bits, keys.scheme, plan.min_points());
  return result;
}

}  // namespace subscale
