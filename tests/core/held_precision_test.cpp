// input.precision: float32 and float64 are each self-consistent (the three modes, one or two
// threads, give the same subspaces), and on data whose spans lie within rounding of epsilon they
// give different windows, dense units and subspaces: the comparisons really are made in the held
// precision.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/held_values.hpp"
#include "stages/core/core.hpp"
#include "stages/density1d/density1d.hpp"
#include "stages/subspaces/subspaces.hpp"
#include "tests/core/core_params.hpp"
#include "tests/core/core_test_data.hpp"

namespace subscale {
namespace {

constexpr double kEps = 0.1;
constexpr std::uint64_t kHeldPrecisionSeed = 11;  // the signature keys' seed

template <class T>
std::string subspaces_of(const ColumnMatrix<T>& values, TableMode mode, int threads) {
  tbb::task_arena arena(threads);
  return arena.execute([&] {
    return subspaces_text(core::run_core(values, testing::core_params(kEps, 3, mode, kHeldPrecisionSeed)).subspaces);
  });
}

// Every mode and 1 or 2 threads give the subspaces of direct mode on 2 threads; returns them.
template <class T>
std::string self_consistent_subspaces(const ColumnMatrix<T>& values) {
  const std::string reference = subspaces_of(values, TableMode::direct, 2);
  EXPECT_FALSE(reference.empty());
  for (TableMode mode : {TableMode::direct, TableMode::signature, TableMode::exact})
    for (int threads : {1, 2})
      EXPECT_EQ(subspaces_of(values, mode, threads), reference)
          << "mode " << to_string(mode) << ", " << threads << " thread(s)";
  return reference;
}

// Two points in one dimension, eps = 0.1. In float64, 0.599999999 - 0.5 < 0.1; in float32 the
// larger value rounds up to 0.60000002 and the span passes float(0.1). The other pair goes the
// other way: 0.35000000001 - 0.25 >= 0.1 in float64, but 0.35000000001 rounds down to 0.34999999
// in float32.
TEST(HeldPrecision, SpansThatRoundAcrossEpsilon) {
  Matrix only_double(2, 1), only_float(2, 1);
  only_double << 0.5, 0.599999999;
  only_float << 0.25, 0.35000000001;
  const Density1dParams params{kEps, 2};
  EXPECT_EQ(run_density1d(only_double, params).dimensions[0].window_end[0], 2u);
  EXPECT_EQ(run_density1d(Matrix32(only_double.cast<float>()), params).dimensions[0].window_end[0], 1u);
  EXPECT_EQ(run_density1d(only_float, params).dimensions[0].window_end[0], 1u);
  EXPECT_EQ(run_density1d(Matrix32(only_float.cast<float>()), params).dimensions[0].window_end[0], 2u);
}

TEST(HeldPrecision, HoldRoundsOnceAndHalvesTheBytes) {
  Matrix values(3, 2);
  values << 0.1, 0.2, 0.3, 0.4, 0.5, 0.6;
  const HeldValues wide = HeldValues::hold(Matrix(values), Precision::float64);
  const HeldValues narrow = HeldValues::hold(Matrix(values), Precision::float32);
  EXPECT_EQ(wide.precision(), Precision::float64);
  EXPECT_EQ(narrow.precision(), Precision::float32);
  EXPECT_EQ(wide.bytes(), 6 * sizeof(double));
  EXPECT_EQ(narrow.bytes(), 6 * sizeof(float));
  EXPECT_EQ(narrow.points(), 3u);
  EXPECT_EQ(narrow.dimensions(), 2u);
  narrow.visit([&](const auto& held) {
    for (Eigen::Index i = 0; i < 3; ++i)
      for (Eigen::Index j = 0; j < 2; ++j) EXPECT_EQ(static_cast<double>(held(i, j)), double(float(values(i, j))));
  });
}

TEST(HeldPrecision, ValuesBeyondFloatRangeAreRefused) {
  Matrix values(2, 2);
  values << 0.5, 1.0, 2.0, -1e39;
  EXPECT_EQ(HeldValues::hold(Matrix(values), Precision::float64).bytes(), 4 * sizeof(double));
  try {
    HeldValues::hold(Matrix(values), Precision::float32, "data.csv");
    FAIL() << "a value beyond float32's range was held";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("data.csv, data row 2, column 2"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("input.precision: float64"), std::string::npos) << error.what();
  }
}

TEST(HeldPrecision, FloatAndDoubleDifferAndEachIsSelfConsistent) {
  const Matrix wide = testing::near_epsilon_data(60, 6, 3, kEps);
  const Matrix32 narrow = wide.cast<float>();

  // The windows differ (density1d compares in the held precision) ...
  const Density1dResult density64 = run_density1d(wide, {kEps, 3});
  const Density1dResult density32 = run_density1d(narrow, {kEps, 3});
  std::size_t differing_windows = 0;
  for (std::size_t j = 0; j < density64.dimensions.size(); ++j)
    for (std::size_t i = 0; i < 60; ++i)
      differing_windows += density64.dimensions[j].window_end[i] != density32.dimensions[j].window_end[i];
  EXPECT_GT(differing_windows, 0u);

  // ... so do the dense units and the subspaces ...
  const auto core64 = core::run_core(wide, testing::core_params(kEps, 3, TableMode::direct, kHeldPrecisionSeed));
  const auto core32 = core::run_core(narrow, testing::core_params(kEps, 3, TableMode::direct, kHeldPrecisionSeed));
  EXPECT_NE(core64.total_units, core32.total_units);

  // ... and within each precision every mode and thread count agrees.
  const std::string subspaces64 = self_consistent_subspaces(wide);
  const std::string subspaces32 = self_consistent_subspaces(narrow);
  EXPECT_NE(subspaces64, subspaces32);
}

}  // namespace
}  // namespace subscale
