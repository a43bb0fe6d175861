#include <cuda_runtime.h>

#include <algorithm>

#include "gpu/cuda_check.hpp"
#include "gpu/staged_download.hpp"
#include "stages/dense_units/device_direct_accumulator.cuh"

namespace subscale::gpu_direct {

DeviceDirectAccumulator::DeviceDirectAccumulator(std::uint32_t entry_capacity, std::uint32_t key_words,
                                                 std::uint32_t point_words)
    : slots_(std::size_t{entry_capacity} * 2),
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
  SUBSCALE_CUDA_CHECK(cudaMemset(slots_.data(), 0, slots_.bytes()));
  SUBSCALE_CUDA_CHECK(cudaMemset(bitmaps_.data(), 0, bitmaps_.bytes()));
  SUBSCALE_CUDA_CHECK(cudaMemset(counters_.data(), 0, counters_.bytes()));
}

std::uint32_t DeviceDirectAccumulator::entries() const {
  const auto counters = counters_.to_host(1);
  return std::min(counters[0], view_.entry_capacity);
}

bool DeviceDirectAccumulator::overflowed() const { return counters_.to_host(2)[1] != 0; }

void DeviceDirectAccumulator::spill_into(direct::DirectSubspaceMap& host) {
  const std::uint32_t count = entries();
  if (count > 0) {
    // Through pinned chunks into memory populated by all threads: a cluster run's whole table
    // (gigabytes) comes here once its walk ends.
    gpu::StagedDownloader downloader;
    host.add_distinct(downloader.download_vector(keys_.data(), std::size_t{count} * view_.key_words),
                      downloader.download_vector(bitmaps_.data(), std::size_t{count} * view_.point_words));
    spilled_ += count;
    SUBSCALE_CUDA_CHECK(cudaMemset(bitmaps_.data(), 0, std::size_t{count} * view_.point_words * 8));
  }
  SUBSCALE_CUDA_CHECK(cudaMemset(slots_.data(), 0, slots_.bytes()));
  SUBSCALE_CUDA_CHECK(cudaMemset(counters_.data(), 0, counters_.bytes()));
}

}  // namespace subscale::gpu_direct
