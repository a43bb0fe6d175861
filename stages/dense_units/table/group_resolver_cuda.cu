#include <algorithm>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <string>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"
#include "stages/dense_units/table/group_resolver_cuda.cuh"

namespace subscale::dense_units::table {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::uint64_t items, unsigned threads = kThreads) {
  return static_cast<unsigned>(std::max<std::uint64_t>(1, (items + threads - 1) / threads));
}

__global__ void mark_group_starts(const unsigned long long* slots, std::uint64_t count, unsigned int* starts) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i < count) starts[i] = (i == 0 || slots[i] != slots[i - 1]) ? 1u : 0u;
}

// Members are laid out group by group, the unit that claimed the slot in front of its
// duplicates. group_ids is the inclusive scan of the start flags: group g = group_ids[i] - 1.
__global__ void place_members(const unsigned long long* slots, const unsigned long long* flats,
                              const unsigned int* group_ids, std::uint64_t count, const unsigned long long* table,
                              unsigned long long* member_flat, std::uint64_t* group_start) {
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const std::uint64_t g = group_ids[i] - 1;
  member_flat[i + g + 1] = flats[i];
  if (i == 0 || slots[i] != slots[i - 1]) {
    group_start[g] = i + g;
    member_flat[i + g] = table[slots[i]] & kFlatMask;
  }
  if (i + 1 == count) group_start[g + 1] = count + g + 1;
}

// One thread per member: locate, unrank, points (ascending), dimension, S1 and S2 (or 0). K, when
// not 0, is the subset size at compile time, so the small arrays stay in registers.
template <std::uint32_t K>
__global__ void resolve_members(ResolveView view, const unsigned long long* member_flat, std::uint64_t members,
                                std::uint32_t* member_points, std::uint32_t* member_dim, unsigned long long* member_s1,
                                unsigned long long* member_s2) {
  const std::uint64_t x = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (x >= members) return;
  const std::uint32_t k = K != 0 ? K : view.space.k, m = k + 1;
  const unsigned long long flat = member_flat[x];
  const std::uint64_t w = enumeration::window_of(view.space, flat);
  const std::uint32_t i = static_cast<std::uint32_t>(w % view.space.points);
  const std::uint32_t following = view.space.window_end[w] - i - 1;
  std::uint32_t c[K != 0 ? K : enumeration::kMaxWalkerK];
  combinadic::unrank(view.space.binomials, flat - view.space.window_start[w], following, k, c);
  std::uint32_t points[(K != 0 ? K : enumeration::kMaxWalkerK) + 1];
  points[0] = view.order[w];
  for (std::uint32_t t = 0; t < k; ++t) points[t + 1] = view.order[w + 1 + c[t]];
  for (std::uint32_t a = 1; a < m; ++a)  // insertion sort: m <= 16
    for (std::uint32_t b = a; b > 0 && points[b - 1] > points[b]; --b) {
      const std::uint32_t t = points[b];
      points[b] = points[b - 1];
      points[b - 1] = t;
    }
  unsigned long long s1 = 0, s2 = 0;
  for (std::uint32_t t = 0; t < m; ++t) {
    member_points[x * m + t] = points[t];
    s1 += view.primary_keys[points[t]];
    if (view.second_signature) s2 += view.secondary_keys[points[t]];
  }
  member_dim[x] = static_cast<std::uint32_t>(w / view.space.points);
  member_s1[x] = s1;
  member_s2[x] = s2;
}

struct UnitOutput {
  std::uint32_t* points;         // units * m
  std::uint32_t* dim_start;      // units: where the unit's dimensions begin in dims
  std::uint32_t* dim_count;      // units
  std::uint32_t* dims;           // all units' dimensions, ascending per unit
  unsigned long long* counters;  // [0]: units, [1]: dims
};

struct Members {
  const unsigned long long* flat;
  const std::uint32_t* points;
  const std::uint32_t* dim;
  const unsigned long long* s1;
  const unsigned long long* s2;
};

// One thread per group: order the members by (S1, S2, dimension, flat) with an insertion sort of
// their indices (a group holds one unit's dimensions, so it is small), then every run of equal
// (S1, S2) found in >= 2 distinct dimensions is a unit: the first member's points and the run's
// distinct dimensions. A block reserves its output with one atomic for all its threads: one
// counter hit by every unit would serialise them.
constexpr unsigned kSplitThreads = 128;

__global__ void split_groups(const std::uint64_t* group_start, std::uint64_t groups, std::uint32_t m, Members in,
                             std::uint32_t* order_scratch, UnitOutput out) {
  using Scan = cub::BlockScan<unsigned long long, kSplitThreads>;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ unsigned long long block_units, block_dims;
  const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  const bool active = g < groups;
  const std::uint64_t begin = active ? group_start[g] : 0, end = active ? group_start[g + 1] : 0;
  std::uint32_t* index = order_scratch + begin;
  const std::uint64_t size = end - begin;
  for (std::uint64_t x = 0; x < size; ++x) index[x] = static_cast<std::uint32_t>(begin + x);
  auto same_unit = [&](std::uint32_t a, std::uint32_t b) { return in.s1[a] == in.s1[b] && in.s2[a] == in.s2[b]; };
  auto before = [&](std::uint32_t a, std::uint32_t b) {
    if (in.s1[a] != in.s1[b]) return in.s1[a] < in.s1[b];
    if (in.s2[a] != in.s2[b]) return in.s2[a] < in.s2[b];
    if (in.dim[a] != in.dim[b]) return in.dim[a] < in.dim[b];
    return in.flat[a] < in.flat[b];
  };
  for (std::uint64_t a = 1; a < size; ++a)
    for (std::uint64_t b = a; b > 0 && before(index[b], index[b - 1]); --b) {
      const std::uint32_t t = index[b];
      index[b] = index[b - 1];
      index[b - 1] = t;
    }
  // Visits each run of one unit: (first, end, distinct dimensions).
  auto for_each_unit = [&](auto&& visit) {
    for (std::uint64_t a = 0; a < size;) {
      std::uint64_t b = a + 1;
      std::uint32_t distinct = 1;
      for (; b < size && same_unit(index[b], index[a]); ++b)
        if (in.dim[index[b]] != in.dim[index[b - 1]]) ++distinct;
      if (distinct >= 2) visit(a, b, distinct);
      a = b;
    }
  };
  std::uint32_t units = 0, dims = 0;
  for_each_unit([&](std::uint64_t, std::uint64_t, std::uint32_t distinct) {
    ++units;
    dims += distinct;
  });
  // Units in the high half, dimensions in the low: a block's totals fit 32 bits each.
  unsigned long long offset = 0, total = 0;
  Scan(scan_storage).ExclusiveSum((static_cast<unsigned long long>(units) << 32) | dims, offset, total);
  if (threadIdx.x == 0) {
    block_units = total >> 32 ? atomicAdd(&out.counters[0], total >> 32) : 0;
    block_dims = total & 0xffffffffull ? atomicAdd(&out.counters[1], total & 0xffffffffull) : 0;
  }
  __syncthreads();
  unsigned long long unit = block_units + (offset >> 32), at = block_dims + (offset & 0xffffffffull);
  for_each_unit([&](std::uint64_t a, std::uint64_t b, std::uint32_t distinct) {
    for (std::uint32_t t = 0; t < m; ++t)
      out.points[unit * m + t] = in.points[static_cast<std::uint64_t>(index[a]) * m + t];
    out.dim_start[unit] = static_cast<std::uint32_t>(at);
    out.dim_count[unit] = distinct;
    for (std::uint64_t x = a; x < b; ++x)
      if (x == a || in.dim[index[x]] != in.dim[index[x - 1]]) out.dims[at++] = in.dim[index[x]];
    ++unit;
  });
}

}  // namespace

void append_to_host(const DeviceUnitsView& units, const std::vector<std::uint32_t>* selected, MaximalUnits& out,
                    cudaStream_t stream) {
  if (units.units == 0) return;
  const std::uint32_t m = units.m;
  std::vector<std::uint32_t> points(units.units * m), dim_start(units.units), dim_count(units.units),
      dims(units.dims_size);
  auto copy = [stream](std::vector<std::uint32_t>& host, const std::uint32_t* device) {
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(host.data(), device, host.size() * 4, cudaMemcpyDeviceToHost, stream));
  };
  copy(points, units.points);
  copy(dim_start, units.dim_start);
  copy(dim_count, units.dim_count);
  copy(dims, units.dims);
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  auto add = [&](std::uint64_t u) { out.add({points.data() + u * m, m}, {dims.data() + dim_start[u], dim_count[u]}); };
  if (selected) {
    for (auto u : *selected) add(u);
  } else {
    for (std::uint64_t u = 0; u < units.units; ++u) add(u);
  }
}

std::uint64_t DeviceGroupResolver::bytes_per_duplicate(std::uint32_t m) {
  // Start flags and group ids (8); up to two members a duplicate (flat, S1, S2, points,
  // dimension, sort index); a group start; up to one unit a duplicate (points, dimension start
  // and count) and two dimensions; the scan's scratch (about 1).
  return 8 + 2 * (24 + 4ull * m + 8) + 8 + (4ull * m + 8) + 8 + 1;
}

DeviceGroupResolver::DeviceGroupResolver(const ResolveView& view, std::uint64_t chunk_duplicates, cudaStream_t stream)
    : view_(view), stream_(stream), m_(view.space.k + 1), chunk_(chunk_duplicates) {
  if (2 * chunk_ >= (std::uint64_t{1} << 32))
    throw UsageError("the GPU resolver's chunk of " + std::to_string(chunk_) + " duplicates is too large");
  const std::uint64_t members = 2 * chunk_;
  starts_ = gpu::DeviceBuffer<unsigned int>(chunk_);
  group_ids_ = gpu::DeviceBuffer<unsigned int>(chunk_);
  member_flat_ = gpu::DeviceBuffer<unsigned long long>(members);
  member_s1_ = gpu::DeviceBuffer<unsigned long long>(members);
  member_s2_ = gpu::DeviceBuffer<unsigned long long>(members);
  member_points_ = gpu::DeviceBuffer<std::uint32_t>(members * m_);
  member_dim_ = gpu::DeviceBuffer<std::uint32_t>(members);
  scratch_ = gpu::DeviceBuffer<std::uint32_t>(members);
  group_start_ = gpu::DeviceBuffer<std::uint64_t>(chunk_ + 1);
  out_points_ = gpu::DeviceBuffer<std::uint32_t>(chunk_ * m_);
  out_dim_start_ = gpu::DeviceBuffer<std::uint32_t>(chunk_);
  out_dim_count_ = gpu::DeviceBuffer<std::uint32_t>(chunk_);
  out_dims_ = gpu::DeviceBuffer<std::uint32_t>(members);
  counters_ = gpu::DeviceBuffer<unsigned long long>(2);
  std::size_t scan_bytes = 0;
  SUBSCALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, starts_.data(), group_ids_.data(), chunk_));
  scan_temp_ = gpu::DeviceBuffer<unsigned char>(scan_bytes);
  bytes_ = starts_.bytes() + group_ids_.bytes() + 3 * member_flat_.bytes() + member_points_.bytes() +
           member_dim_.bytes() + scratch_.bytes() + group_start_.bytes() + out_points_.bytes() +
           out_dim_start_.bytes() + out_dim_count_.bytes() + out_dims_.bytes() + scan_temp_.bytes();
}

// The largest end <= begin + chunk that does not cut a group: the slot changes between end - 1
// and end (or end is the count).
std::uint64_t DeviceGroupResolver::chunk_end(const SortedDuplicates& duplicates, std::uint64_t begin) const {
  const std::uint64_t end = std::min(duplicates.count, begin + chunk_);
  if (end == duplicates.count) return end;
  constexpr std::uint64_t kWindow = 4096;
  for (std::uint64_t high = end; high > begin;) {
    const std::uint64_t low = high - std::min(kWindow, high - begin);
    std::vector<unsigned long long> slots(high - low + 1);  // [low, high]
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(slots.data(), duplicates.slots + low, slots.size() * sizeof(unsigned long long),
                                        cudaMemcpyDeviceToHost, stream_));
    SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (std::uint64_t i = high; i > low; --i)
      if (slots[i - low - 1] != slots[i - low]) return i;
    high = low;
  }
  throw ResourceError("one signature group holds more than " + std::to_string(chunk_) +
                      " units, more than the GPU resolver's chunk; use backend: cpu");
}

DeviceUnitsView DeviceGroupResolver::resolve_chunk(const SortedDuplicates& duplicates, std::uint64_t begin,
                                                   std::uint64_t end, PhaseTimer* timer) {
  auto phase = [this, timer](const char* name) {
    if (!timer) return;
    SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    timer->start(name);
  };
  phase("resolve: group");
  const std::uint64_t count = end - begin;
  const unsigned long long* slots = duplicates.slots + begin;
  mark_group_starts<<<blocks_for(count), kThreads, 0, stream_>>>(slots, count, starts_.data());
  SUBSCALE_CUDA_CHECK_LAUNCH(mark_group_starts);
  std::size_t scan_bytes = scan_temp_.size();
  SUBSCALE_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(scan_temp_.data(), scan_bytes, starts_.data(), group_ids_.data(), count, stream_));
  unsigned int groups = 0;
  SUBSCALE_CUDA_CHECK(
      cudaMemcpyAsync(&groups, group_ids_.data() + count - 1, sizeof groups, cudaMemcpyDeviceToHost, stream_));
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  const std::uint64_t members = count + groups;
  members_resolved_ += members;
  place_members<<<blocks_for(count), kThreads, 0, stream_>>>(slots, duplicates.flats + begin, group_ids_.data(), count,
                                                             duplicates.table, member_flat_.data(),
                                                             group_start_.data());
  SUBSCALE_CUDA_CHECK_LAUNCH(place_members);
  phase("resolve: members");
  const unsigned blocks = blocks_for(members);
  auto* points = member_points_.data();
  auto* dims = member_dim_.data();
  switch (view_.space.k) {
    case 2:
      resolve_members<2><<<blocks, kThreads, 0, stream_>>>(view_, member_flat_.data(), members, points, dims,
                                                           member_s1_.data(), member_s2_.data());
      break;
    case 3:
      resolve_members<3><<<blocks, kThreads, 0, stream_>>>(view_, member_flat_.data(), members, points, dims,
                                                           member_s1_.data(), member_s2_.data());
      break;
    case 4:
      resolve_members<4><<<blocks, kThreads, 0, stream_>>>(view_, member_flat_.data(), members, points, dims,
                                                           member_s1_.data(), member_s2_.data());
      break;
    default:
      resolve_members<0><<<blocks, kThreads, 0, stream_>>>(view_, member_flat_.data(), members, points, dims,
                                                           member_s1_.data(), member_s2_.data());
      break;
  }
  SUBSCALE_CUDA_CHECK_LAUNCH(resolve_members);
  phase("resolve: split");
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, counters_.bytes(), stream_));
  const Members in{member_flat_.data(), member_points_.data(), member_dim_.data(), member_s1_.data(),
                   member_s2_.data()};
  const UnitOutput out{out_points_.data(), out_dim_start_.data(), out_dim_count_.data(), out_dims_.data(),
                       counters_.data()};
  split_groups<<<blocks_for(groups, kSplitThreads), kSplitThreads, 0, stream_>>>(group_start_.data(), groups, m_, in,
                                                                                 scratch_.data(), out);
  SUBSCALE_CUDA_CHECK_LAUNCH(split_groups);
  const auto totals = counters_.to_host(2, stream_);
  return DeviceUnitsView{
      out_points_.data(), out_dim_start_.data(), out_dim_count_.data(), out_dims_.data(), totals[0], totals[1], m_};
}

std::uint64_t DeviceGroupResolver::resolve(const SortedDuplicates& duplicates,
                                           const std::function<void(const DeviceUnitsView&)>& on_units,
                                           PhaseTimer* timer) {
  std::uint64_t units = 0;
  for (std::uint64_t begin = 0; begin < duplicates.count;) {
    const std::uint64_t end = chunk_end(duplicates, begin);
    const DeviceUnitsView chunk = resolve_chunk(duplicates, begin, end, timer);
    units += chunk.units;
    if (chunk.units > 0) on_units(chunk);
    begin = end;
  }
  return units;
}

}  // namespace subscale::dense_units::table
