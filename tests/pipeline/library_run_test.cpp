// The run as a library call (pipeline/steps/library_run.hpp): the same clusters for every layout of the
// caller's matrix, the keys that name files refused, and a cancelled run stopping with RunCancelled.
#include "pipeline/steps/library_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpu/device_info.hpp"

namespace subscale::pipeline {
namespace {

using ::testing::HasSubstr;

// 400 points in 6 dimensions: a pseudo-random background and 80 points close together in {1, 4}.
struct Sample {
  std::size_t rows = 400, columns = 6;
  std::vector<double> c_order, f_order;
  Sample() : c_order(rows * columns), f_order(rows * columns) {
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < columns; ++j) {
        double value = std::fmod(std::sin(static_cast<double>(i * 131 + j * 71)) * 43758.5453, 1.0);
        value = std::abs(value);
        if (i < 80 && (j == 1 || j == 4)) value = 0.3 + 0.01 * value;
        c_order[i * columns + j] = f_order[j * rows + i] = value;
      }
  }
  MemoryInput c_input() const {
    return {load::MatrixView<double>{c_order.data(), rows, columns, static_cast<std::ptrdiff_t>(columns), 1}, {}, {}};
  }
  MemoryInput f_input() const {
    return {load::MatrixView<double>{f_order.data(), rows, columns, 1, static_cast<std::ptrdiff_t>(rows)}, {}, {}};
  }
};

const std::vector<std::string> kSettings = {"epsilon=0.02", "min_points=3", "merge.min_points=10"};

TEST(LibraryRun, EveryLayoutGivesTheSameClusters) {
  const Sample sample;
  RunControl c_control, f_control;
  const LibraryRun c_run = run_library(kSettings, sample.c_input(), c_control);
  const LibraryRun f_run = run_library(kSettings, sample.f_input(), f_control);
  ASSERT_TRUE(c_run.report.consolidated.has_value());
  ASSERT_FALSE(c_run.report.consolidated->clusters.empty());
  EXPECT_EQ(c_run.report.consolidated->clusters, f_run.report.consolidated->clusters);
  EXPECT_EQ(c_run.report.core.subspaces, f_run.report.core.subspaces);
  const SubspaceCluster& strongest = c_run.report.consolidated->clusters.front();
  EXPECT_EQ(strongest.dimensions, (std::vector<std::uint32_t>{1, 4}));
  ASSERT_GE(strongest.points.size(), 80u);  // the hidden 80, and background points that fall in its box
  for (std::uint32_t i = 0; i < 80; ++i) EXPECT_EQ(strongest.points[i], i);
  EXPECT_EQ(c_control.snapshot().stage, "consolidate");
  EXPECT_THAT(c_run.summary_json, HasSubstr("\"points\": 400"));
  EXPECT_THAT(c_run.config_yaml, HasSubstr("epsilon: 0.02"));
}

TEST(LibraryRun, KeysThatNameFilesAreRefused) {
  const Sample sample;
  for (const char* key : {"input.path=data.h5", "join.path=t.h5", "checkpoint.dir=c", "output.gzip=3", "report=true"}) {
    std::vector<std::string> overrides = kSettings;
    overrides.emplace_back(key);
    RunControl control;
    EXPECT_THROW(run_library(overrides, sample.c_input(), control), UsageError) << key;
  }
  std::vector<std::string> sweep = {"epsilon=[0.01, 0.02]", "min_points=3"};
  RunControl control;
  EXPECT_THROW(run_library(sweep, sample.c_input(), control), UsageError);
}

TEST(LibraryRun, ACancelledRunStops) {
  const Sample sample;
  RunControl control;
  control.cancel();
  EXPECT_THROW(run_library(kSettings, sample.c_input(), control), RunCancelled);
}

// Cancelled while merge runs (Ctrl-C in Python after the core): merge's progress is where the run
// looks, so it stops there instead of finishing merge and consolidation first.
TEST(LibraryRun, ARunCancelledDuringMergeStopsThere) {
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const std::size_t rows = 1500, columns = 40;
  std::vector<double> values(rows * columns);
  for (double& value : values) value = uniform(random);
  const MemoryInput input{
      load::MatrixView<double>{values.data(), rows, columns, static_cast<std::ptrdiff_t>(columns), 1}, {}, {}};
  // About 0.3 s of merge on two cores after 0.8 s of core.
  const std::vector<std::string> settings = {"epsilon=0.04", "min_points=3", "significance.enabled=false"};
  RunControl control;
  std::atomic<bool> finished{false};
  std::thread watcher([&] {
    // Once merge has said how much it will do: its work has begun.
    for (;;) {
      if (finished.load()) return;
      const RunControl::Snapshot now = control.snapshot();
      if (now.stage == "merge" && now.total > 0) break;
      std::this_thread::yield();
    }
    control.cancel();
  });
  try {
    run_library(settings, input, control);
    ADD_FAILURE() << "merge ran to the end: the cancellation was not seen inside it";
  } catch (const RunCancelled&) {
  }
  finished.store(true);
  watcher.join();
  // Stopped inside merge: it had said how much it would do, and had not done it all.
  const RunControl::Snapshot at = control.snapshot();
  EXPECT_EQ(at.stage, "merge");
  EXPECT_GT(at.total, 0U);
  EXPECT_LT(at.done, at.total);
}

TEST(LibraryRun, BadValuesAreNamedAsTheReadersNameThem) {
  Sample sample;
  sample.c_order[5 * sample.columns + 2] = std::nan("");
  MemoryInput input = sample.c_input();
  input.column_names = {"a", "b", "c", "d", "e", "f"};
  RunControl control;
  try {
    run_library(kSettings, input, control);
    FAIL() << "NaN accepted";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("X, row 6 (index 5), column 3 (c): the value is NaN"));
  }
}

// What Python's fit runs on the GPU gives the CPU's clusters, significance on (the default) and off.
TEST(LibraryRun, TheGpuGivesTheCpusClusters) {
  if (!gpu::query_device().available) GTEST_SKIP() << "no usable CUDA device";
  const Sample sample;
  for (const char* significance : {"significance.enabled=true", "significance.enabled=false"})
    for (const char* mode : {"mode=direct", "mode=signature"}) {
      std::vector<std::string> cpu = {"min_points=3", significance, mode, "backend=cpu"};
      std::vector<std::string> cuda = {"min_points=3", significance, mode, "backend=cuda"};
      RunControl cpu_control, cuda_control;
      const LibraryRun on_cpu = run_library(cpu, sample.c_input(), cpu_control);
      const LibraryRun on_gpu = run_library(cuda, sample.c_input(), cuda_control);
      EXPECT_EQ(on_gpu.report.core.backend_used, Backend::cuda) << significance << " " << mode;
      EXPECT_EQ(on_cpu.report.core.subspaces, on_gpu.report.core.subspaces) << significance << " " << mode;
      ASSERT_TRUE(on_cpu.report.merge && on_gpu.report.merge);
      EXPECT_EQ(on_cpu.report.merge->clusters, on_gpu.report.merge->clusters) << significance << " " << mode;
      ASSERT_TRUE(on_cpu.report.consolidated && on_gpu.report.consolidated);
      EXPECT_EQ(on_cpu.report.consolidated->clusters, on_gpu.report.consolidated->clusters)
          << significance << " " << mode;
      EXPECT_FALSE(on_cpu.report.consolidated->clusters.empty()) << significance << " " << mode;
    }
}

TEST(LibraryRun, PlanCountsTheRunsUnits) {
  const Sample sample;
  RunControl control;
  const LibraryRun run = run_library(kSettings, sample.c_input(), control);
  const LibraryPlan plan = plan_library(kSettings, sample.c_input());
  EXPECT_EQ(plan.total_units, run.report.core.total_units);
  EXPECT_EQ(plan.units_per_dimension, run.report.core.units_per_dimension);
  EXPECT_EQ(plan.mode, "direct");
}

TEST(LibraryRun, ParameterErrorsBeginWithTheKeyNotACommandLine) {
  // Regression: Python's ValueError began "command line: 'epsilon' ..." (or "parameters: ") for a
  // keyword argument.
  const Sample sample;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"epsilon=-1", "'epsilon' is -1 but must be > 0"},
      {"epsilonn=0.1", "unknown key 'epsilonn'"},
      {"merge.min_points=abc", "'merge.min_points' expects"}};
  for (const auto& [setting, begins] : cases) {
    RunControl control;
    try {
      run_library({setting}, sample.c_input(), control);
      ADD_FAILURE() << setting << " was taken";
    } catch (const UsageError& error) {
      EXPECT_THAT(std::string(error.what()), ::testing::StartsWith(begins)) << setting;
    }
  }
}

}  // namespace
}  // namespace subscale::pipeline
