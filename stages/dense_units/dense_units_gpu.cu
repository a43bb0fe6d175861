// The CUDA backend of dense_units. Per partition of the signature space, one kernel enumerates
// every unit (unit_walker.hpp), keeps those whose signature falls in the partition and inserts
// them into an open-addressing table in device memory: 16-byte slots (mixed key, flat index),
// claimed with atomicCAS. A unit whose key is already there is appended to a duplicate list
// instead. The duplicates are sorted by slot with CUB, joined with their slot's first unit, and
// the groups resolved on the host by the same GroupResolver as the CPU backend, so both give
// the same units. A partition whose table fills up is split in two and redone; a full duplicate
// list is enlarged and the pass redone: never a crash.
#include <algorithm>
#include <cstdio>
#include <cub/device/device_radix_sort.cuh>
#include <deque>

#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/enumeration/unit_walker.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/dense_units/dense_units_gpu.hpp"
#include "stages/dense_units/group_resolver.hpp"
#include "stages/dense_units/unit_space.hpp"

namespace subscale {
namespace {

using gpu::DeviceBuffer;

constexpr unsigned long long kEmptyKey = ~0ull;
constexpr std::uint32_t kUnitsPerThreadRun = 64;
constexpr std::uint32_t kMaxProbes = 4096;
constexpr double kMaxLoad = 0.5;  // units per slot a partition is planned for

struct alignas(16) Slot {
  unsigned long long key;
  unsigned long long flat;
};

// An inclusive range of primary signatures: [lower, upper].
struct SignatureRange {
  std::uint64_t lower;
  std::uint64_t upper;
};

struct InsertStatus {
  unsigned long long kept;
  unsigned long long duplicates;
  unsigned int table_full;
};

__device__ void insert_unit(Slot* slots, std::uint64_t capacity, unsigned long long* dup_slots,
                            unsigned long long* dup_flats, std::uint64_t dup_capacity, InsertStatus* status,
                            std::uint64_t signature, std::uint64_t flat) {
  const unsigned long long mixed = hash::fmix64(signature);
  auto append_duplicate = [&](unsigned long long slot) {
    const unsigned long long at = atomicAdd(&status->duplicates, 1ull);
    if (at < dup_capacity) {
      dup_slots[at] = slot;
      dup_flats[at] = flat;
    }
  };
  // The one key that equals the empty marker cannot live in the table; it goes straight to the
  // duplicate list under a slot number past the table, where the host groups it like any other.
  if (mixed == kEmptyKey) {
    append_duplicate(capacity);
    return;
  }
  std::uint64_t slot = __umul64hi(mixed, capacity);
  for (std::uint32_t probe = 0; probe < kMaxProbes; ++probe) {
    const unsigned long long held = atomicCAS(&slots[slot].key, kEmptyKey, mixed);
    if (held == kEmptyKey) {
      slots[slot].flat = flat;
      return;
    }
    if (held == mixed) {
      append_duplicate(slot);
      return;
    }
    slot = slot + 1 == capacity ? 0 : slot + 1;
  }
  status->table_full = 1;
}

__global__ void insert_partition(enumeration::UnitSpaceView space, std::uint64_t total, SignatureRange range,
                                 Slot* slots, std::uint64_t capacity, unsigned long long* dup_slots,
                                 unsigned long long* dup_flats, std::uint64_t dup_capacity, InsertStatus* status) {
  const std::uint64_t runs = (total + kUnitsPerThreadRun - 1) / kUnitsPerThreadRun;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long kept = 0;
  for (std::uint64_t run = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; run < runs;
       run += stride) {
    if (status->table_full) break;
    const std::uint64_t begin = run * kUnitsPerThreadRun;
    const std::uint64_t end = begin + kUnitsPerThreadRun < total ? begin + kUnitsPerThreadRun : total;
    enumeration::walk_units(space, begin, end, [&](std::uint64_t flat, std::uint64_t signature) {
      if (signature < range.lower || signature > range.upper) return;
      ++kept;
      insert_unit(slots, capacity, dup_slots, dup_flats, dup_capacity, status, signature, flat);
    });
  }
  if (kept) atomicAdd(&status->kept, kept);
}

// For each sorted duplicate, the flat index of the first unit that claimed its slot.
__global__ void gather_first_units(const unsigned long long* sorted_slots, std::uint64_t count, const Slot* slots,
                                   std::uint64_t capacity, unsigned long long* firsts) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i < count) firsts[i] = sorted_slots[i] < capacity ? slots[sorted_slots[i]].flat : kEmptyKey;
}

std::uint32_t bits_for(std::uint64_t value) {
  std::uint32_t bits = 1;
  while (bits < 64 && (value >> bits) != 0) ++bits;
  return bits;
}

// Device copies of the arrays the walker reads.
struct DeviceUnitSpace {
  DeviceBuffer<std::uint64_t> window_start, sorted_keys, binomials;
  DeviceBuffer<std::uint32_t> window_end;
  enumeration::UnitSpaceView view;

  DeviceUnitSpace(const UnitPlan& plan, const UnitSpaceArrays& arrays)
      : window_start(DeviceBuffer<std::uint64_t>::from_host(arrays.window_start)),
        sorted_keys(DeviceBuffer<std::uint64_t>::from_host(arrays.sorted_keys)),
        binomials(DeviceBuffer<std::uint64_t>::from_host(plan.binomial_values())),
        window_end(DeviceBuffer<std::uint32_t>::from_host(arrays.window_end)) {
    view = arrays.view(plan);
    view.window_start = window_start.get();
    view.sorted_keys = sorted_keys.get();
    view.window_end = window_end.get();
    view.binomials.values = binomials.get();
  }
};

// The table, the duplicate list and the sort's buffers, sized once from the budget.
class DeviceTable {
 public:
  DeviceTable(std::uint64_t capacity, std::uint64_t dup_capacity) : capacity_(capacity), slots_(capacity), status_(1) {
    resize_duplicates(dup_capacity);
  }

  std::uint64_t duplicate_capacity() const { return dup_capacity_; }
  void resize_duplicates(std::uint64_t dup_capacity) {
    dup_capacity_ = dup_capacity;
    dup_slots_ = DeviceBuffer<unsigned long long>(dup_capacity);
    dup_flats_ = DeviceBuffer<unsigned long long>(dup_capacity);
    sorted_slots_ = DeviceBuffer<unsigned long long>(dup_capacity);
    sorted_flats_ = DeviceBuffer<unsigned long long>(dup_capacity);
    std::size_t temp_bytes = 0;
    SUBSCALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, dup_slots_.get(), sorted_slots_.get(),
                                                        dup_flats_.get(), sorted_flats_.get(), dup_capacity));
    sort_temp_ = DeviceBuffer<unsigned char>(temp_bytes);
  }

  InsertStatus insert(const enumeration::UnitSpaceView& space, std::uint64_t total, SignatureRange range) {
    SUBSCALE_CUDA_CHECK(cudaMemset(slots_.get(), 0xff, capacity_ * sizeof(Slot)));
    SUBSCALE_CUDA_CHECK(cudaMemset(status_.get(), 0, sizeof(InsertStatus)));
    int device = 0, multiprocessors = 0;
    SUBSCALE_CUDA_CHECK(cudaGetDevice(&device));
    SUBSCALE_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    const std::uint64_t runs = (total + kUnitsPerThreadRun - 1) / kUnitsPerThreadRun;
    constexpr unsigned threads = 256;
    const unsigned blocks = static_cast<unsigned>(std::max<std::uint64_t>(
        1, std::min<std::uint64_t>((runs + threads - 1) / threads, std::uint64_t(multiprocessors) * 16)));
    insert_partition<<<blocks, threads>>>(space, total, range, slots_.get(), capacity_, dup_slots_.get(),
                                          dup_flats_.get(), dup_capacity_, status_.get());
    SUBSCALE_CUDA_CHECK_LAUNCH(insert_partition);
    SUBSCALE_CUDA_CHECK(cudaDeviceSynchronize());
    return status_.to_host(1)[0];
  }

  // The duplicates of the last pass, grouped by slot, with each slot's first unit in front.
  void collect_groups(std::uint64_t count, std::vector<UnitRecord>& records, std::vector<std::uint64_t>& group_begin) {
    records.clear();
    group_begin.clear();
    if (count == 0) return;
    std::size_t temp_bytes = sort_temp_.size();
    SUBSCALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sort_temp_.get(), temp_bytes, dup_slots_.get(),
                                                        sorted_slots_.get(), dup_flats_.get(), sorted_flats_.get(),
                                                        count, 0, static_cast<int>(bits_for(capacity_))));
    // The unsorted slot buffer is free now: reuse it for the first units.
    gather_first_units<<<static_cast<unsigned>((count + 255) / 256), 256>>>(sorted_slots_.get(), count, slots_.get(),
                                                                            capacity_, dup_slots_.get());
    SUBSCALE_CUDA_CHECK_LAUNCH(gather_first_units);
    const auto slots = sorted_slots_.to_host(count);
    const auto flats = sorted_flats_.to_host(count);
    const auto firsts = dup_slots_.to_host(count);
    for (std::uint64_t i = 0; i < count; ++i) {
      if (i == 0 || slots[i] != slots[i - 1]) {
        group_begin.push_back(records.size());
        if (firsts[i] != kEmptyKey) records.push_back({slots[i], firsts[i]});
      }
      records.push_back({slots[i], flats[i]});
    }
    group_begin.push_back(records.size());
  }

 private:
  std::uint64_t capacity_;
  std::uint64_t dup_capacity_ = 0;
  DeviceBuffer<Slot> slots_;
  DeviceBuffer<InsertStatus> status_;
  DeviceBuffer<unsigned long long> dup_slots_, dup_flats_, sorted_slots_, sorted_flats_;
  DeviceBuffer<unsigned char> sort_temp_;
};

std::uint64_t device_budget(const DenseUnitsParams& params, const gpu::DeviceInfo& device) {
  // Most of the free memory by default: what is left covers CUB, the driver and fragmentation.
  const std::uint64_t automatic = device.free_bytes / 10 * 8;
  return params.device_bytes > 0 ? std::min(params.device_bytes, automatic) : automatic;
}

// The partitions' inclusive signature ranges from the plan's lower bounds.
std::deque<SignatureRange> ranges_of(const PartitionPlan& plan) {
  std::deque<SignatureRange> ranges;
  for (std::size_t p = 0; p < plan.count(); ++p)
    ranges.push_back({plan.lower[p], p + 1 < plan.count() ? plan.lower[p + 1] - 1 : ~std::uint64_t{0}});
  return ranges;
}

}  // namespace

DenseUnitsResult run_dense_units_gpu(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                                     const DenseUnitsParams& params, const UnitProgress& progress) {
  const gpu::DeviceInfo device = gpu::query_device();
  if (!device.available)
    throw ResourceError("backend: cuda was asked for, but " + device.reason + "; use backend: cpu or auto");
  if (params.signature_bits != 64 && params.signature_bits != 128)
    throw UsageError("signature.bits is " + std::to_string(params.signature_bits) + "; valid values: 64, 128");
  if (params.mode == TableMode::exact)
    throw UsageError("mode: exact runs on the CPU backend only (it is the reference); use backend: cpu");
  if (plan.min_points() - 1 > enumeration::kMaxWalkerK)
    throw UsageError("the GPU backend handles min_points up to " + std::to_string(enumeration::kMaxWalkerK + 1) +
                     "; use backend: cpu for larger values");

  const UnitSpaceArrays arrays(plan, density, keys);
  const std::uint64_t total = plan.total_units();
  const std::uint64_t space_bytes = arrays.window_start.size() * 8 + arrays.sorted_keys.size() * 8 +
                                    arrays.window_end.size() * 4 + plan.binomial_values().size() * 8;
  const std::uint64_t budget = device_budget(params, device);
  if (budget < space_bytes + (std::uint64_t{64} << 20))
    throw ResourceError("memory.device_bytes (" + std::to_string(budget) + ") cannot hold the " +
                        std::to_string(space_bytes) + " bytes of windows and keys plus a table; raise it");
  // Table slots (16 B) and duplicates (16 B listed + 16 B sorted + sort scratch): 1 duplicate slot
  // per 4 table slots to start with, enlarged when a pass needs more.
  const std::uint64_t table_budget = budget - space_bytes;
  const std::uint64_t wanted = std::max<std::uint64_t>(1 << 20, static_cast<std::uint64_t>(total / kMaxLoad) + 1);
  const std::uint64_t capacity = std::min<std::uint64_t>(wanted, table_budget / (16 + 40 / 4));
  const std::uint64_t dup_capacity = std::max<std::uint64_t>(1 << 16, capacity / 4);

  DenseUnitsParams planned = params;
  if (planned.partitions == 0)
    planned.partitions = static_cast<std::size_t>(
        std::max<std::uint64_t>(1, (total + static_cast<std::uint64_t>(capacity * kMaxLoad) - 1) /
                                       static_cast<std::uint64_t>(capacity * kMaxLoad)));
  const PartitionPlan partitions = plan_partitions(plan, density, keys, planned);

  DeviceUnitSpace space(plan, arrays);
  DeviceTable table(capacity, dup_capacity);
  DenseUnitsResult result;
  result.scheme = partitions.scheme;
  result.units.min_points = plan.min_points();
  std::deque<SignatureRange> work = ranges_of(partitions);
  std::vector<UnitRecord> records;
  std::vector<std::uint64_t> group_begin;
  while (!work.empty()) {
    const SignatureRange range = work.front();
    const InsertStatus status = table.insert(space.view, total, range);
    result.enumerated_units += total;
    if (status.table_full) {
      if (range.lower == range.upper)
        throw ResourceError("one signature value holds more units than the device table (" + std::to_string(capacity) +
                            " slots); raise memory.device_bytes");
      // Split and redo: the fuller half no longer overflows after enough halvings.
      const std::uint64_t middle = range.lower + (range.upper - range.lower) / 2;
      work.pop_front();
      work.push_front({middle + 1, range.upper});
      work.push_front({range.lower, middle});
      ++result.partition_splits;
      continue;
    }
    if (status.duplicates > table.duplicate_capacity()) {
      table.resize_duplicates(status.duplicates + status.duplicates / 4);
      ++result.duplicate_retries;
      continue;
    }
    work.pop_front();
    table.collect_groups(status.duplicates, records, group_begin);
    result.units.append(resolve_groups(plan, density, keys, params, records, group_begin));
    result.partitions.push_back({range.lower, status.kept});
    result.table_bytes = std::max<std::uint64_t>(result.table_bytes, capacity * sizeof(Slot));
    if (progress) progress(total / std::max<std::size_t>(1, partitions.count()));
  }
  result.distinct_multi_units = result.units.size();
  result.false_match_probability =
      false_match_probability(total, params.signature_bits, keys.scheme, plan.min_points());
  return result;
}

}  // namespace subscale
