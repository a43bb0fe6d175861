// Hands a device subspace table that holds every subspace of a direct walk to the host as the
// subspaces stage's ordered list, doing the work where the data is: the order (|S| descending,
// then S) comes from stable radix sorts of bit-reversed mask words, and bitmaps become id lists in
// one pass, so only the lists cross the bus, not the bitmaps (ties_20g: 8.7 GB of bitmaps against
// about 2 GB of lists). The lists come over in chunks through pinned memory, each chunk made into
// vectors on every core while the next one is copied.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <future>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_stream.hpp"
#include "gpu/pinned_buffer.hpp"
#include "stages/dense_units/direct/direct_accumulator_cuda.cuh"

namespace subscale::dense_units::direct {
namespace {

using gpu::DeviceBuffer;

constexpr int kThreads = 256;

unsigned blocks_for(std::uint64_t count) { return static_cast<unsigned>((count + kThreads - 1) / kThreads); }

__global__ void count_bits(const std::uint64_t* words, std::uint32_t words_each, std::uint32_t count,
                           std::uint64_t* bits) {
  const std::uint64_t e = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (e >= count) return;
  std::uint64_t total = 0;
  for (std::uint32_t w = 0; w < words_each; ++w) total += __popcll(words[e * words_each + w]);
  bits[e] = total;
}

__global__ void iota(std::uint32_t* order, std::uint32_t count) {
  const std::uint64_t e = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (e < count) order[e] = static_cast<std::uint32_t>(e);
}

// Word w of each key in the current order, bit-reversed: of two masks, the one holding the lowest
// dimension where they differ then has the larger word, so a descending sort puts it first.
__global__ void gather_reversed_word(const std::uint64_t* keys, std::uint32_t key_words, std::uint32_t w,
                                     const std::uint32_t* order, std::uint32_t count, std::uint64_t* out) {
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < count) out[i] = __brevll(keys[std::uint64_t{order[i]} * key_words + w]);
}

__global__ void gather(const std::uint64_t* values, const std::uint32_t* order, std::uint32_t count,
                       std::uint64_t* out) {
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < count) out[i] = values[order[i]];
}

// Entry order[i]'s set bits as ids, written from offsets[i] on.
__global__ void write_ids(const std::uint64_t* words, std::uint32_t words_each, const std::uint32_t* order,
                          std::uint32_t count, const std::uint64_t* offsets, std::uint32_t* ids) {
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const std::uint64_t* entry = words + std::uint64_t{order[i]} * words_each;
  std::uint32_t* out = ids + offsets[i];
  for (std::uint32_t w = 0; w < words_each; ++w)
    for (std::uint64_t word = entry[w]; word != 0; word &= word - 1)
      *out++ = w * 64 + static_cast<std::uint32_t>(__ffsll(static_cast<long long>(word)) - 1);
}

// Stable sorts of (key, order) pairs, descending, reusing one temporary allocation.
class OrderSorter {
 public:
  OrderSorter(std::uint32_t count, cudaStream_t stream)
      : stream_(stream), keys_(count), key_spare_(count), order_(count), order_spare_(count) {
    std::size_t bytes = 0;
    cub::DoubleBuffer<std::uint64_t> keys(keys_.data(), key_spare_.data());
    cub::DoubleBuffer<std::uint32_t> order(order_.data(), order_spare_.data());
    SUBSCALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, keys, order, count));
    temp_ = DeviceBuffer<unsigned char>(std::max<std::size_t>(bytes, 1));
    iota<<<blocks_for(count), kThreads, 0, stream_>>>(order_.data(), count);
    SUBSCALE_CUDA_CHECK_LAUNCH("iota");
  }
  const std::uint32_t* order() const { return current_order_; }
  // Sorts by keys() (filled by the caller for the current order), on bits [0, end_bit).
  void sort(std::uint32_t count, int end_bit) {
    cub::DoubleBuffer<std::uint64_t> keys(current_keys_, other(current_keys_, keys_, key_spare_));
    cub::DoubleBuffer<std::uint32_t> order(current_order_, other(current_order_, order_, order_spare_));
    std::size_t bytes = temp_.bytes();
    SUBSCALE_CUDA_CHECK(
        cub::DeviceRadixSort::SortPairsDescending(temp_.data(), bytes, keys, order, count, 0, end_bit, stream_));
    current_keys_ = keys.Current();
    current_order_ = order.Current();
  }
  // The buffer not holding current keys: where the next gather may write.
  std::uint64_t* spare_keys() { return other(current_keys_, keys_, key_spare_); }
  void use_keys(std::uint64_t* keys) { current_keys_ = keys; }

 private:
  template <class T>
  static T* other(T* current, DeviceBuffer<T>& a, DeviceBuffer<T>& b) {
    return current == a.data() ? b.data() : a.data();
  }
  cudaStream_t stream_;
  DeviceBuffer<std::uint64_t> keys_, key_spare_;
  DeviceBuffer<std::uint32_t> order_, order_spare_;
  DeviceBuffer<unsigned char> temp_;
  std::uint64_t* current_keys_ = keys_.data();
  std::uint32_t* current_order_ = order_.data();
};

// Offsets (count + 1) of the lists whose lengths are lengths[order[i]].
DeviceBuffer<std::uint64_t> list_offsets(const DeviceBuffer<std::uint64_t>& lengths, const std::uint32_t* order,
                                         std::uint32_t count, cudaStream_t stream) {
  DeviceBuffer<std::uint64_t> ordered(count), offsets(std::size_t{count} + 1);
  gather<<<blocks_for(count), kThreads, 0, stream>>>(lengths.data(), order, count, ordered.data());
  SUBSCALE_CUDA_CHECK_LAUNCH("gather");
  std::size_t bytes = 0;
  SUBSCALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, ordered.data(), offsets.data() + 1, count));
  DeviceBuffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
  SUBSCALE_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(temp.data(), bytes, ordered.data(), offsets.data() + 1, count, stream));
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(offsets.data(), 0, sizeof(std::uint64_t), stream));
  return offsets;
}

// Id lists on the device: list i is ids[offsets[i] .. offsets[i + 1]).
struct DeviceIdLists {
  DeviceBuffer<std::uint64_t> offsets;
  DeviceBuffer<std::uint32_t> ids;
  std::uint64_t total = 0;
};

// The ids of every entry's set bits, in the given order.
DeviceIdLists list_bits(const std::uint64_t* words, std::uint32_t words_each,
                        const DeviceBuffer<std::uint64_t>& lengths, const std::uint32_t* order, std::uint32_t count,
                        cudaStream_t stream) {
  DeviceIdLists lists{list_offsets(lengths, order, count, stream), {}};
  SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(&lists.total, lists.offsets.data() + count, sizeof(std::uint64_t),
                                      cudaMemcpyDeviceToHost, stream));
  SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  lists.ids = DeviceBuffer<std::uint32_t>(std::max<std::uint64_t>(lists.total, 1));
  write_ids<<<blocks_for(count), kThreads, 0, stream>>>(words, words_each, order, count, lists.offsets.data(),
                                                        lists.ids.data());
  SUBSCALE_CUDA_CHECK_LAUNCH("write_ids");
  return lists;
}

// Ids of each list a chunk of entries holds, about (see chunk_bounds): small enough that pinning
// two slots is cheap, large enough that a copy and a chunk's vectors take far longer than a call.
// At 4 M ids pinning S5500's two slots took 20-24 ms of its 35-45 ms hand-over (H200); at 2 M the
// hand-over took 23-28 ms.
constexpr std::uint64_t kChunkIds = std::uint64_t{1} << 21;

// bounds[k]: the first entry whose list starts at or past (k + 1) * most ids.
__global__ void first_entries_past(const std::uint64_t* offsets, std::uint32_t count, std::uint64_t most,
                                   std::uint32_t targets, std::uint32_t* bounds) {
  const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= targets) return;
  const std::uint64_t target = (std::uint64_t{k} + 1) * most;
  std::uint32_t low = 0, high = count;  // offsets[count] is the total, past every target
  while (low < high) {
    const std::uint32_t middle = low + (high - low) / 2;
    if (offsets[middle] < target)
      low = middle + 1;
    else
      high = middle;
  }
  bounds[k] = low;
}

// Where the chunks of the hand-over start and end, with both lists' offsets there. Every entry
// where either list crosses a multiple of `most` ids starts a chunk, so a chunk holds fewer than
// `most` ids of each list plus one entry's. Found on the device: the host never holds all offsets
// (ties_20g: 2 x 236 MB, whose copy and page faults took 0.42-0.49 s).
struct ChunkBounds {
  std::vector<std::uint32_t> entries;                     // chunk c is entries [entries[c], entries[c + 1])
  std::vector<std::uint64_t> dim_offsets, point_offsets;  // at each of `entries`
};

std::vector<std::uint32_t> crossings(const DeviceIdLists& list, std::uint32_t count, std::uint64_t most,
                                     cudaStream_t stream) {
  const auto targets = static_cast<std::uint32_t>(list.total / most);
  if (targets == 0) return {};
  DeviceBuffer<std::uint32_t> bounds(targets);
  first_entries_past<<<blocks_for(targets), kThreads, 0, stream>>>(list.offsets.data(), count, most, targets,
                                                                   bounds.data());
  SUBSCALE_CUDA_CHECK_LAUNCH("first_entries_past");
  return bounds.to_host(targets, stream);
}

std::vector<std::uint64_t> offsets_at(const DeviceIdLists& list, const std::vector<std::uint32_t>& entries,
                                      cudaStream_t stream) {
  const auto count = static_cast<std::uint32_t>(entries.size());
  const DeviceBuffer<std::uint32_t> at = DeviceBuffer<std::uint32_t>::from_host(entries, stream);
  DeviceBuffer<std::uint64_t> values(count);
  gather<<<blocks_for(count), kThreads, 0, stream>>>(list.offsets.data(), at.data(), count, values.data());
  SUBSCALE_CUDA_CHECK_LAUNCH("gather");
  return values.to_host(count, stream);
}

ChunkBounds chunk_bounds(const DeviceIdLists& dims, const DeviceIdLists& points, std::uint32_t count,
                         std::uint64_t most, cudaStream_t stream) {
  ChunkBounds bounds;
  bounds.entries = crossings(dims, count, most, stream);
  const std::vector<std::uint32_t> more = crossings(points, count, most, stream);
  bounds.entries.insert(bounds.entries.end(), more.begin(), more.end());
  bounds.entries.push_back(0);
  bounds.entries.push_back(count);
  std::sort(bounds.entries.begin(), bounds.entries.end());
  bounds.entries.erase(std::unique(bounds.entries.begin(), bounds.entries.end()), bounds.entries.end());
  bounds.dim_offsets = offsets_at(dims, bounds.entries, stream);
  bounds.point_offsets = offsets_at(points, bounds.entries, stream);
  return bounds;
}

// Page-locked room for one chunk: copies into it run at the link's rate and asynchronously.
struct ChunkSlot {
  gpu::PinnedBuffer<std::uint64_t> dim_offsets, point_offsets;
  gpu::PinnedBuffer<std::uint32_t> dim_ids, point_ids;
};

ChunkSlot slot_for(const ChunkBounds& bounds) {
  std::uint64_t entries = 0, dim_ids = 0, point_ids = 0;
  for (std::size_t c = 0; c + 1 < bounds.entries.size(); ++c) {
    entries = std::max<std::uint64_t>(entries, bounds.entries[c + 1] - bounds.entries[c]);
    dim_ids = std::max(dim_ids, bounds.dim_offsets[c + 1] - bounds.dim_offsets[c]);
    point_ids = std::max(point_ids, bounds.point_offsets[c + 1] - bounds.point_offsets[c]);
  }
  return {gpu::PinnedBuffer<std::uint64_t>(entries + 1), gpu::PinnedBuffer<std::uint64_t>(entries + 1),
          gpu::PinnedBuffer<std::uint32_t>(dim_ids), gpu::PinnedBuffer<std::uint32_t>(point_ids)};
}

// Copies the lists to the host a chunk at a time (its offsets and ids) through two pinned slots,
// each chunk made into vectors while the next one is copied. The copies run on a stream of their
// own, after the lists written on `stream` (chunk_bounds synchronised it).
void hand_over(const DeviceIdLists& dims, const DeviceIdLists& points, std::uint32_t count, std::uint64_t chunk_ids,
               std::vector<SubspaceCluster>& subspaces, cudaStream_t lists_stream) {
  const ChunkBounds bounds = chunk_bounds(dims, points, count, chunk_ids > 0 ? chunk_ids : kChunkIds, lists_stream);
  ChunkSlot slots[2] = {slot_for(bounds), slot_for(bounds)};
  const gpu::DeviceStream stream;
  cudaEvent_t copied[2];
  for (cudaEvent_t& event : copied) SUBSCALE_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  auto copy_async = [&](void* to, const void* from, std::uint64_t bytes) {
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToHost, stream.get()));
  };
  auto copy = [&](std::size_t c) {
    const ChunkSlot& slot = slots[c % 2];
    const std::uint64_t first = bounds.entries[c], entries = bounds.entries[c + 1] - first;
    copy_async(slot.dim_offsets.data(), dims.offsets.data() + first, (entries + 1) * 8);
    copy_async(slot.point_offsets.data(), points.offsets.data() + first, (entries + 1) * 8);
    copy_async(slot.dim_ids.data(), dims.ids.data() + bounds.dim_offsets[c],
               (bounds.dim_offsets[c + 1] - bounds.dim_offsets[c]) * 4);
    copy_async(slot.point_ids.data(), points.ids.data() + bounds.point_offsets[c],
               (bounds.point_offsets[c + 1] - bounds.point_offsets[c]) * 4);
    SUBSCALE_CUDA_CHECK(cudaEventRecord(copied[c % 2], stream.get()));
  };
  try {
    const std::size_t chunks = bounds.entries.size() - 1;
    if (chunks > 0) copy(0);
    for (std::size_t c = 0; c < chunks; ++c) {
      if (c + 1 < chunks) copy(c + 1);  // its slot's previous chunk is already in vectors
      SUBSCALE_CUDA_CHECK(cudaEventSynchronize(copied[c % 2]));
      const ChunkSlot& slot = slots[c % 2];
      dense_units::direct::fill_subspaces({bounds.entries[c], bounds.entries[c + 1], slot.dim_offsets.data(),
                                           slot.dim_ids.data(), slot.point_offsets.data(), slot.point_ids.data()},
                                          subspaces);
    }
  } catch (...) {
    cudaStreamSynchronize(stream.get());  // no copy may still write into the slots being freed
    for (cudaEvent_t event : copied) cudaEventDestroy(event);
    throw;
  }
  for (cudaEvent_t event : copied) cudaEventDestroy(event);
}

}  // namespace

std::optional<std::vector<SubspaceCluster>> DeviceDirectAccumulator::list_in_order(
    std::uint32_t dimensions, std::uint64_t chunk_ids, const std::function<void(const char*)>& phase) const {
  const std::uint32_t count = entries();
  if (count == 0) return std::vector<SubspaceCluster>{};
  std::vector<SubspaceCluster> subspaces;
  // The host's room for the list is made while the device orders and lists; the future is
  // destroyed (joined) before `subspaces` on every way out.
  std::future<void> room =
      std::async(std::launch::async, [&] { dense_units::direct::resize_for_fill(subspaces, count); });
  try {
    DeviceBuffer<std::uint64_t> sizes(count), point_counts(count);
    count_bits<<<blocks_for(count), kThreads, 0, stream_>>>(view_.keys, view_.key_words, count, sizes.data());
    count_bits<<<blocks_for(count), kThreads, 0, stream_>>>(view_.bitmaps, view_.point_words, count,
                                                            point_counts.data());
    SUBSCALE_CUDA_CHECK_LAUNCH("count_bits");
    // Least significant criterion first: the last key word, ..., the first, then |S|.
    phase("direct: order on device");
    OrderSorter sorter(count, stream_);
    for (std::uint32_t w = view_.key_words; w-- > 0;) {
      gather_reversed_word<<<blocks_for(count), kThreads, 0, stream_>>>(view_.keys, view_.key_words, w, sorter.order(),
                                                                        count, sorter.spare_keys());
      SUBSCALE_CUDA_CHECK_LAUNCH("gather_reversed_word");
      sorter.use_keys(sorter.spare_keys());
      sorter.sort(count, 64);
    }
    gather<<<blocks_for(count), kThreads, 0, stream_>>>(sizes.data(), sorter.order(), count, sorter.spare_keys());
    SUBSCALE_CUDA_CHECK_LAUNCH("gather");
    sorter.use_keys(sorter.spare_keys());
    sorter.sort(count, std::bit_width(dimensions));
    phase("direct: lists on device");
    const DeviceIdLists dims = list_bits(view_.keys, view_.key_words, sizes, sorter.order(), count, stream_);
    const DeviceIdLists points =
        list_bits(view_.bitmaps, view_.point_words, point_counts, sorter.order(), count, stream_);
    phase("direct: host room for the list");
    room.get();
    phase("direct: lists to host vectors");
    hand_over(dims, points, count, chunk_ids, subspaces, stream_);
  } catch (const ResourceError&) {
    cudaGetLastError();  // an out-of-memory is not sticky: the caller spills the bitmaps instead
    return std::nullopt;
  }
  return subspaces;
}

}  // namespace subscale::dense_units::direct
