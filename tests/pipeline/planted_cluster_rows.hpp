#pragma once
// The rows the pipeline's section tests (filter:, join:) cluster: 40 rows with ids 1000 + 7 row, in
// two columns where rows 0..9 form one 2-D cluster at epsilon 0.01 and the others lie apart.
#include <cstdint>

namespace subscale::testing::planted_cluster {

inline constexpr int kPoints = 40;
inline constexpr int kClustered = 10;

inline std::uint64_t id_of(int row) { return 1000 + 7 * static_cast<std::uint64_t>(row); }

// Rows 0..9 within 0.004 of each other in both columns, between two of the other rows' values
// (spaced 1/30), at least 0.013 from each.
inline double clustered_value(int row, int column) {
  if (row < kClustered) return 0.5 + 1.0 / 60 + (column == 0 ? 0.0003 : 0.0004) * row;
  const int k = row - kClustered;
  return (column == 0 ? k : (k * 7) % 30) / 30.0;
}

}  // namespace subscale::testing::planted_cluster
