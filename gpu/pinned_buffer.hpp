#pragma once
// An owning page-locked host allocation (cudaMallocHost): the DMA engines read and write it
// directly, so copies from and to it run at the link's rate and asynchronously, where a copy from
// pageable memory is staged by the driver through a small bounce buffer and blocks the host.
// Freed exactly once, moved not copied.
#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <utility>

#include "gpu/cuda_check.hpp"

namespace subscale::gpu {

template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count > 0) SUBSCALE_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& other) noexcept { swap(other); }
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    PinnedBuffer moved(std::move(other));
    swap(moved);
    return *this;
  }
  ~PinnedBuffer() {
    if (data_) cudaFreeHost(data_);  // no check: destructors must not throw
  }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  std::span<T> span(std::size_t count) const noexcept { return {data_, count}; }

 private:
  void swap(PinnedBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace subscale::gpu
