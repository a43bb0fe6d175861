#pragma once
// A uniform random sample of a matrix's rows, drawn from a seed alone.
//
// Each row r gets the key splitmix64(seed + r); the sample of s rows is the s rows with the
// smallest keys, in ascending row order. The draw is uniform without replacement, depends on
// nothing but (seed, rows) (not on threads, processes or the standard library), and the samples
// of one seed are nested: the sample of s rows holds the sample of every smaller size, so a run
// that halves its sample keeps a subset of the points it looked at.
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"

namespace subscale::sample {

// Every row of `rows`, ordered by key (the first s of them are the sample of s rows).
std::vector<std::uint32_t> draw_order(std::size_t rows, std::uint64_t seed);

// The sample of `size` rows from a draw order, ascending.
std::vector<std::uint32_t> first_rows(const std::vector<std::uint32_t>& order, std::size_t size);

// The rows `rows` (ascending, in range) of `values`, in that order.
template <class T>
ColumnMatrix<T> take_rows(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& rows);

}  // namespace subscale::sample
