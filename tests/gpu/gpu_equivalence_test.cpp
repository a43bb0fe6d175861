// The GPU backend writes the same subspaces as the CPU backend, bit for bit, under every
// partitioning, scheme and signature width; a partition that overflows the device table is
// split and redone. Skips where no CUDA device is usable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "gpu/device_info.hpp"
#include "stages/core/core.hpp"
#include "stages/load/load.hpp"
#include "stages/load/normalize.hpp"
#include "stages/subspaces/subspaces.hpp"
#include "tests/core/core_params.hpp"
#include "tests/core/core_test_data.hpp"
#include "tests/skip_without_gpu.hpp"

namespace subscale {
namespace {

constexpr std::uint64_t kGpuEquivalenceSeed = 7;  // the signature keys' seed

std::string subspaces_with(const Matrix& values, CoreParams params, Backend backend) {
  params.backend = backend;
  return subspaces_text(core::run_core(values, params).subspaces);
}

TEST(GpuEquivalence, GeneratedDataWithTiesUnderEveryVariant) {
  SKIP_WITHOUT_GPU();
  struct Variant {
    std::uint32_t bits;
    KeyScheme keys;
    PartitionScheme scheme;
    std::size_t partitions;
  };
  const std::vector<Variant> variants = {
      {128, KeyScheme::uniform, PartitionScheme::adaptive, 0},  {128, KeyScheme::uniform, PartitionScheme::adaptive, 7},
      {128, KeyScheme::uniform, PartitionScheme::equal, 5},     {64, KeyScheme::uniform, PartitionScheme::adaptive, 3},
      {128, KeyScheme::subscale, PartitionScheme::adaptive, 6}, {128, KeyScheme::subscale, PartitionScheme::equal, 4}};
  for (std::uint64_t seed : {5u, 6u}) {
    const Matrix values = testing::tied_data(400, 8, seed, 150);
    for (std::uint32_t m : {3u, 4u, 5u}) {
      for (double eps : {0.02, 0.03}) {
        for (const auto& v : variants) {
          CoreParams params = testing::core_params(eps, m, TableMode::signature, kGpuEquivalenceSeed);
          params.units.signature_bits = v.bits;
          params.units.keys = v.keys;
          params.units.scheme = v.scheme;
          params.units.partitions = v.partitions;
          const std::string cpu = subspaces_with(values, params, Backend::cpu);
          ASSERT_FALSE(cpu.empty());
          EXPECT_EQ(subspaces_with(values, params, Backend::cuda), cpu)
              << "seed=" << seed << " m=" << m << " eps=" << eps << " bits=" << v.bits << " keys=" << to_string(v.keys)
              << " scheme=" << to_string(v.scheme) << " partitions=" << v.partitions;
        }
      }
    }
  }
}

TEST(GpuEquivalence, OverflowingPartitionIsSplitAndRedone) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(2000, 6, 9, 400);
  CoreParams params = testing::core_params(0.02, 4, TableMode::signature, kGpuEquivalenceSeed);
  const std::string cpu = subspaces_with(values, params, Backend::cpu);
  params.backend = Backend::cuda;
  params.units.partitions = 1;
  params.device_bytes = 72ull << 20;  // a table far smaller than the units of one partition
  const auto result = core::run_core(values, params);
  EXPECT_GT(result.total_units, 4ull << 20) << "the test needs more units than the small table holds";
  EXPECT_GT(result.dense_units.partition_splits, 0u);
  EXPECT_EQ(subspaces_text(result.subspaces), cpu);
}

// The device resolver's chunks, the accumulator's overflow to the host, and every walker run
// length leave the subspaces unchanged.
TEST(GpuEquivalence, ChunksOverflowAndRunLengths) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(1500, 8, 12, 400);
  CoreParams params = testing::core_params(0.02, 4, TableMode::signature, kGpuEquivalenceSeed);
  const std::string cpu = subspaces_with(values, params, Backend::cpu);
  ASSERT_FALSE(cpu.empty());
  struct Knobs {
    std::uint64_t chunk, subspace_capacity;
    std::uint32_t run, lanes;
    std::size_t partitions;
  };
  for (const Knobs& k :
       {Knobs{1, 0, 0, 0, 0}, Knobs{0, 3, 0, 0, 0}, Knobs{1, 5, 0, 0, 2}, Knobs{0, 0, 1, 1, 0}, Knobs{0, 0, 13, 1, 3},
        Knobs{0, 0, 4096, 1, 0}, Knobs{0, 0, 1, 32, 0}, Knobs{0, 0, 13, 32, 3}, Knobs{0, 0, 4096, 32, 0}}) {
    params.units.device_resolve_chunk = k.chunk;
    params.units.device_subspace_capacity = k.subspace_capacity;
    params.units.device_units_per_run = k.run;
    params.units.device_walk_lanes = k.lanes;
    params.units.partitions = k.partitions;
    params.backend = Backend::cuda;
    const auto result = core::run_core(values, params);
    EXPECT_EQ(subspaces_text(result.subspaces), cpu)
        << "chunk=" << k.chunk << " capacity=" << k.subspace_capacity << " run=" << k.run << " lanes=" << k.lanes
        << " partitions=" << k.partitions;
    if (k.subspace_capacity > 0) {  // a full table spills in one piece and starts again
      EXPECT_GE(result.dense_units.device_subspaces, result.subspaces.size());
      EXPECT_FALSE(result.dense_units.notes.empty());
    }
  }
}

// Data large enough for density1d on the GPU: the whole core through run_core equals the CPU's.
TEST(GpuEquivalence, LargeDataTakesDensity1dOnTheGpu) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(200000, 24, 17, 100000);
  ASSERT_GE(static_cast<std::uint64_t>(values.size()), core::kGpuDensityValues);
  CoreParams params = testing::core_params(0.00002, 3, TableMode::signature, kGpuEquivalenceSeed);
  params.backend = Backend::cpu;
  const auto cpu = core::run_core(values, params);
  EXPECT_FALSE(cpu.density1d_on_gpu);
  params.backend = Backend::cuda;
  const auto gpu = core::run_core(values, params);
  EXPECT_TRUE(gpu.density1d_on_gpu);
  EXPECT_GT(gpu.total_units, 0u);
  EXPECT_EQ(gpu.total_units, cpu.total_units);
  EXPECT_EQ(subspaces_text(gpu.subspaces), subspaces_text(cpu.subspaces));
}

// Small enough for compute-sanitizer: 233 K units against a table of 65536 slots forces a few
// splits and redos, and a few partitions and both widths cover the ordinary path.
TEST(GpuEquivalence, SanitizerSized) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(300, 6, 4, 150);
  CoreParams params = testing::core_params(0.03, 4, TableMode::signature, kGpuEquivalenceSeed);
  const std::string cpu = subspaces_with(values, params, Backend::cpu);
  ASSERT_FALSE(cpu.empty());
  params.units.partitions = 3;
  EXPECT_EQ(subspaces_with(values, params, Backend::cuda), cpu);
  params.units.signature_bits = 64;
  EXPECT_EQ(subspaces_with(values, params, Backend::cuda), cpu);
  params.units.device_resolve_chunk = 1;  // the smallest chunk
  params.units.device_subspace_capacity = 4;
  params.units.device_walk_lanes = 32;
  EXPECT_EQ(subspaces_with(values, params, Backend::cuda), cpu);
  params.units.device_resolve_chunk = 0;
  params.units.device_subspace_capacity = 0;
  params.units.device_walk_lanes = 0;
  params.units.partitions = 1;
  params.units.device_table_slots = 65536;
  params.backend = Backend::cuda;
  const auto result = core::run_core(values, params);
  EXPECT_GT(result.total_units, 65536u);
  EXPECT_GT(result.dense_units.partition_splits, 0u);
  EXPECT_EQ(subspaces_text(result.subspaces), cpu);
}

TEST(GpuEquivalence, OpenSubspaceFiles) {
  SKIP_WITHOUT_GPU();
  const char* shared = std::getenv("SUBSCALE_SHARED_DIR");
  const std::filesystem::path folder = std::filesystem::path(shared ? shared : "") / "datasets" / "opensubspace";
  if (!shared || !std::filesystem::exists(folder)) GTEST_SKIP() << "OpenSubspace files not found under " << folder;
  struct Case {
    const char* file;
    std::uint32_t m;
    double eps;
  };
  // 33 M, 110 M, 160 M, 40 M and 5 M dense units.
  for (const Case& c : {Case{"synth_dbsizescale/S1500.arff", 3, 0.01}, Case{"synth_dbsizescale/S1500.arff", 4, 0.005},
                        Case{"synth_dbsizescale/S1500.arff", 5, 0.003}, Case{"synth_dimscale/D05.arff", 4, 0.005},
                        Case{"synth_noisescale/N70.arff", 4, 0.001}}) {
    load::LoadOptions options;
    options.path = (folder / c.file).string();
    Dataset data = load::load_dataset(options);
    load::normalize(data, load::Normalization::minmax);
    for (std::size_t partitions : {std::size_t{0}, std::size_t{6}}) {
      CoreParams params = testing::core_params(c.eps, c.m, TableMode::signature, kGpuEquivalenceSeed);
      params.units.partitions = partitions;
      EXPECT_EQ(subspaces_with(data.values, params, Backend::cuda), subspaces_with(data.values, params, Backend::cpu))
          << c.file << " m=" << c.m << " eps=" << c.eps << " partitions=" << partitions;
    }
  }
}

}  // namespace
}  // namespace subscale
