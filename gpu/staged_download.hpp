#pragma once
// Device-to-host copies into ordinary (pageable) host memory at the rate of pinned memory: the
// copy engine fills one of two pinned staging chunks while several host threads empty the other.
// A plain cudaMemcpy into pageable memory is staged by the driver through a small bounce buffer on
// the calling thread, and into freshly allocated memory it also meets a page fault every 4 KiB.
// Copies of at most one chunk go the plain way: pinning the chunks would cost more than it saves.
#include <cstddef>
#include <vector>

#include "common/page_population.hpp"
#include "gpu/device_stream.hpp"
#include "gpu/pinned_buffer.hpp"

namespace subscale::gpu {

class StagedDownloader {
 public:
  // chunk_bytes: the size of each of the two staging chunks (rounded up to 4 KiB), pinned on the
  // first download that needs them and kept for the next.
  explicit StagedDownloader(std::size_t chunk_bytes = std::size_t{32} << 20);

  // Copies `bytes` from `device` to `host`; returns when they are there. Work that writes the
  // device range must have finished (the copies run on a stream of their own).
  void download(void* host, const void* device, std::size_t bytes);

  // `count` elements from `device` in a new vector whose pages all threads populated first.
  template <class T>
  std::vector<T> download_vector(const T* device, std::size_t count) {
    std::vector<T> host;
    resize_populated(host, count);
    download(host.data(), device, count * sizeof(T));
    return host;
  }

 private:
  std::size_t chunk_bytes_;
  PinnedBuffer<unsigned char> staging_[2];
  DeviceStream stream_;
};

}  // namespace subscale::gpu
