#pragma once
// Host-to-device copies of data that lives in ordinary (pageable) host memory, at the rate of
// pinned memory: the data go through two pinned staging chunks, the host filling one (with
// several threads) while the copy engine sends the other. A plain cudaMemcpy from pageable
// memory runs at a third to a half of that and holds the calling thread for the whole copy.
//
// StagedUploader::upload returns once every chunk has been handed to the copy engine; the copies
// are ordered on the uploader's stream, so kernels launched on that stream (or on streams that
// wait for record()) see the data. Uploads of several columns in a row overlap each other's host
// and device halves, and work queued on other streams runs meanwhile.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "gpu/device_stream.hpp"
#include "gpu/pinned_buffer.hpp"

namespace subscale::gpu {

class StagedUploader {
 public:
  // chunk_bytes: the size of each of the two staging chunks (rounded up to 4 KiB).
  explicit StagedUploader(std::size_t chunk_bytes = std::size_t{32} << 20);
  StagedUploader(const StagedUploader&) = delete;
  StagedUploader& operator=(const StagedUploader&) = delete;
  ~StagedUploader();

  // Queues the copy of `bytes` host bytes to `device` (a device pointer).
  void upload(void* device, const void* host, std::size_t bytes);
  template <class T>
  void upload(T* device, std::span<const T> host) {
    upload(static_cast<void*>(device), host.data(), host.size_bytes());
  }

  cudaStream_t stream() const noexcept { return stream_.get(); }
  // An event after every copy queued so far (for another stream to wait on).
  cudaEvent_t record();
  void synchronize();

 private:
  std::size_t chunk_bytes_;
  PinnedBuffer<unsigned char> staging_[2];
  cudaEvent_t sent_[2]{};  // the copy out of staging_[i] has finished
  cudaEvent_t done_{};
  int next_ = 0;
  DeviceStream stream_;
};

}  // namespace subscale::gpu
