// The CPU backend of the hash stage against hashing each row by itself, and its bad-input errors.
#include "stages/hash/hash_rows.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "datasets/generators/hash_input_generator.hpp"
#include "gpu/device_info.hpp"

namespace subscale::hash {
namespace {

TEST(HashRowsCpu, EqualsRowByRowForEveryFunctionAndWidth) {
  for (int k : {1, 2, 3, 4, 5, 8, 16}) {
    const auto words = generate_rows({InputDistribution::uniform, 5003, k, 42});
    const RowTableView table{words.data(), 5003, k};
    for (const auto& name : hash_function_names()) {
      const auto spec = parse_hash_spec(name, 3);
      std::vector<std::uint32_t> out32(table.rows);
      std::vector<std::uint64_t> out64(table.rows);
      hash_rows<std::uint32_t>(spec, table, out32, Backend::cpu);
      hash_rows<std::uint64_t>(spec, table, out64, Backend::cpu);
      for (std::size_t r = 0; r < table.rows; r += 97) {
        ASSERT_EQ(out32[r], hash_words<std::uint32_t>(spec.function, table.row(r), k, spec.rounds))
            << name << " k=" << k << " row " << r;
        ASSERT_EQ(out64[r], hash_words<std::uint64_t>(spec.function, table.row(r), k, spec.rounds))
            << name << " k=" << k << " row " << r;
      }
    }
  }
}

TEST(HashRowsCpu, EmptyTableIsFine) {
  std::vector<std::uint64_t> out;
  hash_rows<std::uint64_t>({}, RowTableView{nullptr, 0, 4}, out, Backend::cpu);
  EXPECT_TRUE(out.empty());
}

TEST(HashRowsCpu, BadArgumentsAreRefused) {
  std::vector<std::uint32_t> words(8, 1);
  std::vector<std::uint64_t> out(4);
  EXPECT_THROW(hash_rows<std::uint64_t>({}, RowTableView{words.data(), 4, 0}, out, Backend::cpu), UsageError);
  EXPECT_THROW(hash_rows<std::uint64_t>({}, RowTableView{words.data(), 3, 2}, out, Backend::cpu), UsageError);
  EXPECT_THROW(hash_rows<std::uint64_t>({}, RowTableView{nullptr, 4, 2}, out, Backend::cpu), UsageError);
  EXPECT_THROW(hash_rows<std::uint64_t>({HashFunction::xor_, 0}, RowTableView{words.data(), 4, 2}, out, Backend::cpu),
               UsageError);
}

TEST(HashRows, CudaWithoutDeviceIsAClearResourceError) {
  const auto device = gpu::query_device();
  if (device.available) GTEST_SKIP() << "a CUDA device is present; the error path needs none";
  std::vector<std::uint32_t> words(8, 1);
  std::vector<std::uint64_t> out(4);
  try {
    hash_rows<std::uint64_t>({}, RowTableView{words.data(), 4, 2}, out, Backend::cuda);
    FAIL() << "no error";
  } catch (const ResourceError& e) {
    EXPECT_NE(std::string(e.what()).find("backend=cpu"), std::string::npos) << e.what();
  }
}

TEST(Backend, ParsesNames) {
  EXPECT_EQ(parse_backend("cpu"), Backend::cpu);
  EXPECT_EQ(parse_backend("cuda"), Backend::cuda);
  EXPECT_THROW(parse_backend("tpu"), UsageError);
}

}  // namespace
}  // namespace subscale::hash
