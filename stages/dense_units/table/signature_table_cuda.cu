#include <algorithm>
#include <cub/device/device_radix_sort.cuh>

#include "gpu/cuda_check.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/dense_units/table/signature_table_cuda.cuh"

namespace subscale::dense_units::table {
namespace {

constexpr std::uint32_t kMaxProbes = 4096;
constexpr std::uint32_t kTagBits = 64 - kFlatBits;
constexpr unsigned long long kTagMask = (1ull << kTagBits) - 1;

// Duplicates are appended to one of many stripes of the list, each with its own counter: one
// counter for all would serialise every append on one address of the L2 cache.
constexpr std::uint32_t kStripes = 256;

struct PassStatus {
  unsigned long long kept;
  unsigned int table_full;
  unsigned long long stripe_count[kStripes];
};

struct TableView {
  unsigned long long* slots;
  std::uint64_t capacity;
  unsigned long long* dup_slots;
  unsigned long long* dup_flats;
  std::uint64_t stripe_capacity;
  PassStatus* status;
};

__device__ void insert_unit(const TableView& table, std::uint64_t signature, std::uint64_t flat) {
  const unsigned long long mixed = hash::fmix64(signature);
  // The home slot comes from the high bits, the tag from the low ones: independent of each other.
  const unsigned long long tag = mixed & kTagMask;
  const unsigned long long word = (tag << kFlatBits) | flat;
  std::uint64_t slot = __umul64hi(mixed, table.capacity);
  for (std::uint32_t probe = 0; probe < kMaxProbes; ++probe) {
    // A plain read first: slots only ever go from empty to filled, so a filled slot read here is
    // final, and most probes past other keys need no atomic.
    unsigned long long held = table.slots[slot];
    if (held == kEmptySlot) held = atomicCAS(&table.slots[slot], kEmptySlot, word);
    if (held == kEmptySlot) return;
    if ((held >> kFlatBits) == tag) {
      const std::uint32_t stripe = ((blockIdx.x * blockDim.x + threadIdx.x) >> 5) % kStripes;
      const unsigned long long at = atomicAdd(&table.status->stripe_count[stripe], 1ull);
      if (at < table.stripe_capacity) {
        table.dup_slots[stripe * table.stripe_capacity + at] = slot;
        table.dup_flats[stripe * table.stripe_capacity + at] = flat;
      }
      return;
    }
    slot = slot + 1 == table.capacity ? 0 : slot + 1;
  }
  table.status->table_full = 1;
}

// Lanes walkers go through each run together (1: a thread walks alone; 32: a warp deals each run
// of the lowest element out to its lanes).
template <std::uint32_t K, std::uint32_t Lanes>
__global__ void insert_partition(enumeration::UnitSpaceView space, std::uint64_t total, SignatureRange range,
                                 std::uint32_t units_per_run, TableView table) {
  const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  const std::uint32_t lane = static_cast<std::uint32_t>(thread % Lanes);
  const std::uint64_t run_units = std::uint64_t{units_per_run} * Lanes;
  const std::uint64_t runs = (total + run_units - 1) / run_units;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x / Lanes;
  unsigned long long kept = 0;
  for (std::uint64_t run = thread / Lanes; run < runs; run += stride) {
    if (table.status->table_full) break;
    const std::uint64_t begin = run * run_units;
    const std::uint64_t end = begin + run_units < total ? begin + run_units : total;
    enumeration::walk_units_dealt<K, Lanes>(space, begin, end, lane, [&](std::uint64_t flat, std::uint64_t signature) {
      if (signature < range.lower || signature > range.upper) return;
      ++kept;
      insert_unit(table, signature, flat);
    });
  }
  if (kept) atomicAdd(&table.status->kept, kept);
}

// The usual subset sizes get a kernel each, with the subset in registers.
template <std::uint32_t Lanes>
void launch_insert(unsigned blocks, const enumeration::UnitSpaceView& space, std::uint64_t total, SignatureRange range,
                   std::uint32_t units_per_run, const TableView& view, cudaStream_t stream) {
  constexpr unsigned threads = 256;
  switch (space.k) {
    case 1:
      insert_partition<1, Lanes><<<blocks, threads, 0, stream>>>(space, total, range, units_per_run, view);
      break;
    case 2:
      insert_partition<2, Lanes><<<blocks, threads, 0, stream>>>(space, total, range, units_per_run, view);
      break;
    case 3:
      insert_partition<3, Lanes><<<blocks, threads, 0, stream>>>(space, total, range, units_per_run, view);
      break;
    case 4:
      insert_partition<4, Lanes><<<blocks, threads, 0, stream>>>(space, total, range, units_per_run, view);
      break;
    case 5:
      insert_partition<5, Lanes><<<blocks, threads, 0, stream>>>(space, total, range, units_per_run, view);
      break;
    default:
      insert_partition<0, Lanes><<<blocks, threads, 0, stream>>>(space, total, range, units_per_run, view);
      break;
  }
  SUBSCALE_CUDA_CHECK_LAUNCH(insert_partition);
}

// Moves the stripes' entries together, stripe after stripe, into the spare arrays.
__global__ void gather_stripes(const unsigned long long* slots, const unsigned long long* flats,
                               std::uint64_t stripe_capacity, const PassStatus* status, unsigned long long* out_slots,
                               unsigned long long* out_flats) {
  __shared__ unsigned long long offset;
  const std::uint32_t stripe = blockIdx.y;
  if (threadIdx.x == 0) {
    offset = 0;
    for (std::uint32_t s = 0; s < stripe; ++s) offset += status->stripe_count[s];
  }
  __syncthreads();
  const unsigned long long count = status->stripe_count[stripe];
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    out_slots[offset + i] = slots[stripe * stripe_capacity + i];
    out_flats[offset + i] = flats[stripe * stripe_capacity + i];
  }
}

std::uint32_t bits_for(std::uint64_t value) {
  std::uint32_t bits = 1;
  while (bits < 64 && (value >> bits) != 0) ++bits;
  return bits;
}

}  // namespace

DeviceSignatureTable::DeviceSignatureTable(std::uint64_t capacity, std::uint64_t duplicate_capacity,
                                           cudaStream_t stream)
    : stream_(stream),
      capacity_(capacity),
      duplicate_capacity_((duplicate_capacity + kStripes - 1) / kStripes * kStripes),
      slots_(capacity),
      status_(sizeof(PassStatus)),
      dup_slots_(duplicate_capacity_),
      dup_flats_(duplicate_capacity_),
      sorted_slots_(duplicate_capacity_),
      sorted_flats_(duplicate_capacity_) {
  // The double-buffer form sorts between the listed and the spare arrays; the other form would
  // allocate a second copy of both as scratch.
  cub::DoubleBuffer<unsigned long long> keys(dup_slots_.data(), sorted_slots_.data());
  cub::DoubleBuffer<unsigned long long> values(dup_flats_.data(), sorted_flats_.data());
  std::size_t temp_bytes = 0;
  SUBSCALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys, values, duplicate_capacity_));
  sort_temp_ = gpu::DeviceBuffer<unsigned char>(temp_bytes);
}

std::uint64_t DeviceSignatureTable::bytes_per_slot(std::uint64_t slots_per_duplicate) {
  // The slot word, and per duplicate four 8-byte words (listed and spare pairs) plus about
  // 1 byte of CUB scratch.
  return 8 + (4 * 8 + 1 + slots_per_duplicate - 1) / slots_per_duplicate;
}

std::uint64_t DeviceSignatureTable::bytes() const {
  return slots_.bytes() + 4 * dup_slots_.bytes() + sort_temp_.bytes() + status_.bytes();
}

InsertStatus DeviceSignatureTable::insert(const enumeration::UnitSpaceView& space, std::uint64_t total,
                                          SignatureRange range, std::uint32_t units_per_run, bool warp_walk,
                                          int multiprocessors) {
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(slots_.data(), 0xff, slots_.bytes(), stream_));
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(status_.data(), 0, status_.bytes(), stream_));
  const std::uint64_t lanes = warp_walk ? 32 : 1, walkers_per_block = 256 / lanes;
  const std::uint64_t runs = (total + units_per_run * lanes - 1) / (units_per_run * lanes);
  const unsigned blocks = static_cast<unsigned>(std::max<std::uint64_t>(
      1,
      std::min<std::uint64_t>((runs + walkers_per_block - 1) / walkers_per_block, std::uint64_t(multiprocessors) * 8)));
  auto* status = reinterpret_cast<PassStatus*>(status_.data());
  const TableView view{slots_.data(), capacity_, dup_slots_.data(), dup_flats_.data(), duplicate_capacity_ / kStripes,
                       status};
  if (warp_walk)
    launch_insert<32>(blocks, space, total, range, units_per_run, view, stream_);
  else
    launch_insert<1>(blocks, space, total, range, units_per_run, view, stream_);
  PassStatus host{};
  SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(&host, status, sizeof host, cudaMemcpyDeviceToHost, stream_));
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  InsertStatus result{host.kept, 0, host.table_full != 0, false};
  for (auto count : host.stripe_count) {
    result.duplicates += count;
    if (count > duplicate_capacity_ / kStripes) result.duplicate_list_full = true;
  }
  return result;
}

SortedDuplicates DeviceSignatureTable::sort_duplicates(std::uint64_t count) {
  if (count > 0) {
    const std::uint64_t stripe_capacity = duplicate_capacity_ / kStripes;
    const dim3 grid(static_cast<unsigned>(std::min<std::uint64_t>((stripe_capacity + 255) / 256, 64)), kStripes);
    gather_stripes<<<grid, 256, 0, stream_>>>(dup_slots_.data(), dup_flats_.data(), stripe_capacity,
                                              reinterpret_cast<const PassStatus*>(status_.data()), sorted_slots_.data(),
                                              sorted_flats_.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(gather_stripes);
  }
  // Sorted from the spare arrays (where the stripes were gathered) into the list's.
  cub::DoubleBuffer<unsigned long long> keys(sorted_slots_.data(), dup_slots_.data());
  cub::DoubleBuffer<unsigned long long> values(sorted_flats_.data(), dup_flats_.data());
  if (count > 0) {
    std::size_t temp_bytes = sort_temp_.size();
    SUBSCALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sort_temp_.data(), temp_bytes, keys, values, count, 0,
                                                        static_cast<int>(bits_for(capacity_)), stream_));
  }
  return SortedDuplicates{keys.Current(), values.Current(), count, slots_.data(), capacity_};
}

}  // namespace subscale::dense_units::table
