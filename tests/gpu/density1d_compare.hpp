#pragma once
// density1d results compared field by field (GPU against CPU), naming the dimension that differs.
#include <gtest/gtest.h>

#include <string>

#include "stages/density1d/density1d.hpp"

namespace subscale::testing {

inline void expect_same_density(const Density1dResult& gpu, const Density1dResult& cpu, const std::string& what) {
  ASSERT_EQ(gpu.dimensions.size(), cpu.dimensions.size()) << what;
  for (std::size_t j = 0; j < cpu.dimensions.size(); ++j) {
    const auto& g = gpu.dimensions[j];
    const auto& c = cpu.dimensions[j];
    EXPECT_EQ(g.order, c.order) << what << " dimension " << j;
    EXPECT_EQ(g.window_end, c.window_end) << what << " dimension " << j;
    EXPECT_EQ(g.labels, c.labels) << what << " dimension " << j;
    EXPECT_EQ(g.clusters, c.clusters) << what << " dimension " << j;
    EXPECT_EQ(g.core_points, c.core_points) << what << " dimension " << j;
  }
}

}  // namespace subscale::testing
