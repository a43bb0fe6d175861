#include <algorithm>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <span>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_budget.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/staged_upload.hpp"
#include "stages/density1d/density1d_cuda.hpp"

namespace subscale {
namespace {

using gpu::DeviceBuffer;

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::uint64_t items) {
  return static_cast<unsigned>(std::max<std::uint64_t>(1, (items + kThreads - 1) / kThreads));
}

// Keys to sort (-0.0 becomes +0.0: the CPU's comparison finds them equal and orders them by id),
// point ids in ascending order within each dimension, and the segments' offsets.
template <class T>
__global__ void prepare_sort(const T* values, std::uint64_t count, std::uint32_t n, T* keys, std::uint32_t* ids) {
  const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (g >= count) return;
  keys[g] = values[g] + T(0);
  ids[g] = static_cast<std::uint32_t>(g % n);
}

__global__ void segment_offsets(std::uint32_t segments, std::uint32_t n, int* offsets) {
  const std::uint32_t s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s <= segments) offsets[s] = static_cast<int>(s * n);
}

// Per sorted position i: h = first position > i with x[h] - x[i] >= eps, lo = first position
// with x[i] - x[lo] < eps; |N(p)| = h - lo. Differences of sorted values are monotone in the
// other position, so binary searches give what the CPU's two-pointer sweep gives.
template <class T>
__global__ void windows_and_neighbours(const T* sorted, std::uint64_t count, std::uint32_t n, T eps,
                                       std::uint32_t* window_end, std::uint32_t* neighbours) {
  const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (g >= count) return;
  const T* x = sorted + (g / n) * n;
  const std::uint32_t i = static_cast<std::uint32_t>(g % n);
  std::uint32_t lo = i + 1, hi = n;  // first h in [i + 1, n] with x[h] - x[i] >= eps (n if none)
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (x[mid] - x[i] >= eps)
      hi = mid;
    else
      lo = mid + 1;
  }
  const std::uint32_t h = lo;
  lo = 0;
  hi = i;  // first l in [0, i] with x[i] - x[l] < eps (i always qualifies)
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (x[i] - x[mid] < eps)
      hi = mid;
    else
      lo = mid + 1;
  }
  window_end[g] = h;
  neighbours[g] = h - lo;
}

// The labels in parallel, in the CPU's terms. With cores_upto = inclusive count of core points
// and core_at[r] = position of the r-th core point (both over the whole batch; a neighbour in
// another dimension is ignored):
//   a core point starts a cluster unless the previous core point of its dimension is within eps;
//   cluster id = clusters started in the dimension up to it - 1;
//   a border point joins the previous core point's cluster if within eps, else the next one's.
__global__ void mark_cores(const std::uint32_t* neighbours, std::uint64_t count, std::uint32_t min_points,
                           std::uint32_t* is_core) {
  const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (g < count) is_core[g] = neighbours[g] >= min_points ? 1u : 0u;
}

struct CoreIndex {
  const std::uint32_t* cores_upto;  // inclusive count of core points, over the batch
  const std::uint32_t* core_at;     // position of the r-th core point (0-based r)
  std::uint32_t n;
};

// The core point of rank r if it lies in the dimension starting at `base`, else -1.
__device__ std::int64_t core_in_dimension(const CoreIndex& index, std::int64_t r, std::uint64_t base) {
  if (r < 0 || index.cores_upto[base + index.n - 1] <= static_cast<std::uint64_t>(r)) return -1;
  const std::uint64_t at = index.core_at[r];
  return at >= base ? static_cast<std::int64_t>(at) : -1;
}

__global__ void place_cores(const std::uint32_t* is_core, const std::uint32_t* cores_upto, std::uint64_t count,
                            std::uint32_t* core_at) {
  const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (g < count && is_core[g]) core_at[cores_upto[g] - 1] = static_cast<std::uint32_t>(g);
}

template <class T>
__global__ void mark_cluster_starts(const T* sorted, const std::uint32_t* is_core, CoreIndex index, std::uint64_t count,
                                    T eps, std::uint32_t* starts) {
  const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (g >= count) return;
  if (!is_core[g]) {
    starts[g] = 0;
    return;
  }
  const std::uint64_t base = g / index.n * index.n;
  const std::int64_t previous = core_in_dimension(index, static_cast<std::int64_t>(index.cores_upto[g]) - 2, base);
  starts[g] = previous < 0 || sorted[g] - sorted[previous] >= eps ? 1u : 0u;
}

template <class T>
__global__ void label_points(const T* sorted, const std::uint32_t* ids, const std::uint32_t* is_core, CoreIndex index,
                             const std::uint32_t* starts_upto, std::uint64_t count, T eps, std::int32_t* labels) {
  const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (g >= count) return;
  const std::uint64_t base = g / index.n * index.n;
  const std::uint32_t starts_before = base > 0 ? starts_upto[base - 1] : 0;
  auto cluster_of = [&](std::uint64_t core) {
    return static_cast<std::int32_t>(starts_upto[core] - starts_before) - 1;
  };
  std::int32_t label = -1;
  if (is_core[g]) {
    label = cluster_of(g);
  } else {
    const std::int64_t rank = index.cores_upto[g];  // cores up to g: the next one has this rank
    const std::int64_t previous = core_in_dimension(index, rank - 1, base);
    const std::int64_t next = core_in_dimension(index, rank, base);
    if (previous >= 0 && sorted[g] - sorted[previous] < eps)
      label = cluster_of(static_cast<std::uint64_t>(previous));
    else if (next >= 0 && static_cast<std::uint64_t>(next) < base + index.n && sorted[next] - sorted[g] < eps)
      label = cluster_of(static_cast<std::uint64_t>(next));
  }
  labels[base + ids[g]] = label;
}

// Dimensions a batch takes: the values, keys, ids and per-position arrays with double buffers,
// about 64 bytes a value, within half the budget and CUB's int item count.
std::uint32_t dimensions_per_batch(std::uint32_t n, std::uint32_t d, const Density1dCudaOptions& options,
                                   std::uint64_t budget) {
  const std::uint64_t by_memory = budget / 2 / 64;
  std::uint64_t values = options.batch_values > 0 ? options.batch_values : by_memory;
  values = std::min<std::uint64_t>(values, std::uint64_t{1} << 30);
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(values / std::max<std::uint32_t>(n, 1), 1, d));
}

}  // namespace

template <class T>
Density1dResult run_density1d_cuda(const ColumnMatrix<T>& values, const Density1dParams& params,
                                   const Density1dCudaOptions& options, const gpu::ExecutionContext& context) {
  const gpu::DeviceInfo device = gpu::query_device();
  if (!device.available)
    throw ResourceError("density1d on the GPU was asked for, but " + device.reason + "; use backend: cpu or auto");
  const auto n = static_cast<std::uint32_t>(values.rows());
  const auto d = static_cast<std::uint32_t>(values.cols());
  Density1dResult result;
  result.dimensions.resize(d);
  if (n == 0 || d == 0) return result;
  const std::uint32_t batch =
      dimensions_per_batch(n, d, options, gpu::device_budget(context.device_bytes, device.free_bytes));
  const cudaStream_t stream = context.stream;
  const std::uint64_t batch_values = std::uint64_t{batch} * n;
  DeviceBuffer<T> raw(batch_values), keys(batch_values), sorted(batch_values);
  const T eps = held_epsilon<T>(params.epsilon);
  DeviceBuffer<std::uint32_t> ids(batch_values), sorted_ids(batch_values), window_end(batch_values),
      neighbours(batch_values);
  DeviceBuffer<std::uint32_t> is_core(batch_values), cores_upto(batch_values), core_at(batch_values),
      starts(batch_values), starts_upto(batch_values);
  DeviceBuffer<std::int32_t> labels(batch_values);
  DeviceBuffer<int> offsets(batch + 1);
  std::size_t temp_bytes = 0, scan_bytes = 0;
  SUBSCALE_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairs(
      nullptr, temp_bytes, keys.data(), sorted.data(), ids.data(), sorted_ids.data(), static_cast<int>(batch_values),
      static_cast<int>(batch), offsets.data(), offsets.data() + 1));
  SUBSCALE_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, is_core.data(), cores_upto.data(), batch_values));
  temp_bytes = std::max(temp_bytes, scan_bytes);
  DeviceBuffer<unsigned char> temp(temp_bytes);

  // The values come from pageable memory through pinned staging (gpu/staged_upload); the next
  // batch's copy is queued as soon as prepare_sort has read `raw`, so it runs while this batch is
  // sorted and labelled. The kernels run on the context's stream, which waits for the copies.
  gpu::StagedUploader uploader;
  cudaEvent_t raw_read{};
  SUBSCALE_CUDA_CHECK(cudaEventCreateWithFlags(&raw_read, cudaEventDisableTiming));
  struct EventGuard {
    cudaEvent_t event;
    ~EventGuard() { cudaEventDestroy(event); }
  } guard{raw_read};
  const auto upload_batch = [&](std::uint32_t first) {
    const std::uint64_t count = std::uint64_t{std::min(batch, d - first)} * n;
    uploader.upload(raw.data(), std::span<const T>(values.data() + std::uint64_t{first} * n, count));
  };
  upload_batch(0);
  for (std::uint32_t first = 0; first < d; first += batch) {
    const std::uint32_t dims = std::min(batch, d - first);
    const std::uint64_t count = std::uint64_t{dims} * n;
    SUBSCALE_CUDA_CHECK(cudaStreamWaitEvent(stream, uploader.record(), 0));
    prepare_sort<<<blocks_for(count), kThreads, 0, stream>>>(raw.data(), count, n, keys.data(), ids.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(prepare_sort);
    SUBSCALE_CUDA_CHECK(cudaEventRecord(raw_read, stream));
    if (first + batch < d) {
      SUBSCALE_CUDA_CHECK(cudaStreamWaitEvent(uploader.stream(), raw_read, 0));
      upload_batch(first + batch);
    }
    segment_offsets<<<blocks_for(dims + 1), kThreads, 0, stream>>>(dims, n, offsets.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(segment_offsets);
    std::size_t bytes = temp.size();
    SUBSCALE_CUDA_CHECK(cub::DeviceSegmentedRadixSort::SortPairs(
        temp.data(), bytes, keys.data(), sorted.data(), ids.data(), sorted_ids.data(), static_cast<int>(count),
        static_cast<int>(dims), offsets.data(), offsets.data() + 1, 0, static_cast<int>(sizeof(T) * 8), stream));
    windows_and_neighbours<<<blocks_for(count), kThreads, 0, stream>>>(sorted.data(), count, n, eps, window_end.data(),
                                                                       neighbours.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(windows_and_neighbours);
    const unsigned blocks = blocks_for(count);
    mark_cores<<<blocks, kThreads, 0, stream>>>(neighbours.data(), count, params.min_points, is_core.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(mark_cores);
    bytes = temp.size();
    SUBSCALE_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(temp.data(), bytes, is_core.data(), cores_upto.data(), count, stream));
    place_cores<<<blocks, kThreads, 0, stream>>>(is_core.data(), cores_upto.data(), count, core_at.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(place_cores);
    const CoreIndex index{cores_upto.data(), core_at.data(), n};
    mark_cluster_starts<<<blocks, kThreads, 0, stream>>>(sorted.data(), is_core.data(), index, count, eps,
                                                         starts.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(mark_cluster_starts);
    bytes = temp.size();
    SUBSCALE_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(temp.data(), bytes, starts.data(), starts_upto.data(), count, stream));
    label_points<<<blocks, kThreads, 0, stream>>>(sorted.data(), sorted_ids.data(), is_core.data(), index,
                                                  starts_upto.data(), count, eps, labels.data());
    SUBSCALE_CUDA_CHECK_LAUNCH(label_points);
    // Per dimension: core points and clusters are the counts at its last position less those
    // before it.
    std::vector<std::uint32_t> cores_at_end(dims), starts_at_end(dims);
    for (std::uint32_t j = 0; j < dims; ++j) {
      const std::uint64_t last = std::uint64_t{j + 1} * n - 1;
      SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(&cores_at_end[j], cores_upto.data() + last, sizeof(std::uint32_t),
                                          cudaMemcpyDeviceToHost, stream));
      SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(&starts_at_end[j], starts_upto.data() + last, sizeof(std::uint32_t),
                                          cudaMemcpyDeviceToHost, stream));
    }
    SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (std::uint32_t j = 0; j < dims; ++j) {
      DimensionDensity& out = result.dimensions[first + j];
      const std::uint64_t offset = std::uint64_t{j} * n;
      out.order.resize(n);
      out.window_end.resize(n);
      out.labels.resize(n);
      SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(out.order.data(), sorted_ids.data() + offset, n * sizeof(std::uint32_t),
                                          cudaMemcpyDeviceToHost, stream));
      SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(out.window_end.data(), window_end.data() + offset, n * sizeof(std::uint32_t),
                                          cudaMemcpyDeviceToHost, stream));
      SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(out.labels.data(), labels.data() + offset, n * sizeof(std::int32_t),
                                          cudaMemcpyDeviceToHost, stream));
      out.core_points = cores_at_end[j] - (j > 0 ? cores_at_end[j - 1] : 0);
      out.clusters = starts_at_end[j] - (j > 0 ? starts_at_end[j - 1] : 0);
    }
    SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  return result;
}

template Density1dResult run_density1d_cuda(const Matrix32&, const Density1dParams&, const Density1dCudaOptions&,
                                            const gpu::ExecutionContext&);
template Density1dResult run_density1d_cuda(const Matrix&, const Density1dParams&, const Density1dCudaOptions&,
                                            const gpu::ExecutionContext&);

}  // namespace subscale
