// Unranking on the device equals the host's, for random indices near the top of the 64-bit range.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "stages/dense_units/enumeration/combinadic.hpp"

namespace subscale {
namespace {

__global__ void unrank_kernel(const std::uint64_t* ranks, std::uint32_t count, std::uint32_t n, std::uint32_t k,
                              std::uint32_t* out) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) combinadic::unrank_direct(ranks[i], n, k, out + static_cast<std::size_t>(i) * k);
}

TEST(DeviceUnrank, EqualsHostNearTheTopOfTheRange) {
  const auto device = gpu::query_device();
  if (!device.available) GTEST_SKIP() << "no CUDA device: " << device.reason;
  std::mt19937_64 rng(99);
  for (std::uint32_t k : {2u, 3u, 4u, 6u, 10u}) {
    // The largest n with C(n, k) below 2^63 (binary search: for k = 2, n is near 2^32).
    std::uint64_t lo = k, hi = std::uint64_t{1} << 33;
    while (hi - lo > 1) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (combinadic::binomial(mid, k) < (std::uint64_t{1} << 63))
        lo = mid;
      else
        hi = mid;
    }
    if (lo > 0xffffffffull) lo = 0xffffffffull;  // n is a 32-bit count of window positions
    const auto n = static_cast<std::uint32_t>(lo);
    const std::uint64_t count = combinadic::binomial(n, k);
    std::vector<std::uint64_t> ranks;
    for (int i = 0; i < 4096; ++i) ranks.push_back(count - 1 - rng() % (count / 1024));
    ranks.push_back(count - 1);
    auto device_ranks = gpu::DeviceBuffer<std::uint64_t>::from_host(ranks);
    gpu::DeviceBuffer<std::uint32_t> device_out(ranks.size() * k);
    unrank_kernel<<<static_cast<unsigned>((ranks.size() + 127) / 128), 128>>>(
        device_ranks.data(), static_cast<std::uint32_t>(ranks.size()), n, k, device_out.data());
    SUBSCALE_CUDA_CHECK(cudaGetLastError());
    const auto out = device_out.to_host(ranks.size() * k);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      std::vector<std::uint32_t> host(k);
      combinadic::unrank_direct(ranks[i], n, k, host.data());
      ASSERT_EQ(std::vector<std::uint32_t>(out.begin() + i * k, out.begin() + (i + 1) * k), host)
          << "k=" << k << " rank=" << ranks[i];
    }
  }
}

}  // namespace
}  // namespace subscale
