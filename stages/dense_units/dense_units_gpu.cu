// The CUDA backend of dense_units. Per partition of the signature space, one kernel enumerates
// every unit (unit_walker.hpp), keeps those whose signature falls in the partition and inserts
// them into an open-addressing table in device memory: 16-byte slots (mixed key, flat index),
// claimed with atomicCAS. A unit whose key is already there is appended to a duplicate list
// instead. The duplicates are sorted by slot with CUB, joined with their slot's first unit, and
// the groups resolved on the device by the same rules as the CPU's GroupResolver (split by the
// second signature, keep the points of the smallest dimension), so both give the same units.
// A partition whose table or duplicate list fills up, or whose duplicates do not fit the device
// memory left, is split in two and redone: more partitions, never a crash.
#include <algorithm>
#include <cstdio>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <deque>

#include "common/phase_timer.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/enumeration/unit_walker.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/dense_units/dense_units_gpu.hpp"
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

// ---- Resolution of duplicate groups on the device -------------------------------------------
// After the sort, duplicates of one slot are contiguous. Members are laid out group by group,
// each group's first unit (the one that claimed the slot) in front of its duplicates.

__global__ void mark_group_starts(const unsigned long long* sorted_slots, std::uint64_t count, unsigned int* starts) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i < count) starts[i] = (i == 0 || sorted_slots[i] != sorted_slots[i - 1]) ? 1u : 0u;
}

// group_ids is the inclusive scan of the start flags: group g = group_ids[i] - 1.
__global__ void place_members(const unsigned long long* sorted_slots, const unsigned long long* sorted_flats,
                              const unsigned int* group_ids, std::uint64_t count, const Slot* slots,
                              std::uint64_t capacity, unsigned long long* member_flat, std::uint64_t* group_start) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const std::uint64_t g = group_ids[i] - 1;
  member_flat[i + g + 1] = sorted_flats[i];
  if (i == 0 || sorted_slots[i] != sorted_slots[i - 1]) {
    group_start[g] = i + g;
    // The empty-key list has no first unit: its place holds a marker the resolver skips.
    member_flat[i + g] = sorted_slots[i] < capacity ? slots[sorted_slots[i]].flat : kEmptyKey;
  }
  if (i + 1 == count) group_start[g + 1] = count + g + 1;
}

struct ResolveView {
  enumeration::UnitSpaceView space;
  const std::uint32_t* order;           // windows: point id at position i of dimension j
  const std::uint64_t* secondary_keys;  // points: K2
  bool second_signature;                // 128-bit mode: split groups by S2
};

constexpr std::uint32_t kNoDimension = ~0u;

// One thread per member: locate, unrank, points (ascending), dimension, identity (S2 or 0).
__global__ void resolve_members(ResolveView view, const unsigned long long* member_flat, std::uint64_t members,
                                std::uint32_t* member_points, std::uint32_t* member_dim,
                                unsigned long long* member_identity) {
  const std::uint64_t x = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (x >= members) return;
  const std::uint32_t k = view.space.k, m = k + 1;
  const unsigned long long flat = member_flat[x];
  if (flat == kEmptyKey) {
    member_dim[x] = kNoDimension;
    member_identity[x] = 0;
    return;
  }
  const std::uint64_t w = enumeration::window_of(view.space, flat);
  const std::uint32_t i = static_cast<std::uint32_t>(w % view.space.points);
  const std::uint32_t following = view.space.window_end[w] - i - 1;
  std::uint32_t c[enumeration::kMaxWalkerK];
  combinadic::unrank(view.space.binomials, flat - view.space.window_start[w], following, k, c);
  std::uint32_t points[enumeration::kMaxWalkerK + 1];
  points[0] = view.order[w];
  for (std::uint32_t t = 0; t < k; ++t) points[t + 1] = view.order[w + 1 + c[t]];
  for (std::uint32_t a = 1; a < m; ++a)  // insertion sort: m <= 16
    for (std::uint32_t b = a; b > 0 && points[b - 1] > points[b]; --b) {
      const std::uint32_t t = points[b];
      points[b] = points[b - 1];
      points[b - 1] = t;
    }
  unsigned long long identity = 0;
  for (std::uint32_t t = 0; t < m; ++t) {
    member_points[x * m + t] = points[t];
    if (view.second_signature) identity += view.secondary_keys[points[t]];
  }
  member_dim[x] = static_cast<std::uint32_t>(w / view.space.points);
  member_identity[x] = identity;
}

struct UnitOutput {
  std::uint32_t* points;         // units * m
  std::uint32_t* dim_start;      // units: where the unit's dimensions begin in dims
  std::uint32_t* dim_count;      // units
  std::uint32_t* dims;           // all units' dimensions, ascending per unit
  unsigned long long* counters;  // [0]: units, [1]: dims
};

// One thread per group: order the members by (identity, dimension, flat) with an insertion sort
// of their indices (groups are small), then every run of equal identity found in >= 2 distinct
// dimensions is a unit: the first member's points (smallest dimension, then flat, as the CPU
// resolver keeps) and the run's distinct dimensions.
__global__ void split_groups(const std::uint64_t* group_start, std::uint64_t groups, std::uint32_t m,
                             const unsigned long long* member_flat, const std::uint32_t* member_points,
                             const std::uint32_t* member_dim, const unsigned long long* member_identity,
                             std::uint32_t* order_scratch, UnitOutput out) {
  const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (g >= groups) return;
  const std::uint64_t begin = group_start[g], end = group_start[g + 1];
  std::uint32_t* index = order_scratch + begin;
  std::uint64_t size = 0;
  for (std::uint64_t x = begin; x < end; ++x)
    if (member_dim[x] != kNoDimension) index[size++] = static_cast<std::uint32_t>(x);
  auto before = [&](std::uint32_t a, std::uint32_t b) {
    if (member_identity[a] != member_identity[b]) return member_identity[a] < member_identity[b];
    if (member_dim[a] != member_dim[b]) return member_dim[a] < member_dim[b];
    return member_flat[a] < member_flat[b];
  };
  for (std::uint64_t a = 1; a < size; ++a)
    for (std::uint64_t b = a; b > 0 && before(index[b], index[b - 1]); --b) {
      const std::uint32_t t = index[b];
      index[b] = index[b - 1];
      index[b - 1] = t;
    }
  for (std::uint64_t a = 0; a < size;) {
    std::uint64_t b = a + 1;
    std::uint32_t distinct = 1;
    for (; b < size && member_identity[index[b]] == member_identity[index[a]]; ++b)
      if (member_dim[index[b]] != member_dim[index[b - 1]]) ++distinct;
    if (distinct >= 2) {
      const unsigned long long unit = atomicAdd(&out.counters[0], 1ull);
      const unsigned long long at = atomicAdd(&out.counters[1], static_cast<unsigned long long>(distinct));
      for (std::uint32_t t = 0; t < m; ++t)
        out.points[unit * m + t] = member_points[static_cast<std::uint64_t>(index[a]) * m + t];
      out.dim_start[unit] = static_cast<std::uint32_t>(at);
      out.dim_count[unit] = distinct;
      std::uint32_t written = 0;
      for (std::uint64_t x = a; x < b; ++x)
        if (x == a || member_dim[index[x]] != member_dim[index[x - 1]]) out.dims[at + written++] = member_dim[index[x]];
    }
    a = b;
  }
}

__global__ void widen(const std::uint32_t* in, std::uint64_t count, unsigned long long* out) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i < count) out[i] = in[i];
}

// Copies each unit's dimensions from where split_groups reserved them to unit order.
__global__ void order_unit_dims(const std::uint32_t* dim_start, const std::uint32_t* dim_count,
                                const unsigned long long* unit_offset, std::uint64_t units, const std::uint32_t* dims,
                                std::uint32_t* ordered) {
  const std::uint64_t u = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (u >= units) return;
  for (std::uint32_t t = 0; t < dim_count[u]; ++t) ordered[unit_offset[u] + t] = dims[dim_start[u] + t];
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
    view.window_start = window_start.data();
    view.sorted_keys = sorted_keys.data();
    view.window_end = window_end.data();
    view.binomials.values = binomials.data();
  }
};

// The table, the duplicate list and the sort's buffers, sized once from the budget.
class DeviceTable {
 public:
  DeviceTable(std::uint64_t capacity, std::uint64_t dup_capacity) : capacity_(capacity), slots_(capacity), status_(1) {
    allocate_duplicates(dup_capacity);
  }

  std::uint64_t duplicate_capacity() const { return dup_capacity_; }
  void allocate_duplicates(std::uint64_t dup_capacity) {
    dup_capacity_ = dup_capacity;
    dup_slots_ = DeviceBuffer<unsigned long long>(dup_capacity);
    dup_flats_ = DeviceBuffer<unsigned long long>(dup_capacity);
    sorted_slots_ = DeviceBuffer<unsigned long long>(dup_capacity);
    sorted_flats_ = DeviceBuffer<unsigned long long>(dup_capacity);
    std::size_t temp_bytes = 0;
    SUBSCALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, dup_slots_.data(), sorted_slots_.data(),
                                                        dup_flats_.data(), sorted_flats_.data(), dup_capacity));
    sort_temp_ = DeviceBuffer<unsigned char>(temp_bytes);
  }

  InsertStatus insert(const enumeration::UnitSpaceView& space, std::uint64_t total, SignatureRange range) {
    SUBSCALE_CUDA_CHECK(cudaMemset(slots_.data(), 0xff, capacity_ * sizeof(Slot)));
    SUBSCALE_CUDA_CHECK(cudaMemset(status_.data(), 0, sizeof(InsertStatus)));
    int device = 0, multiprocessors = 0;
    SUBSCALE_CUDA_CHECK(cudaGetDevice(&device));
    SUBSCALE_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    const std::uint64_t runs = (total + kUnitsPerThreadRun - 1) / kUnitsPerThreadRun;
    constexpr unsigned threads = 256;
    const unsigned blocks = static_cast<unsigned>(std::max<std::uint64_t>(
        1, std::min<std::uint64_t>((runs + threads - 1) / threads, std::uint64_t(multiprocessors) * 16)));
    insert_partition<<<blocks, threads>>>(space, total, range, slots_.data(), capacity_, dup_slots_.data(),
                                          dup_flats_.data(), dup_capacity_, status_.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(insert_partition);
    SUBSCALE_CUDA_CHECK(cudaDeviceSynchronize());
    return status_.to_host(1)[0];
  }

  // Device bytes resolve_duplicates needs for `count` duplicates (members <= 2 * count).
  static std::uint64_t resolve_bytes(std::uint64_t count, std::uint32_t m) {
    const std::uint64_t members = 2 * count;
    return count * 8 + members * (8 + 8 + 4ull * m + 4 + 4 + 8 + 4 + 16) + (members / 2 + 1) * (4ull * m + 8);
  }

  // Resolves the duplicates of the last pass on the device and appends the units found in two
  // or more dimensions to `units`. Returns false, having done nothing, when the device lacks the
  // memory for them: the caller then splits the partition.
  bool resolve_duplicates(std::uint64_t count, const ResolveView& view, MaximalUnits& units, PhaseTimer& timer) {
    if (count == 0) return true;
    std::size_t free_bytes = 0, total_bytes = 0;
    SUBSCALE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (resolve_bytes(count, view.space.k + 1) > free_bytes / 10 * 9) return false;
    timer.start("resolve: sort");
    const std::uint32_t m = view.space.k + 1;
    std::size_t temp_bytes = sort_temp_.size();
    SUBSCALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sort_temp_.data(), temp_bytes, dup_slots_.data(),
                                                        sorted_slots_.data(), dup_flats_.data(), sorted_flats_.data(),
                                                        count, 0, static_cast<int>(bits_for(capacity_))));
    const unsigned blocks = static_cast<unsigned>((count + 255) / 256);
    timer.start("resolve: kernels");
    DeviceBuffer<unsigned int> starts(count), group_ids(count);
    mark_group_starts<<<blocks, 256>>>(sorted_slots_.data(), count, starts.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(mark_group_starts);
    std::size_t scan_bytes = 0;
    SUBSCALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, starts.data(), group_ids.data(), count));
    DeviceBuffer<unsigned char> scan_temp(scan_bytes);
    SUBSCALE_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(scan_temp.data(), scan_bytes, starts.data(), group_ids.data(), count));
    unsigned int last_group = 0;
    SUBSCALE_CUDA_CHECK(
        cudaMemcpy(&last_group, group_ids.data() + count - 1, sizeof last_group, cudaMemcpyDeviceToHost));
    const std::uint64_t groups = last_group, members = count + groups;
    if (members >= (std::uint64_t{1} << 32))
      throw ResourceError("a partition holds " + std::to_string(members) +
                          " duplicate units, more than the GPU resolver indexes; set partitions.count higher");
    DeviceBuffer<unsigned long long> member_flat(members), member_identity(members);
    DeviceBuffer<std::uint64_t> group_start(groups + 1);
    place_members<<<blocks, 256>>>(sorted_slots_.data(), sorted_flats_.data(), group_ids.data(), count, slots_.data(),
                                   capacity_, member_flat.data(), group_start.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(place_members);
    DeviceBuffer<std::uint32_t> member_points(members * m), member_dim(members), scratch(members);
    resolve_members<<<static_cast<unsigned>((members + 255) / 256), 256>>>(
        view, member_flat.data(), members, member_points.data(), member_dim.data(), member_identity.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(resolve_members);
    // At most one unit per two members, and at most one dimension per member.
    const std::uint64_t max_units = members / 2 + 1;
    DeviceBuffer<std::uint32_t> out_points(max_units * m), out_dim_start(max_units), out_dim_count(max_units),
        out_dims(members);
    DeviceBuffer<unsigned long long> counters(2);
    SUBSCALE_CUDA_CHECK(cudaMemset(counters.data(), 0, 2 * sizeof(unsigned long long)));
    split_groups<<<static_cast<unsigned>((groups + 127) / 128), 128>>>(
        group_start.data(), groups, m, member_flat.data(), member_points.data(), member_dim.data(),
        member_identity.data(), scratch.data(),
        UnitOutput{out_points.data(), out_dim_start.data(), out_dim_count.data(), out_dims.data(), counters.data()});
    SUBSCALE_CUDA_CHECK_LAUNCH(split_groups);
    const auto totals = counters.to_host(2);
    const std::uint64_t found = totals[0];
    if (found == 0) return true;
    // Dimensions into unit order on the device, so the host appends three flat arrays.
    DeviceBuffer<unsigned long long> dim_count64(found), unit_offset(found);
    widen<<<static_cast<unsigned>((found + 255) / 256), 256>>>(out_dim_count.data(), found, dim_count64.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(widen);
    std::size_t offset_bytes = 0;
    SUBSCALE_CUDA_CHECK(
        cub::DeviceScan::ExclusiveSum(nullptr, offset_bytes, dim_count64.data(), unit_offset.data(), found));
    DeviceBuffer<unsigned char> offset_temp(offset_bytes);
    SUBSCALE_CUDA_CHECK(
        cub::DeviceScan::ExclusiveSum(offset_temp.data(), offset_bytes, dim_count64.data(), unit_offset.data(), found));
    // The dims buffer is free once reordered: reuse member_dim's storage (members >= dims).
    order_unit_dims<<<static_cast<unsigned>((found + 255) / 256), 256>>>(
        out_dim_start.data(), out_dim_count.data(), unit_offset.data(), found, out_dims.data(), member_dim.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(order_unit_dims);
    SUBSCALE_CUDA_CHECK(cudaDeviceSynchronize());
    timer.start("resolve: copy to host");
    const std::size_t points_before = units.points.size(), dims_before = units.dimensions.size(),
                      begins_before = units.dimension_begin.size();
    units.points.resize(points_before + found * m);
    units.dimensions.resize(dims_before + totals[1]);
    units.dimension_begin.resize(begins_before + found);
    SUBSCALE_CUDA_CHECK(cudaMemcpy(units.points.data() + points_before, out_points.data(),
                                   found * m * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    SUBSCALE_CUDA_CHECK(cudaMemcpy(units.dimensions.data() + dims_before, member_dim.data(),
                                   totals[1] * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    // dimension_begin[u + 1] = base + offset[u] + count[u]: the next unit's offset, or the total.
    SUBSCALE_CUDA_CHECK(cudaMemcpy(units.dimension_begin.data() + begins_before, unit_offset.data() + 1,
                                   (found - 1) * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    units.dimension_begin.back() = totals[1];
    for (std::size_t u = begins_before; u < units.dimension_begin.size(); ++u) units.dimension_begin[u] += dims_before;
    return true;
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
                                     const DenseUnitsParams& params, const UnitProgress& progress,
                                     const UnitSink& sink) {
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

  DenseUnitsResult result;
  PhaseTimer timer(result.phase_seconds);
  timer.start("setup");
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
  std::uint64_t capacity = std::min<std::uint64_t>(wanted, table_budget / (16 + 40 / 4));
  if (params.device_table_slots > 0) capacity = std::min(capacity, params.device_table_slots);
  const std::uint64_t dup_capacity = std::max<std::uint64_t>(1 << 16, capacity / 4);

  DenseUnitsParams planned = params;
  if (planned.partitions == 0)
    planned.partitions = static_cast<std::size_t>(
        std::max<std::uint64_t>(1, (total + static_cast<std::uint64_t>(capacity * kMaxLoad) - 1) /
                                       static_cast<std::uint64_t>(capacity * kMaxLoad)));
  const PartitionPlan partitions = plan_partitions(plan, density, keys, planned);

  DeviceUnitSpace space(plan, arrays);
  DeviceTable table(capacity, dup_capacity);
  MaximalUnits batch;
  batch.min_points = plan.min_points();
  result.scheme = partitions.scheme;
  result.units.min_points = plan.min_points();
  std::deque<SignatureRange> work = ranges_of(partitions);
  // What the resolver reads besides the walker's arrays: the 1-D orders and the second keys.
  std::vector<std::uint32_t> orders(std::size_t{plan.points()} * plan.dimensions());
  for (std::uint32_t j = 0; j < plan.dimensions(); ++j)
    std::copy(density.dimensions[j].order.begin(), density.dimensions[j].order.end(),
              orders.begin() + std::size_t{j} * plan.points());
  const auto device_orders = DeviceBuffer<std::uint32_t>::from_host(orders);
  const auto device_secondary = DeviceBuffer<std::uint64_t>::from_host(keys.secondary);
  const ResolveView resolve_view{space.view, device_orders.data(), device_secondary.data(),
                                 params.signature_bits == 128};
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
  while (!work.empty()) {
    const SignatureRange range = work.front();
    timer.start("insert");
    const InsertStatus status = table.insert(space.view, total, range);
    result.enumerated_units += total;
    // A partition that overflows the table or the duplicate list, or whose duplicates do not fit
    // the memory left for resolving them, is split in two and redone: more partitions, never a
    // crash.
    if (status.table_full) {
      split_front("table full");
      continue;
    }
    if (status.duplicates > table.duplicate_capacity()) {
      split_front("duplicate list full");
      continue;
    }
    batch.points.clear();
    batch.dimensions.clear();
    batch.dimension_begin.assign(1, 0);
    bool resolved = false;
    try {
      resolved = table.resolve_duplicates(status.duplicates, resolve_view, batch, timer);
    } catch (const ResourceError&) {
      cudaGetLastError();  // clear the recorded out-of-memory (it is not sticky) before going on
      resolved = false;
    }
    if (!resolved) {
      split_front("device memory for resolving duplicates");
      continue;
    }
    work.pop_front();
    result.distinct_multi_units += batch.size();
    timer.start("hand over units");
    if (sink)
      sink(batch);
    else
      result.units.append(batch);
    result.partitions.push_back({range.lower, status.kept});
    result.table_bytes = std::max<std::uint64_t>(result.table_bytes, capacity * sizeof(Slot));
    if (progress) progress(total / std::max<std::size_t>(1, partitions.count()));
  }
  timer.stop();
  result.false_match_probability =
      false_match_probability(total, params.signature_bits, keys.scheme, plan.min_points());
  return result;
}

}  // namespace subscale
