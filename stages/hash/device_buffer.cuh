#pragma once
// A typed device allocation owned by one object (plain cudaMalloc, freed once in the destructor).
// Local to the hash stage; the project has no shared device container yet.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "gpu/cuda_check.hpp"

namespace subscale::hash_stage {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count > 0) SUBSCALE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  ~DeviceBuffer() { release(); }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

 private:
  void release() noexcept {
    if (data_) cudaFree(data_);  // a destructor must not throw; a failed free is not recoverable
    data_ = nullptr;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// A stream owned by one object.
class DeviceStream {
 public:
  DeviceStream() { SUBSCALE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  DeviceStream(const DeviceStream&) = delete;
  DeviceStream& operator=(const DeviceStream&) = delete;
  ~DeviceStream() { cudaStreamDestroy(stream_); }
  cudaStream_t get() const noexcept { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace subscale::hash_stage
