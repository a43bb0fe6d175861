#include <cuda_runtime.h>

#include <algorithm>

#include "gpu/cuda_check.hpp"
#include "gpu/parallel_copy.hpp"
#include "gpu/staged_download.hpp"

namespace subscale::gpu {
namespace {

// Two events, destroyed however the copy ends.
struct ArrivalEvents {
  cudaEvent_t events[2]{};
  ArrivalEvents() {
    for (cudaEvent_t& event : events) SUBSCALE_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  }
  ArrivalEvents(const ArrivalEvents&) = delete;
  ArrivalEvents& operator=(const ArrivalEvents&) = delete;
  ~ArrivalEvents() {
    for (cudaEvent_t event : events)
      if (event) cudaEventDestroy(event);
  }
};

}  // namespace

StagedDownloader::StagedDownloader(std::size_t chunk_bytes)
    : chunk_bytes_((std::max<std::size_t>(chunk_bytes, 1) + 4095) / 4096 * 4096) {}

void StagedDownloader::download(void* host, const void* device, std::size_t bytes) {
  if (bytes == 0) return;
  if (bytes <= chunk_bytes_) {
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream_.get()));
    SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return;
  }
  for (PinnedBuffer<unsigned char>& chunk : staging_)
    if (chunk.size() == 0) chunk = PinnedBuffer<unsigned char>(chunk_bytes_);
  ArrivalEvents arrived;
  auto* to = static_cast<unsigned char*>(host);
  const auto* from = static_cast<const unsigned char*>(device);
  const auto queue = [&](std::size_t at, int slot) {
    SUBSCALE_CUDA_CHECK(cudaMemcpyAsync(staging_[slot].data(), from + at, std::min(chunk_bytes_, bytes - at),
                                        cudaMemcpyDeviceToHost, stream_.get()));
    SUBSCALE_CUDA_CHECK(cudaEventRecord(arrived.events[slot], stream_.get()));
  };
  queue(0, 0);
  int slot = 0;
  for (std::size_t at = 0; at < bytes; at += chunk_bytes_, slot ^= 1) {
    // The other chunk was emptied in the previous round, so the engine may refill it meanwhile.
    if (at + chunk_bytes_ < bytes) queue(at + chunk_bytes_, slot ^ 1);
    SUBSCALE_CUDA_CHECK(cudaEventSynchronize(arrived.events[slot]));
    parallel_copy(to + at, staging_[slot].data(), std::min(chunk_bytes_, bytes - at));
  }
}

}  // namespace subscale::gpu
