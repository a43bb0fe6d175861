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
#include "stages/dense_units/device_direct_accumulator.cuh"

namespace subscale::gpu_direct {
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
  explicit OrderSorter(std::uint32_t count) : keys_(count), key_spare_(count), order_(count), order_spare_(count) {
    std::size_t bytes = 0;
    cub::DoubleBuffer<std::uint64_t> keys(keys_.data(), key_spare_.data());
    cub::DoubleBuffer<std::uint32_t> order(order_.data(), order_spare_.data());
    SUBSCALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, keys, order, count));
    temp_ = DeviceBuffer<unsigned char>(std::max<std::size_t>(bytes, 1));
    iota<<<blocks_for(count), kThreads>>>(order_.data(), count);
    SUBSCALE_CUDA_CHECK_LAUNCH("iota");
  }
  const std::uint32_t* order() const { return current_order_; }
  // Sorts by keys() (filled by the caller for the current order), on bits [0, end_bit).
  void sort(std::uint32_t count, int end_bit) {
    cub::DoubleBuffer<std::uint64_t> keys(current_keys_, other(current_keys_, keys_, key_spare_));
    cub::DoubleBuffer<std::uint32_t> order(current_order_, other(current_order_, order_, order_spare_));
    std::size_t bytes = temp_.bytes();
    SUBSCALE_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(temp_.data(), bytes, keys, order, count, 0, end_bit));
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
  DeviceBuffer<std::uint64_t> keys_, key_spare_;
  DeviceBuffer<std::uint32_t> order_, order_spare_;
  DeviceBuffer<unsigned char> temp_;
  std::uint64_t* current_keys_ = keys_.data();
  std::uint32_t* current_order_ = order_.data();
};

// Offsets (count + 1) of the lists whose lengths are lengths[order[i]].
DeviceBuffer<std::uint64_t> list_offsets(const DeviceBuffer<std::uint64_t>& lengths, const std::uint32_t* order,
                                         std::uint32_t count) {
  DeviceBuffer<std::uint64_t> ordered(count), offsets(std::size_t{count} + 1);
  gather<<<blocks_for(count), kThreads>>>(lengths.data(), order, count, ordered.data());
  SUBSCALE_CUDA_CHECK_LAUNCH("gather");
  std::size_t bytes = 0;
  SUBSCALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, ordered.data(), offsets.data() + 1, count));
  DeviceBuffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
  SUBSCALE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.data(), bytes, ordered.data(), offsets.data() + 1, count));
  SUBSCALE_CUDA_CHECK(cudaMemset(offsets.data(), 0, sizeof(std::uint64_t)));
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
                        const DeviceBuffer<std::uint64_t>& lengths, const std::uint32_t* order, std::uint32_t count) {
  DeviceIdLists lists{list_offsets(lengths, order, count), {}};
  SUBSCALE_CUDA_CHECK(
      cudaMemcpy(&lists.total, lists.offsets.data() + count, sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
  lists.ids = DeviceBuffer<std::uint32_t>(std::max<std::uint64_t>(lists.total, 1));
  write_ids<<<blocks_for(count), kThreads>>>(words, words_each, order, count, lists.offsets.data(), lists.ids.data());
  SUBSCALE_CUDA_CHECK_LAUNCH("write_ids");
  return lists;
}

// Ids of one chunk of entries wanted at most by default: small enough that pinning two slots of
// both lists is cheap (64 MiB), large enough that a copy and a chunk's vectors take far longer
// than a call.
constexpr std::uint64_t kChunkIds = std::uint64_t{1} << 22;

// Consecutive entry ranges whose dimension and point ids each stay within `most` (an entry that
// alone holds more is a range of its own).
std::vector<std::size_t> chunk_starts(const std::vector<std::uint64_t>& dims, const std::vector<std::uint64_t>& points,
                                      std::uint64_t most) {
  const std::size_t count = dims.size() - 1;
  std::vector<std::size_t> starts{0};
  for (std::size_t e = 1; e <= count; ++e)
    if (dims[e] - dims[starts.back()] > most || points[e] - points[starts.back()] > most) {
      starts.push_back(e - 1 > starts.back() ? e - 1 : e);
    }
  if (starts.back() != count) starts.push_back(count);
  return starts;
}

// Copies the lists to the host a chunk at a time through two pinned slots, each chunk made into
// vectors while the next one is copied.
void hand_over(const DeviceIdLists& dims, const DeviceIdLists& points, std::uint32_t count, std::uint64_t chunk_ids,
               std::vector<SubspaceCluster>& subspaces) {
  const std::vector<std::uint64_t> dim_offsets = dims.offsets.to_host(std::size_t{count} + 1);
  const std::vector<std::uint64_t> point_offsets = points.offsets.to_host(std::size_t{count} + 1);
  const std::vector<std::size_t> starts =
      chunk_starts(dim_offsets, point_offsets, chunk_ids > 0 ? chunk_ids : kChunkIds);
  std::uint64_t dim_room = 0, point_room = 0;
  for (std::size_t c = 0; c + 1 < starts.size(); ++c) {
    dim_room = std::max(dim_room, dim_offsets[starts[c + 1]] - dim_offsets[starts[c]]);
    point_room = std::max(point_room, point_offsets[starts[c + 1]] - point_offsets[starts[c]]);
  }
  // Page-locked slots: copies into them run at the link's rate and asynchronously.
  using PinnedIds = gpu::PinnedBuffer<std::uint32_t>;
  const PinnedIds dim_slots[2] = {PinnedIds(dim_room), PinnedIds(dim_room)};
  const PinnedIds point_slots[2] = {PinnedIds(point_room), PinnedIds(point_room)};
  const gpu::DeviceStream stream;
  cudaEvent_t copied[2];
  for (cudaEvent_t& event : copied) SUBSCALE_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  auto copy = [&](std::size_t c) {
    const std::size_t first = starts[c], last = starts[c + 1], slot = c % 2;
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(dim_slots[slot].data(), dims.ids.data() + dim_offsets[first],
                                        (dim_offsets[last] - dim_offsets[first]) * 4, cudaMemcpyDeviceToHost,
                                        stream.get()));
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(point_slots[slot].data(), points.ids.data() + point_offsets[first],
                                        (point_offsets[last] - point_offsets[first]) * 4, cudaMemcpyDeviceToHost,
                                        stream.get()));
    SUBSCALE_CUDA_CHECK(cudaEventRecord(copied[slot], stream.get()));
  };
  try {
    const std::size_t chunks = starts.size() - 1;
    if (chunks > 0) copy(0);
    for (std::size_t c = 0; c < chunks; ++c) {
      if (c + 1 < chunks) copy(c + 1);  // its slot's previous chunk is already in vectors
      SUBSCALE_CUDA_CHECK(cudaEventSynchronize(copied[c % 2]));
      direct::fill_subspaces({starts[c], starts[c + 1], dim_offsets.data(), dim_slots[c % 2].data(),
                              point_offsets.data(), point_slots[c % 2].data()},
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
  std::future<void> room = std::async(std::launch::async, [&] { direct::resize_for_fill(subspaces, count); });
  try {
    DeviceBuffer<std::uint64_t> sizes(count), point_counts(count);
    count_bits<<<blocks_for(count), kThreads>>>(view_.keys, view_.key_words, count, sizes.data());
    count_bits<<<blocks_for(count), kThreads>>>(view_.bitmaps, view_.point_words, count, point_counts.data());
    SUBSCALE_CUDA_CHECK_LAUNCH("count_bits");
    // Least significant criterion first: the last key word, ..., the first, then |S|.
    phase("direct: order on device");
    OrderSorter sorter(count);
    for (std::uint32_t w = view_.key_words; w-- > 0;) {
      gather_reversed_word<<<blocks_for(count), kThreads>>>(view_.keys, view_.key_words, w, sorter.order(), count,
                                                            sorter.spare_keys());
      SUBSCALE_CUDA_CHECK_LAUNCH("gather_reversed_word");
      sorter.use_keys(sorter.spare_keys());
      sorter.sort(count, 64);
    }
    gather<<<blocks_for(count), kThreads>>>(sizes.data(), sorter.order(), count, sorter.spare_keys());
    SUBSCALE_CUDA_CHECK_LAUNCH("gather");
    sorter.use_keys(sorter.spare_keys());
    sorter.sort(count, std::bit_width(dimensions));
    phase("direct: lists on device");
    const DeviceIdLists dims = list_bits(view_.keys, view_.key_words, sizes, sorter.order(), count);
    const DeviceIdLists points = list_bits(view_.bitmaps, view_.point_words, point_counts, sorter.order(), count);
    phase("direct: host room for the list");
    room.get();
    phase("direct: lists to host vectors");
    hand_over(dims, points, count, chunk_ids, subspaces);
  } catch (const ResourceError&) {
    cudaGetLastError();  // an out-of-memory is not sticky: the caller spills the bitmaps instead
    return std::nullopt;
  }
  return subspaces;
}

}  // namespace subscale::gpu_direct
