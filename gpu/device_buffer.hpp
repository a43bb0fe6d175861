#pragma once
// An owning device allocation (plain cudaMalloc, never managed memory): freed exactly once, moved
// not copied, so an exception anywhere releases what was allocated. Allocation failures surface
// as ResourceError through SUBSCALE_CUDA_CHECK. The one device container of the project, so also
// where SUBSCALE_FAIL_DEVICE_ALLOC makes allocations fail on purpose (gpu/allocation_faults.hpp).
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "gpu/allocation_faults.hpp"
#include "gpu/cuda_check.hpp"

namespace subscale::gpu {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count == 0) return;
    if (count > ~std::size_t{0} / sizeof(T) || next_device_allocation_fails())
      throw_cuda_error(cudaErrorMemoryAllocation, "cudaMalloc (SUBSCALE_FAIL_DEVICE_ALLOC, or a size beyond 2^64)",
                       __FILE__, __LINE__);
    SUBSCALE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    DeviceBuffer moved(std::move(other));
    swap(moved);
    return *this;
  }
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);  // no check: destructors must not throw
  }

  static DeviceBuffer from_host(const std::vector<T>& host, cudaStream_t stream = nullptr) {
    DeviceBuffer buffer(host.size());
    if (!host.empty())
      SUBSCALE_CUDA_CHECK(
          cudaMemcpyAsync(buffer.data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
    return buffer;
  }
  std::vector<T> to_host(std::size_t count, cudaStream_t stream = nullptr) const {
    std::vector<T> host(count);
    if (count > 0) {
      SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(host.data(), data_, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
      SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    return host;
  }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

 private:
  void swap(DeviceBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace subscale::gpu
