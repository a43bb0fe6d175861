#pragma once
// The config's sample section, resolved (docs/sampling.md): discovery on a uniform sample of a
// large input, membership for every point.
#include <cstddef>
#include <cstdint>
#include <optional>

namespace subscale::pipeline {

struct SampleSettings {
  std::optional<bool> enabled;        // empty: auto (when the unit budget would set epsilon)
  std::optional<std::size_t> points;  // empty: auto (the largest sample whose epsilon the data sets)
  double smallest_cluster = 0.01;     // share of the points: the sample holds 50 / share points at least
  std::uint64_t seed = 1;
};

// The points a cluster of the smallest share keeps in the smallest sample: enough for merge to
// link it and the test to pass it.
inline constexpr double kSmallestClusterPoints = 50;

}  // namespace subscale::pipeline
