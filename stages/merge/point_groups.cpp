#include "stages/merge/point_groups.hpp"

#include <algorithm>

#include "common/held_values.hpp"

namespace subscale::merge {
namespace {

struct Piece {
  std::uint32_t begin = 0, end = 0;
};

// Cuts every piece at the gaps of one column; returns whether any piece was cut (or set aside).
template <class T>
bool cut_in_column(const T* column, T limit, std::size_t keep_size, std::vector<std::uint32_t>& ids,
                   std::vector<Piece>& pieces, std::vector<Piece>& next, std::uint64_t& set_aside) {
  next.clear();
  bool changed = false;
  const auto emit = [&](std::uint32_t begin, std::uint32_t end, bool whole) {
    if (end - begin >= keep_size)
      next.push_back({begin, end});
    else
      ++set_aside;
    if (!whole || end - begin < keep_size) changed = true;
  };
  for (const Piece& piece : pieces) {
    std::sort(ids.begin() + piece.begin, ids.begin() + piece.end,
              [column](std::uint32_t a, std::uint32_t b) { return column[a] < column[b]; });
    std::uint32_t from = piece.begin;
    for (std::uint32_t i = piece.begin + 1; i < piece.end; ++i) {
      const T gap = column[ids[i]] - column[ids[i - 1]];
      if (gap * gap > limit) {
        emit(from, i, false);
        from = i;
      }
    }
    emit(from, piece.end, from == piece.begin);
  }
  pieces.swap(next);
  return changed;
}

}  // namespace

template <class T>
PointGroups point_groups(const ColumnMatrix<T>& values, const SubspaceCluster& subspace, double epsilon,
                         std::size_t keep_size, std::uint64_t& set_aside) {
  PointGroups out;
  std::vector<std::uint32_t> ids = subspace.points;
  std::vector<Piece> pieces, next;
  if (ids.size() >= std::max<std::size_t>(keep_size, 1))
    pieces.push_back({0, static_cast<std::uint32_t>(ids.size())});
  else if (!ids.empty())
    ++set_aside;
  const T held = held_epsilon<T>(epsilon);
  const T limit = held * held;  // as merge squares it (subspace_dbscan.cpp)
  const std::size_t s = subspace.dimensions.size();
  // Cycle through the dimensions until s in a row cut nothing (the one that last cut counts as
  // one of them: its pieces have no gap left there).
  for (std::size_t t = 0, quiet = 0; quiet < s && !pieces.empty(); t = (t + 1) % s) {
    const T* column = values.col(subspace.dimensions[t]).data();
    quiet = cut_in_column(column, limit, keep_size, ids, pieces, next, set_aside) ? 1 : quiet + 1;
  }
  out.starts.push_back(0);
  for (const Piece& piece : pieces) {
    out.points.insert(out.points.end(), ids.begin() + piece.begin, ids.begin() + piece.end);
    out.starts.push_back(static_cast<std::uint32_t>(out.points.size()));
  }
  return out;
}

template PointGroups point_groups(const Matrix32&, const SubspaceCluster&, double, std::size_t, std::uint64_t&);
template PointGroups point_groups(const Matrix&, const SubspaceCluster&, double, std::size_t, std::uint64_t&);

}  // namespace subscale::merge
