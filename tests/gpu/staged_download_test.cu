// Staged downloads give the device's bytes exactly, for sizes below, at and across the chunk size
// (the plain copy, and both staging chunks reused several times), and into vectors of words.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpu/device_buffer.hpp"
#include "gpu/device_info.hpp"
#include "gpu/staged_download.hpp"

namespace subscale {
namespace {

TEST(StagedDownload, GivesTheDevicesBytes) {
  const auto device = gpu::query_device();
  if (!device.available) GTEST_SKIP() << "no CUDA device: " << device.reason;
  std::mt19937_64 random(5);
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4095}, std::size_t{4096}, std::size_t{7 * 4096 + 13}}) {
    std::vector<unsigned char> source(bytes);
    for (unsigned char& byte : source) byte = static_cast<unsigned char>(random());
    const auto on_device = gpu::DeviceBuffer<unsigned char>::from_host(source);
    SUBSCALE_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> back(bytes, 0);
    gpu::StagedDownloader(4096).download(back.data(), on_device.data(), bytes);
    EXPECT_EQ(back, source) << bytes << " bytes";
  }
  std::vector<std::uint64_t> words(100'003);
  for (std::uint64_t& word : words) word = random();
  const auto on_device = gpu::DeviceBuffer<std::uint64_t>::from_host(words);
  SUBSCALE_CUDA_CHECK(cudaDeviceSynchronize());
  gpu::StagedDownloader downloader(8192);  // one pair of chunks for both downloads
  EXPECT_EQ(downloader.download_vector(on_device.data(), words.size()), words);
  EXPECT_EQ(downloader.download_vector(on_device.data() + 1, 1000),
            std::vector<std::uint64_t>(words.begin() + 1, words.begin() + 1001));
  EXPECT_TRUE(downloader.download_vector(on_device.data(), 0).empty());
}

}  // namespace
}  // namespace subscale
