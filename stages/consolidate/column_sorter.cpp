#include "stages/consolidate/column_sorter.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <numeric>

namespace subscale::consolidate {

ColumnSorter::ColumnSorter(const Matrix& values)
    : values_(values),
      n_(static_cast<std::size_t>(values.rows())),
      rank_(n_ * static_cast<std::size_t>(values.cols())),
      by_rank_(rank_.size()) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, static_cast<std::size_t>(values.cols()), 1),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      // (value, point) side by side: the sort compares them without going
                      // back to the matrix, which halved the constructor's time.
                      struct Entry {
                        double value;
                        std::uint32_t point;
                      };
                      std::vector<Entry> order(n_);
                      for (std::size_t d = r.begin(); d != r.end(); ++d) {
                        const auto column = values.col(static_cast<Eigen::Index>(d));
                        for (std::size_t k = 0; k < n_; ++k)
                          order[k] = {column(static_cast<Eigen::Index>(k)), static_cast<std::uint32_t>(k)};
                        std::sort(order.begin(), order.end(), [](const Entry& a, const Entry& b) {
                          return a.value != b.value ? a.value < b.value : a.point < b.point;
                        });
                        for (std::size_t k = 0; k < n_; ++k) {
                          rank_[d * n_ + order[k].point] = static_cast<std::uint32_t>(k);
                          by_rank_[d * n_ + k] = order[k].value;
                        }
                      }
                    });
}

std::vector<double> ColumnSorter::sorted(std::span<const std::uint32_t> points, std::uint32_t dimension) const {
  std::vector<double> out;
  out.reserve(points.size());
  const std::size_t words = (n_ + 63) / 64;
  // Below about n / 64 / log2(m) points a plain sort is cheaper than reading the bitmap.
  const std::size_t m = points.size();
  if (m * static_cast<std::size_t>(std::bit_width(m)) * 4 < words) {
    const auto column = values_.col(static_cast<Eigen::Index>(dimension));
    for (std::uint32_t p : points) out.push_back(column(static_cast<Eigen::Index>(p)));
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<std::uint64_t>& bits = bits_.local();
  bits.assign(words, 0);
  const std::uint32_t* rank = rank_.data() + static_cast<std::size_t>(dimension) * n_;
  for (std::uint32_t p : points) bits[rank[p] >> 6] |= std::uint64_t{1} << (rank[p] & 63);
  const double* value = by_rank_.data() + static_cast<std::size_t>(dimension) * n_;
  for (std::size_t w = 0; w < words; ++w) {
    for (std::uint64_t word = bits[w]; word != 0; word &= word - 1)
      out.push_back(value[w * 64 + static_cast<std::size_t>(std::countr_zero(word))]);
  }
  return out;
}

void ColumnSorter::ranks(std::span<const std::uint32_t> points, std::uint32_t dimension,
                         std::vector<std::uint32_t>& out) const {
  const std::uint32_t* rank = rank_.data() + static_cast<std::size_t>(dimension) * n_;
  for (std::uint32_t p : points) out.push_back(rank[p]);
}

RankSet ColumnSorter::rank_set(std::span<const std::uint32_t> points, std::uint32_t dimension) const {
  std::vector<std::uint32_t> ranks;
  ranks.reserve(points.size());
  this->ranks(points, dimension, ranks);
  return RankSet(n_, ranks);
}

}  // namespace subscale::consolidate
