// The GPU backend gives the CPU backend's bits for every function, hash width and row width,
// including row counts that leave partial vectors and unaligned device pointers (skipped
// without a GPU).
#include <gtest/gtest.h>

#include <vector>

#include "datasets/generators/hash_input_generator.hpp"
#include "gpu/device_info.hpp"
#include "stages/hash/hash_rows.hpp"
#include "tests/skip_without_gpu.hpp"
#if defined(SUBSCALE_WITH_CUDA)
#include "gpu/device_buffer.hpp"
#include "gpu/device_stream.hpp"
#include "stages/hash/hash_rows_cuda.cuh"
#endif

namespace subscale::hash {

#if defined(SUBSCALE_WITH_CUDA)
using gpu::DeviceBuffer;
using gpu::DeviceStream;
#endif

namespace {

template <class H>
void expect_gpu_equals_cpu(const HashSpec& spec, const RowTableView& table, const std::string& what) {
  std::vector<H> cpu(table.rows);
  std::vector<H> gpu(table.rows, 0xABABABABu);
  hash_rows<H>(spec, table, cpu, Backend::cpu);
  hash_rows<H>(spec, table, gpu, Backend::cuda);
  for (std::size_t r = 0; r < table.rows; ++r)
    ASSERT_EQ(gpu[r], cpu[r]) << what << " bits=" << sizeof(H) * 8 << " row " << r;
}

TEST(HashRowsGpu, EqualsCpuForEveryFunction) {
  SKIP_WITHOUT_GPU();
  for (int k : {1, 2, 3, 4, 8, 16, 6}) {
    // 4099: partial last vectors; 3 M one-word rows: enough for the kernels' full loop steps.
    for (std::size_t rows : {std::size_t{1}, std::size_t{4099}, std::size_t{k == 1 ? 3u << 20 : 1}}) {
      const auto words = generate_rows({InputDistribution::normal, rows, k, 9});
      const RowTableView table{words.data(), rows, k};
      for (const auto& name : hash_function_names()) {
        const auto spec = parse_hash_spec(name, 3);
        const std::string what = name + " k=" + std::to_string(k) + " rows=" + std::to_string(rows);
        expect_gpu_equals_cpu<std::uint32_t>(spec, table, what);
        expect_gpu_equals_cpu<std::uint64_t>(spec, table, what);
      }
    }
  }
}

#if defined(SUBSCALE_WITH_CUDA)
TEST(HashRowsGpu, UnalignedDevicePointersTakeTheWordPath) {
  SKIP_WITHOUT_GPU();
  const std::size_t rows = 1000;
  const int k = 4;
  const auto words = generate_rows({InputDistribution::uniform, rows + 1, k, 3});
  const HashSpec spec{HashFunction::xor_hw, 1};
  std::vector<std::uint64_t> cpu(rows);
  hash_rows<std::uint64_t>(spec, RowTableView{words.data() + 1, rows, k}, cpu, Backend::cpu);
  DeviceBuffer<std::uint32_t> d_words(words.size());
  DeviceBuffer<std::uint64_t> d_out(rows + 1);
  SUBSCALE_CUDA_CHECK(cudaMemcpy(d_words.data(), words.data(), words.size() * 4, cudaMemcpyHostToDevice));
  // words + 1 is 4-byte aligned only; out + 1 is 8-byte aligned only.
  hash_rows_device<std::uint64_t>(spec, d_words.data() + 1, rows, k, d_out.data() + 1, nullptr);
  std::vector<std::uint64_t> gpu(rows);
  SUBSCALE_CUDA_CHECK(cudaMemcpy(gpu.data(), d_out.data() + 1, rows * 8, cudaMemcpyDeviceToHost));
  EXPECT_EQ(gpu, cpu);
}
#endif

}  // namespace
}  // namespace subscale::hash
