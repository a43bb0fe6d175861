#include "stages/consolidate/column_sorter.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <numeric>

namespace subscale::consolidate {

template <class T>
ColumnSorter<T>::ColumnSorter(const ColumnMatrix<T>& values)
    : values_(values),
      n_(static_cast<std::size_t>(values.rows())),
      rank_(n_ * static_cast<std::size_t>(values.cols())),
      by_rank_(rank_.size()),
      point_by_rank_(rank_.size()) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, static_cast<std::size_t>(values.cols()), 1),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      // (value, point) side by side: the sort compares them without going
                      // back to the matrix, which halved the constructor's time.
                      struct Entry {
                        T value;
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
                          point_by_rank_[d * n_ + k] = order[k].point;
                        }
                      }
                    });
}

template <class T>
void ColumnSorter<T>::ranks(std::span<const std::uint32_t> points, std::uint32_t dimension,
                            std::vector<std::uint32_t>& out) const {
  const std::uint32_t* rank = rank_.data() + static_cast<std::size_t>(dimension) * n_;
  for (std::uint32_t p : points) out.push_back(rank[p]);
}

template <class T>
RankSet ColumnSorter<T>::rank_set(std::span<const std::uint32_t> points, std::uint32_t dimension) const {
  std::vector<std::uint32_t> ranks;
  ranks.reserve(points.size());
  this->ranks(points, dimension, ranks);
  return RankSet(n_, ranks);
}

template class ColumnSorter<float>;
template class ColumnSorter<double>;

}  // namespace subscale::consolidate
