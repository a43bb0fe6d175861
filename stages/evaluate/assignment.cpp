#include "stages/evaluate/assignment.hpp"

#include <limits>
#include <stdexcept>

namespace subscale::evaluate {
namespace {

// Minimum-cost assignment of every row (rows <= columns) to a distinct column, with potentials u
// (rows) and v (columns); index 0 is a sentinel, real rows and columns are 1-based. For each new
// row, Dijkstra-like steps on reduced costs grow an alternating tree until a free column is
// reached, then the path is flipped.
std::vector<std::size_t> min_cost_rows_to_columns(const std::vector<std::int64_t>& cost, std::size_t rows,
                                                  std::size_t columns) {
  constexpr std::int64_t kInfinity = std::numeric_limits<std::int64_t>::max() / 4;
  std::vector<std::int64_t> u(rows + 1, 0), v(columns + 1, 0);
  std::vector<std::size_t> row_of_column(columns + 1, 0), way(columns + 1, 0);
  const auto at = [&](std::size_t r, std::size_t c) { return cost[(r - 1) * columns + (c - 1)]; };

  for (std::size_t row = 1; row <= rows; ++row) {
    row_of_column[0] = row;
    std::size_t column = 0;
    std::vector<std::int64_t> slack(columns + 1, kInfinity);
    std::vector<bool> used(columns + 1, false);
    do {
      used[column] = true;
      const std::size_t current_row = row_of_column[column];
      std::int64_t delta = kInfinity;
      std::size_t next_column = 0;
      for (std::size_t c = 1; c <= columns; ++c) {
        if (used[c]) continue;
        const std::int64_t reduced = at(current_row, c) - u[current_row] - v[c];
        if (reduced < slack[c]) {
          slack[c] = reduced;
          way[c] = column;
        }
        if (slack[c] < delta) {
          delta = slack[c];
          next_column = c;
        }
      }
      for (std::size_t c = 0; c <= columns; ++c) {
        if (used[c]) {
          u[row_of_column[c]] += delta;
          v[c] -= delta;
        } else {
          slack[c] -= delta;
        }
      }
      column = next_column;
    } while (row_of_column[column] != 0);
    // Flip the augmenting path back to the root.
    do {
      const std::size_t previous = way[column];
      row_of_column[column] = row_of_column[previous];
      column = previous;
    } while (column != 0);
  }
  return row_of_column;
}

}  // namespace

Assignment max_weight_assignment(const std::vector<std::int64_t>& weights, std::size_t rows, std::size_t columns) {
  if (weights.size() != rows * columns)
    throw std::invalid_argument("max_weight_assignment: weights is not rows x columns");
  Assignment result;
  result.column_of_row.assign(rows, -1);
  if (rows == 0 || columns == 0) return result;

  // Costs are negated weights, on a matrix with the shorter side as rows.
  const bool transpose = rows > columns;
  const std::size_t r = transpose ? columns : rows;
  const std::size_t c = transpose ? rows : columns;
  std::vector<std::int64_t> cost(r * c);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < columns; ++j) {
      const std::int64_t w = weights[i * columns + j];
      if (w < 0) throw std::invalid_argument("max_weight_assignment: negative weight");
      cost[transpose ? j * c + i : i * c + j] = -w;
    }
  }
  const std::vector<std::size_t> row_of_column = min_cost_rows_to_columns(cost, r, c);
  for (std::size_t col = 1; col <= c; ++col) {
    if (row_of_column[col] == 0) continue;
    const std::size_t short_side = row_of_column[col] - 1, long_side = col - 1;
    const std::size_t i = transpose ? long_side : short_side;
    const std::size_t j = transpose ? short_side : long_side;
    result.column_of_row[i] = static_cast<std::int64_t>(j);
    result.total += weights[i * columns + j];
  }
  return result;
}

}  // namespace subscale::evaluate
