#include <cuda_runtime.h>

#include <algorithm>

#include "gpu/cuda_check.hpp"
#include "gpu/staged_download.hpp"
#include "stages/dense_units/direct/direct_accumulator_cuda.cuh"

namespace subscale::dense_units::direct {

DeviceDirectAccumulator::DeviceDirectAccumulator(std::uint32_t entry_capacity, std::uint32_t key_words,
                                                 std::uint32_t point_words, cudaStream_t stream)
    : stream_(stream),
      slots_(std::size_t{entry_capacity} * 2),
      keys_(std::size_t{entry_capacity} * key_words),
      bitmaps_(std::size_t{entry_capacity} * point_words),
      counters_(2) {
  view_.slots = slots_.data();
  view_.keys = keys_.data();
  view_.bitmaps = bitmaps_.data();
  view_.entry_count = counters_.data();
  view_.overflow = counters_.data() + 1;
  view_.slot_count = slots_.size();
  view_.entry_capacity = entry_capacity;
  view_.key_words = key_words;
  view_.point_words = point_words;
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(slots_.data(), 0, slots_.bytes(), stream_));
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(bitmaps_.data(), 0, bitmaps_.bytes(), stream_));
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, counters_.bytes(), stream_));
}

std::uint32_t DeviceDirectAccumulator::entries() const {
  const auto counters = counters_.to_host(1, stream_);
  return std::min(counters[0], view_.entry_capacity);
}

bool DeviceDirectAccumulator::overflowed() const { return counters_.to_host(2, stream_)[1] != 0; }

void DeviceDirectAccumulator::spill_into(dense_units::direct::DirectSubspaceMap& host) {
  const std::uint32_t count = entries();
  if (count > 0) {
    // Through pinned chunks into memory populated by all threads: a cluster run's whole table
    // (gigabytes) comes here once its walk ends. entries() synchronised the stream, so the
    // downloader's own stream reads the finished table.
    gpu::StagedDownloader downloader;
    host.add_distinct(downloader.download_vector(keys_.data(), std::size_t{count} * view_.key_words),
                      downloader.download_vector(bitmaps_.data(), std::size_t{count} * view_.point_words));
    spilled_ += count;
    SUBSCALE_CUDA_CHECK(cudaMemsetAsync(bitmaps_.data(), 0, std::size_t{count} * view_.point_words * 8, stream_));
  }
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(slots_.data(), 0, slots_.bytes(), stream_));
  SUBSCALE_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, counters_.bytes(), stream_));
}

}  // namespace subscale::dense_units::direct
