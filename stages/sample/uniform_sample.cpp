#include "stages/sample/uniform_sample.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <stdexcept>

namespace subscale::sample {
namespace {

// Sebastiano Vigna's splitmix64 finaliser: consecutive inputs give independent-looking keys.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::vector<std::uint32_t> draw_order(std::size_t rows, std::uint64_t seed) {
  if (rows > UINT32_MAX) throw std::invalid_argument("draw_order: more rows than 32-bit point ids hold");
  // Key and row together: equal keys (a chance of about rows^2 / 2^65) are ordered by row.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(rows);
  tbb::parallel_for(std::size_t{0}, rows, [&](std::size_t r) {
    keyed[r] = {splitmix64(seed + r), static_cast<std::uint32_t>(r)};
  });
  tbb::parallel_sort(keyed.begin(), keyed.end());
  std::vector<std::uint32_t> order(rows);
  for (std::size_t i = 0; i < rows; ++i) order[i] = keyed[i].second;
  return order;
}

std::vector<std::uint32_t> first_rows(const std::vector<std::uint32_t>& order, std::size_t size) {
  std::vector<std::uint32_t> rows(order.begin(),
                                  order.begin() + static_cast<std::ptrdiff_t>(std::min(size, order.size())));
  std::sort(rows.begin(), rows.end());
  return rows;
}

template <class T>
ColumnMatrix<T> take_rows(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& rows) {
  ColumnMatrix<T> out(static_cast<Eigen::Index>(rows.size()), values.cols());
  tbb::parallel_for(Eigen::Index{0}, values.cols(), [&](Eigen::Index j) {
    const T* from = values.col(j).data();
    T* to = out.col(j).data();
    for (std::size_t i = 0; i < rows.size(); ++i) to[i] = from[rows[i]];
  });
  return out;
}

template ColumnMatrix<float> take_rows(const ColumnMatrix<float>&, const std::vector<std::uint32_t>&);
template ColumnMatrix<double> take_rows(const ColumnMatrix<double>&, const std::vector<std::uint32_t>&);

}  // namespace subscale::sample
