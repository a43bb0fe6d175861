#include <algorithm>

#include "gpu/parallel_copy.hpp"
#include "gpu/staged_upload.hpp"

namespace subscale::gpu {

StagedUploader::StagedUploader(std::size_t chunk_bytes)
    : chunk_bytes_((std::max<std::size_t>(chunk_bytes, 1) + 4095) / 4096 * 4096),
      staging_{PinnedBuffer<unsigned char>(chunk_bytes_), PinnedBuffer<unsigned char>(chunk_bytes_)} {
  for (cudaEvent_t& event : sent_) SUBSCALE_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  SUBSCALE_CUDA_CHECK(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming));
}

StagedUploader::~StagedUploader() {
  cudaStreamSynchronize(stream_.get());  // the staging chunks must outlive the copies out of them
  for (cudaEvent_t event : sent_) cudaEventDestroy(event);
  cudaEventDestroy(done_);
}

void StagedUploader::upload(void* device, const void* host, std::size_t bytes) {
  auto* to = static_cast<unsigned char*>(device);
  const auto* from = static_cast<const unsigned char*>(host);
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t size = std::min(chunk_bytes_, bytes - done);
    // Wait until the copy engine has emptied this chunk (queued two chunks ago), then refill it
    // while it sends the other.
    SUBSCALE_CUDA_CHECK(cudaEventSynchronize(sent_[next_]));
    parallel_copy(staging_[next_].data(), from + done, size);
    SUBSCALE_CUDA_CHECK(
        cudaMemcpyAsync(to + done, staging_[next_].data(), size, cudaMemcpyHostToDevice, stream_.get()));
    SUBSCALE_CUDA_CHECK(cudaEventRecord(sent_[next_], stream_.get()));
    next_ ^= 1;
    done += size;
  }
}

cudaEvent_t StagedUploader::record() {
  SUBSCALE_CUDA_CHECK(cudaEventRecord(done_, stream_.get()));
  return done_;
}

void StagedUploader::synchronize() { SUBSCALE_CUDA_CHECK(cudaStreamSynchronize(stream_.get())); }

}  // namespace subscale::gpu
