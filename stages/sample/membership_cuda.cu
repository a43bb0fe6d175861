#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/error.hpp"
#include "common/held_values.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_budget.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "stages/sample/cluster_members.hpp"
#include "stages/sample/membership_cuda.hpp"

namespace subscale::sample {
namespace {

using gpu::DeviceBuffer;

constexpr unsigned kThreads = 256;

// The CPU's arithmetic without contraction: a fused multiply-add rounds once where the CPU rounds
// twice, and would move points across the radius.
__device__ inline float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ inline double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ inline float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ inline double add_rn(double a, double b) { return __dadd_rn(a, b); }
__device__ inline float sub_rn(float a, float b) { return __fsub_rn(a, b); }
__device__ inline double sub_rn(double a, double b) { return __dsub_rn(a, b); }

// Every cluster's members, concatenated: cluster c's coordinates start at coordinate_offset[c],
// its first coordinates and its members at member_offset[c], its box and dimensions at
// dimension_offset[c] (width = dimension_offset[c + 1] - dimension_offset[c]).
template <class T>
struct DeviceClusters {
  const T* coordinates;
  const T* first;
  const double* lo;
  const double* hi;
  const std::uint32_t* column;  // the block's column (0-based among the used dimensions)
  const std::uint64_t* coordinate_offset;
  const std::uint64_t* member_offset;
  const std::uint32_t* dimension_offset;
};

// flags[c * rows + i] = point i of the block belongs to cluster c.
template <class T>
__global__ void membership_flags(const T* block, std::uint64_t rows, DeviceClusters<T> k, std::uint32_t clusters,
                                 double reach, T limit, std::uint8_t* flags) {
  const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (g >= rows * clusters) return;
  const std::uint32_t c = static_cast<std::uint32_t>(g / rows);
  const std::uint64_t i = g % rows;
  const std::uint32_t d0 = k.dimension_offset[c], width = k.dimension_offset[c + 1] - d0;
  const std::uint64_t m0 = k.member_offset[c], members = k.member_offset[c + 1] - m0;
  std::uint8_t found = 0;
  bool inside = members > 0 && width > 0;
  for (std::uint32_t t = 0; inside && t < width; ++t) {
    const double v = static_cast<double>(block[k.column[d0 + t] * rows + i]);
    inside = v >= k.lo[d0 + t] && v <= k.hi[d0 + t];
  }
  if (inside) {
    const double x0 = static_cast<double>(block[k.column[d0] * rows + i]);
    const T* first = k.first + m0;
    std::uint64_t lo = 0, hi = members;  // first member with first >= x0 - reach
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (static_cast<double>(first[mid]) < x0 - reach)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (std::uint64_t m = lo; m < members && static_cast<double>(first[m]) <= x0 + reach && !found; ++m) {
      const T* member = k.coordinates + k.coordinate_offset[c] + m * width;
      T sum = 0;
      bool within = true;
      for (std::uint32_t t = 0; t < width && within; ++t) {
        const T diff = sub_rn(block[k.column[d0 + t] * rows + i], member[t]);
        sum = add_rn(sum, mul_rn(diff, diff));
        within = !(sum > limit);
      }
      found = within ? 1 : 0;
    }
  }
  flags[g] = found;
}

template <class T>
struct HostClusters {
  std::vector<T> coordinates, first;
  std::vector<double> lo, hi;
  std::vector<std::uint32_t> column, dimension_offset{0};
  std::vector<std::uint64_t> coordinate_offset{0}, member_offset{0};
  std::vector<std::uint32_t> used;  // the dimensions the clusters use, ascending
};

template <class T>
HostClusters<T> flatten(const ColumnMatrix<T>& reference, const std::vector<SubspaceCluster>& clusters, double radius) {
  HostClusters<T> h;
  for (const auto& c : clusters) h.used.insert(h.used.end(), c.dimensions.begin(), c.dimensions.end());
  std::sort(h.used.begin(), h.used.end());
  h.used.erase(std::unique(h.used.begin(), h.used.end()), h.used.end());
  for (const auto& c : clusters) {
    membership_detail::Members<T> m;
    if (!c.dimensions.empty() && !c.points.empty()) m = membership_detail::gather(reference, c, radius);
    h.coordinates.insert(h.coordinates.end(), m.coordinates.begin(), m.coordinates.end());
    h.first.insert(h.first.end(), m.first.begin(), m.first.end());
    h.lo.insert(h.lo.end(), m.lo.begin(), m.lo.end());
    h.hi.insert(h.hi.end(), m.hi.begin(), m.hi.end());
    for (std::size_t t = 0; t < m.lo.size(); ++t)
      h.column.push_back(
          static_cast<std::uint32_t>(std::lower_bound(h.used.begin(), h.used.end(), c.dimensions[t]) - h.used.begin()));
    h.coordinate_offset.push_back(h.coordinates.size());
    h.member_offset.push_back(h.first.size());
    h.dimension_offset.push_back(static_cast<std::uint32_t>(h.lo.size()));
  }
  return h;
}

// Rows per block: the block's values and flags within half the device budget.
std::uint64_t block_rows(std::uint64_t n, std::size_t used, std::size_t clusters, std::size_t value_bytes,
                         std::uint64_t budget) {
  const std::uint64_t per_row = used * value_bytes + clusters;
  return std::clamp<std::uint64_t>(budget / 2 / std::max<std::uint64_t>(per_row, 1), 1, std::max<std::uint64_t>(n, 1));
}

}  // namespace

template <class T>
std::vector<std::vector<std::uint32_t>> members_near_cuda(const ColumnMatrix<T>& points,
                                                          const ColumnMatrix<T>& reference,
                                                          const std::vector<SubspaceCluster>& clusters,
                                                          const MembershipParams& params,
                                                          const gpu::ExecutionContext& context) {
  membership_detail::check(points, reference, clusters, params);
  const gpu::DeviceInfo device = gpu::query_device();
  if (!device.available)
    throw ResourceError("membership on the GPU was asked for, but " + device.reason + "; use backend: cpu or auto");
  cudaStream_t stream = context.stream;
  const HostClusters<T> h = flatten(reference, clusters, params.radius);
  std::vector<std::vector<std::uint32_t>> out(clusters.size());
  const auto n = static_cast<std::uint64_t>(points.rows());
  if (clusters.empty() || n == 0 || h.used.empty()) return out;
  const auto coordinates = DeviceBuffer<T>::from_host(h.coordinates, stream);
  const auto first = DeviceBuffer<T>::from_host(h.first, stream);
  const auto lo = DeviceBuffer<double>::from_host(h.lo, stream);
  const auto hi = DeviceBuffer<double>::from_host(h.hi, stream);
  const auto column = DeviceBuffer<std::uint32_t>::from_host(h.column, stream);
  const auto coordinate_offset = DeviceBuffer<std::uint64_t>::from_host(h.coordinate_offset, stream);
  const auto member_offset = DeviceBuffer<std::uint64_t>::from_host(h.member_offset, stream);
  const auto dimension_offset = DeviceBuffer<std::uint32_t>::from_host(h.dimension_offset, stream);
  const DeviceClusters<T> k{
      coordinates.data(),   first.data(),           lo.data(), hi.data(), column.data(), coordinate_offset.data(),
      member_offset.data(), dimension_offset.data()};
  const std::uint64_t rows = block_rows(n, h.used.size(), clusters.size(), sizeof(T),
                                        gpu::device_budget(context.device_bytes, device.free_bytes));
  DeviceBuffer<T> block(rows * h.used.size());
  DeviceBuffer<std::uint8_t> flags(rows * clusters.size());
  const T held = held_epsilon<T>(params.radius);
  const double reach = membership_detail::widened<T>(params.radius);
  for (std::uint64_t begin = 0; begin < n; begin += rows) {
    const std::uint64_t count = std::min(rows, n - begin);
    for (std::size_t u = 0; u < h.used.size(); ++u)
      SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(block.data() + u * count, points.col(h.used[u]).data() + begin,
                                          count * sizeof(T), cudaMemcpyHostToDevice, stream));
    const std::uint64_t pairs = count * clusters.size();
    const auto grid = static_cast<unsigned>((pairs + kThreads - 1) / kThreads);
    membership_flags<T><<<grid, kThreads, 0, stream>>>(
        block.data(), count, k, static_cast<std::uint32_t>(clusters.size()), reach, held * held, flags.data());
    SUBSCALE_CUDA_CHECK_LAUNCH("membership_flags");
    const std::vector<std::uint8_t> found = flags.to_host(pairs, stream);
    for (std::size_t c = 0; c < clusters.size(); ++c)
      for (std::uint64_t i = 0; i < count; ++i)
        if (found[c * count + i]) out[c].push_back(static_cast<std::uint32_t>(begin + i));
  }
  return out;
}

template std::vector<std::vector<std::uint32_t>> members_near_cuda(const Matrix32&, const Matrix32&,
                                                                   const std::vector<SubspaceCluster>&,
                                                                   const MembershipParams&,
                                                                   const gpu::ExecutionContext&);
template std::vector<std::vector<std::uint32_t>> members_near_cuda(const Matrix&, const Matrix&,
                                                                   const std::vector<SubspaceCluster>&,
                                                                   const MembershipParams&,
                                                                   const gpu::ExecutionContext&);

}  // namespace subscale::sample
