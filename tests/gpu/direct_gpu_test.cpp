// Direct mode on the GPU equals direct mode on the CPU bit for bit (subspaces, units in two or
// more dimensions, nodes walked): tied data for m 2 to 6, tie dimensions (integer levels whose
// step exceeds epsilon), more than 64 dimensions, windows of thousands of tied points, a device
// subspace table small enough to overflow (batches walked again, single items walked on the
// host), one-word masks with the device pair table and without, and the OpenSubspace files where
// present. Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "common/error.hpp"
#include "gpu/device_info.hpp"
#include "stages/core/core.hpp"
#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/load/load.hpp"
#include "stages/load/normalize.hpp"
#include "stages/subspaces/subspaces.hpp"
#include "tests/core/core_params.hpp"
#include "tests/core/core_test_data.hpp"
#include "tests/skip_without_gpu.hpp"

namespace subscale {
namespace {

template <class T>
void expect_gpu_equals_cpu(const ColumnMatrix<T>& values, CoreParams params, const std::string& what,
                           bool expect_subspaces = true) {
  // Both walk every unit (direct.count_units), so that counts and nodes compare too; walks that
  // pass over covered subtrees must give the same subspaces.
  params.backend = Backend::cpu;
  const CoreResult cpu = core::run_core(values, testing::counting(params));
  const CoreResult cpu_skipping = core::run_core(values, params);
  params.backend = Backend::cuda;
  // Counting, the GPU cuts the windows into the CPU's items (its own are larger), so that nodes compare.
  CoreParams same_items = testing::counting(params);
  if (same_items.units.device_units_per_run == 0)
    same_items.units.device_units_per_run = static_cast<std::uint32_t>(kDirectUnitsPerItem);
  const CoreResult gpu = core::run_core(values, same_items);
  const CoreResult gpu_skipping = core::run_core(values, params);
  if (expect_subspaces) {
    EXPECT_FALSE(cpu.subspaces.empty()) << what;
  }
  EXPECT_EQ(subspaces_text(gpu.subspaces), subspaces_text(cpu.subspaces)) << what;
  EXPECT_EQ(subspaces_text(cpu_skipping.subspaces), subspaces_text(cpu.subspaces)) << what;
  EXPECT_EQ(subspaces_text(gpu_skipping.subspaces), subspaces_text(cpu.subspaces)) << what;
  EXPECT_LE(gpu_skipping.dense_units.walk_nodes, gpu.dense_units.walk_nodes) << what;
  EXPECT_EQ(gpu.dense_units.distinct_multi_units, cpu.dense_units.distinct_multi_units) << what;
  if (params.units.device_units_per_run == 0) {  // the same items, so the same nodes
    EXPECT_EQ(gpu.dense_units.walk_items, cpu.dense_units.walk_items) << what;
    EXPECT_EQ(gpu.dense_units.walk_nodes, cpu.dense_units.walk_nodes) << what;
  }
}

TEST(DirectGpu, TiedDataForEveryMinPoints) {
  SKIP_WITHOUT_GPU();
  for (std::uint64_t seed : {5u, 6u}) {
    const Matrix values = testing::tied_data(400, 8, seed, 150);
    for (std::uint32_t m : {2u, 3u, 4u, 5u, 6u})
      for (double eps : {0.02, 0.04})
        expect_gpu_equals_cpu(
            values, testing::core_params(eps, m, TableMode::direct),
            "seed=" + std::to_string(seed) + " m=" + std::to_string(m) + " eps=" + std::to_string(eps));
  }
}

// Integer levels: values k / levels (k = 0 .. levels), the even dimensions with about half of the
// points on level 0 (windows of many tied points); with epsilon below 1 / levels every dimension is
// a tie dimension. The last `fine` dimensions take a grid of 200 instead (not tie dimensions at an
// epsilon of 1 / 200 or more).
Matrix level_data(std::uint32_t n, std::uint32_t d, std::uint64_t seed, std::uint32_t levels, std::uint32_t fine = 0) {
  std::mt19937_64 rng(seed);
  Matrix values(n, d);
  for (std::uint32_t j = 0; j < d; ++j) {
    const std::uint32_t grid = j + fine >= d ? 200 : levels;
    for (std::uint32_t i = 0; i < n; ++i) {
      const bool skewed = j % 2 == 0 && grid == levels && rng() % 2 == 0;
      values(i, j) = skewed ? 0.0 : static_cast<double>(rng() % (grid + 1)) / grid;
    }
  }
  return values;
}

// Prefixes whose live dimensions are all tie dimensions walk their leaves from the candidates'
// columns and gather units in the warps' slots: one-, two- and three-word masks, m 3 to 5, tie and
// other dimensions mixed, items of a few units, a table small enough to overflow, float32.
TEST(DirectGpu, TieDimensionsWalkedByColumns) {
  SKIP_WITHOUT_GPU();
  for (std::uint32_t d : {20u, 70u, 130u})
    for (std::uint32_t m : {3u, 4u, 5u}) {
      const std::string what = "d=" + std::to_string(d) + " m=" + std::to_string(m);
      const std::uint32_t n = m == 5 ? 80 : 110;
      expect_gpu_equals_cpu(level_data(n, d, d + m, 8), testing::core_params(0.1, m, TableMode::direct),
                            "all tie dimensions, " + what);
      expect_gpu_equals_cpu(level_data(n, d, d + m, 8, d / 3), testing::core_params(0.1, m, TableMode::direct),
                            "a third not tie, " + what);
    }
  const Matrix values = level_data(60, 70, 3, 8);
  CoreParams params = testing::core_params(0.1, 4, TableMode::direct);
  params.units.device_units_per_run = 40;
  expect_gpu_equals_cpu(values, params, "small items");
  // Items of thousands of units and a table of 64 subspaces: batches overflow and are walked again,
  // items that overflow an empty table are walked on the host.
  params.units.device_units_per_run = 0;
  params.units.device_subspace_capacity = 64;
  expect_gpu_equals_cpu(values, params, "small table");
  const Matrix32 values32 = level_data(110, 70, 3, 8).cast<float>();
  expect_gpu_equals_cpu(values32, testing::core_params(0.1, 4, TableMode::direct), "float32");
}

TEST(DirectGpu, MoreThan64Dimensions) {
  SKIP_WITHOUT_GPU();
  for (std::uint32_t d : {65u, 130u, 200u})
    expect_gpu_equals_cpu(testing::tied_data(150, d, 9, 12), testing::core_params(0.09, 3, TableMode::direct),
                          "d=" + std::to_string(d));
}

TEST(DirectGpu, WindowsOfThousandsOfTiedPoints) {
  SKIP_WITHOUT_GPU();
  // Five values a dimension: windows of about 1000 tied points, cut into many items each.
  const Matrix values = testing::tied_data(5000, 4, 3, 4);
  CoreParams params = testing::core_params(0.1, 3, TableMode::direct);
  expect_gpu_equals_cpu(values, params, "grid of 5");
}

TEST(DirectGpu, SmallDeviceTableSpillsAndRedoes) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(150, 70, 21, 20);
  struct Knobs {
    std::uint64_t capacity;
    std::uint32_t per_item;
  };
  // One entry: nearly every item overflows an empty table and is walked on the host. 64 entries
  // and items of 5 units: batches overflow, are halved and walked again.
  for (const Knobs& knobs : {Knobs{1, 0}, Knobs{64, 5}}) {
    CoreParams params = testing::core_params(0.06, 3, TableMode::direct);
    params.units.device_subspace_capacity = knobs.capacity;
    params.units.device_units_per_run = knobs.per_item;
    params.backend = Backend::cuda;
    const CoreResult gpu = core::run_core(values, testing::counting(params));
    const CoreResult gpu_skipping = core::run_core(values, params);
    params.backend = Backend::cpu;
    params.units.device_units_per_run = 0;
    const CoreResult cpu = core::run_core(values, testing::counting(params));
    const std::string what =
        "capacity=" + std::to_string(knobs.capacity) + " per_item=" + std::to_string(knobs.per_item);
    ASSERT_GT(cpu.subspaces.size(), 2 * knobs.capacity) << what;
    EXPECT_EQ(subspaces_text(gpu.subspaces), subspaces_text(cpu.subspaces)) << what;
    EXPECT_EQ(gpu.dense_units.distinct_multi_units, cpu.dense_units.distinct_multi_units) << what;
    EXPECT_EQ(subspaces_text(gpu_skipping.subspaces), subspaces_text(cpu.subspaces)) << what;
    EXPECT_FALSE(gpu.dense_units.notes.empty()) << "the table should have overflowed: " << what;
  }
}

// Subspaces spilled from the device that would outgrow the host's memory stop the stage with a
// resource error (exit 4) that says why and what to do, before the system kills the process.
TEST(DirectGpu, SpillBeyondHostMemoryIsAResourceError) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(150, 70, 21, 20);
  CoreParams params = testing::core_params(0.06, 3, TableMode::direct);
  params.backend = Backend::cuda;
  params.units.device_subspace_capacity = 64;  // spills early and often
  params.units.host_map_bytes = 4096;          // room for a few dozen bitmaps
  try {
    core::run_core(values, params);
    FAIL() << "no error";
  } catch (const ResourceError& error) {
    EXPECT_NE(std::string(error.what()).find("more distinct subspaces than one machine's memory holds"),
              std::string::npos)
        << error.what();
  }
  params.units.host_map_bytes = std::uint64_t{1} << 30;  // ample: the same result as the CPU's
  expect_gpu_equals_cpu(values, params, "spills within the host limit");
}

// Small enough for compute-sanitizer's memcheck and racecheck.
// The device's covering test passes over subtrees, as the host's does, and the subspaces stay the
// CPU's; with direct.count_units it passes over none.
TEST(DirectGpu, PassesOverCoveredSubtrees) {
  SKIP_WITHOUT_GPU();
  struct Case {
    Matrix values;
    double eps;
    std::uint32_t m;
    const char* what;
  };
  for (const Case& c : {Case{testing::tied_data(220, 8, 3, 60), 0.04, 4, "one word, m=4"},
                        Case{testing::tied_data(220, 8, 4, 60), 0.04, 5, "one word, m=5"},
                        Case{testing::mixed_tie_data(180, 70, 5), 0.02, 4, "two words"}}) {
    CoreParams params = testing::core_params(c.eps, c.m, TableMode::direct);
    params.backend = Backend::cpu;
    const CoreResult cpu = core::run_core(c.values, testing::counting(params));
    params.backend = Backend::cuda;
    const CoreResult skipping = core::run_core(c.values, params);
    const CoreResult counting = core::run_core(c.values, testing::counting(params));
    EXPECT_EQ(subspaces_text(skipping.subspaces), subspaces_text(cpu.subspaces)) << c.what;
    EXPECT_GT(skipping.dense_units.walk_covered, 0u) << c.what;
    EXPECT_FALSE(skipping.dense_units.multi_units_counted) << c.what;
    EXPECT_LT(skipping.dense_units.walk_nodes, counting.dense_units.walk_nodes) << c.what;
    EXPECT_EQ(counting.dense_units.walk_covered, 0u) << c.what;
    EXPECT_TRUE(counting.dense_units.multi_units_counted) << c.what;
  }
}

TEST(DirectGpu, SanitizerSized) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(80, 70, 4, 30);
  CoreParams params = testing::core_params(0.05, 3, TableMode::direct);
  expect_gpu_equals_cpu(values, params, "plain");
  params.units.device_list_chunk_ids = 7;  // the hand-over in many chunks, some of a single subspace
  expect_gpu_equals_cpu(values, params, "small hand-over chunks");
  params.units.device_list_chunk_ids = 0;
  params.units.device_subspace_capacity = 16;
  params.units.device_units_per_run = 40;
  expect_gpu_equals_cpu(values, params, "small table, small items");
  // Masks of one word: the warps' shared leaf test and emits (and their overflow of a small table).
  const Matrix narrow = testing::tied_data(90, 20, 5, 25);
  params = testing::core_params(0.05, 4, TableMode::direct);
  params.units.device_pair_table_bytes = std::uint64_t{1} << 30;  // leaves from the device pair table
  expect_gpu_equals_cpu(narrow, params, "one-word masks, pair table");
  params.units.device_pair_table_bytes = 1;  // leaves from values
  params.units.device_subspace_capacity = 16;
  params.units.device_units_per_run = 40;
  expect_gpu_equals_cpu(narrow, params, "one-word masks, values, small table");
  // The same kernels instantiated for values held as float32.
  const Matrix32 narrow32 = narrow.cast<float>();
  expect_gpu_equals_cpu(narrow32, params, "float32, one-word masks, small table");
  params = testing::core_params(0.05, 3, TableMode::direct);
  const Matrix32 wide32 = values.cast<float>();
  expect_gpu_equals_cpu(wide32, params, "float32, two-word masks");
}

// The device pair table (masks of one word): prefixes and leaves from its words instead of values,
// the same subspaces, units and nodes as the CPU and as the device reading values.
TEST(DirectGpu, PairTableGivesTheSameWalk) {
  SKIP_WITHOUT_GPU();
  const Matrix values = testing::tied_data(90, 20, 5, 25);
  for (const std::uint32_t m : {2u, 3u, 4u, 5u}) {
    CoreParams params = testing::core_params(0.05, m, TableMode::direct);
    params.backend = Backend::cuda;
    for (const std::uint64_t bytes : {std::uint64_t{1} << 30, std::uint64_t{1}}) {
      params.units.device_pair_table_bytes = bytes;
      const std::string what = "m=" + std::to_string(m) + (bytes == 1 ? ", values" : ", pair table");
      const CoreResult gpu = core::run_core(values, params);
      EXPECT_EQ(gpu.dense_units.device_pair_table_bytes, bytes == 1 ? 0u : 90u * 90u * 4u) << what;  // 20 dimensions
      expect_gpu_equals_cpu(values, params, what, m > 2);
    }
  }
  CoreParams params = testing::core_params(0.05, 4, TableMode::direct);
  params.units.device_pair_table_bytes = std::uint64_t{1} << 30;
  const Matrix32 values32 = values.cast<float>();
  expect_gpu_equals_cpu(values32, params, "float32, pair table");
  // Table words of 2 bytes (at most 16 dimensions) and of 8 (more than 32, one mask word).
  expect_gpu_equals_cpu(Matrix(testing::tied_data(90, 12, 5, 25)), params, "12 dimensions, pair table");
  expect_gpu_equals_cpu(Matrix(testing::tied_data(90, 40, 5, 25)), params, "40 dimensions, pair table");
  params.units.device_subspace_capacity = 16;
  params.units.device_units_per_run = 40;
  expect_gpu_equals_cpu(values, params, "pair table, small table, small items");
}

// SanitizerSized's tie dimensions, in a test of their own so that each stays within a
// sanitizer's time limit (racecheck did not finish the two together in 330 s on an H200).
TEST(DirectGpu, SanitizerSizedTies) {
  SKIP_WITHOUT_GPU();
  // Tie dimensions: leaves from the candidates' columns, units through the warps' slots.
  const Matrix levels = level_data(60, 70, 8, 8, 20);
  CoreParams params = testing::core_params(0.1, 4, TableMode::direct);
  expect_gpu_equals_cpu(levels, params, "tie dimensions");
  params.units.device_subspace_capacity = 16;
  expect_gpu_equals_cpu(levels, params, "tie dimensions, small table");
}

TEST(DirectGpu, OpenSubspaceFiles) {
  SKIP_WITHOUT_GPU();
  const char* shared = std::getenv("SUBSCALE_SHARED_DIR");
  const std::filesystem::path folder = std::filesystem::path(shared ? shared : "") / "datasets" / "opensubspace";
  if (!shared || !std::filesystem::exists(folder)) GTEST_SKIP() << "OpenSubspace files not found under " << folder;
  struct Case {
    const char* file;
    std::uint32_t m;
    double eps;
  };
  for (const Case& c : {Case{"synth_dbsizescale/S1500.arff", 4, 0.005}, Case{"synth_dbsizescale/S5500.arff", 4, 0.005},
                        Case{"synth_dimscale/D05.arff", 4, 0.005}, Case{"synth_noisescale/N70.arff", 4, 0.001}}) {
    load::LoadOptions options;
    options.path = (folder / c.file).string();
    Dataset data = load::load_dataset(options);
    load::normalize(data, load::Normalization::minmax);
    expect_gpu_equals_cpu(data.values, testing::core_params(c.eps, c.m, TableMode::direct),
                          std::string(c.file) + " m=" + std::to_string(c.m) + " eps=" + std::to_string(c.eps));
  }
}

}  // namespace
}  // namespace subscale
