#include "stages/dedup/dedup.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace subscale::dedup {
namespace {

// Columns can only be one where their first values agree, so candidates are grouped by those
// values (rounded far coarser than the tolerance, in the orientation whose first value is the
// smaller of x and 1 - x) and compared in full only within a group. Rounding can put two equal
// columns on either side of a step only where a value sits within the tolerance of one, which the
// second key (offset by half a step) catches.
constexpr std::size_t kKeyValues = 8;
constexpr double kKeyStep = 1e-4;

template <class T>
bool constant(const T* column, std::size_t n) {
  for (std::size_t i = 1; i < n; ++i)
    if (column[i] != column[0]) return false;
  return true;
}

// Whether the column reads better mirrored: its first non-half value above one half.
template <class T>
bool flips(const T* column, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(column[i]);
    if (std::abs(v - 0.5) > 0.25) return v > 0.5;
  }
  return false;
}

template <class T>
std::vector<long long> key_of(const T* column, std::size_t n, bool mirror, double offset) {
  std::vector<long long> key;
  for (std::size_t i = 0; i < std::min(n, kKeyValues); ++i) {
    const double v = mirror ? 1.0 - static_cast<double>(column[i]) : static_cast<double>(column[i]);
    key.push_back(std::llround(std::floor(v / kKeyStep + offset)));
  }
  return key;
}

template <class T>
bool same(const T* a, const T* b, std::size_t n, bool mirror, double tolerance) {
  for (std::size_t i = 0; i < n; ++i) {
    const double x = static_cast<double>(a[i]);
    const double y = mirror ? 1.0 - static_cast<double>(b[i]) : static_cast<double>(b[i]);
    if (std::abs(x - y) > tolerance) return false;
  }
  return true;
}

}  // namespace

std::size_t ColumnFolding::mirrored_count() const noexcept {
  return static_cast<std::size_t>(std::count(mirrored.begin(), mirrored.end(), true));
}

template <class T>
double default_tolerance() {
  return std::max(1e-9, 16.0 * static_cast<double>(std::numeric_limits<T>::epsilon()));
}

template <class T>
ColumnFolding find_repeated_columns(const ColumnMatrix<T>& values, double tolerance) {
  const auto n = static_cast<std::size_t>(values.rows());
  const auto d = static_cast<std::uint32_t>(values.cols());
  ColumnFolding folding;
  folding.folded_of.assign(d, 0);
  folding.mirrored.assign(d, false);
  std::vector<char> flip(d), skip(d);  // char: written from several threads
  tbb::parallel_for(std::uint32_t{0}, d, [&](std::uint32_t j) {
    const T* column = values.col(j).data();
    skip[j] = n == 0 || constant(column, n);
    flip[j] = !skip[j] && flips(column, n);
  });
  // first[j]: the earlier column j repeats (itself when none).
  std::vector<std::uint32_t> first(d);
  std::iota(first.begin(), first.end(), 0U);
  for (const double offset : {0.0, 0.5}) {
    std::map<std::vector<long long>, std::vector<std::uint32_t>> groups;
    for (std::uint32_t j = 0; j < d; ++j)
      if (!skip[j] && first[j] == j) groups[key_of(values.col(j).data(), n, flip[j], offset)].push_back(j);
    for (const auto& [key, members] : groups)
      for (std::size_t a = 0; a < members.size(); ++a) {
        const std::uint32_t i = members[a];
        if (first[i] != i) continue;
        for (std::size_t b = a + 1; b < members.size(); ++b) {
          const std::uint32_t j = members[b];
          if (first[j] != j) continue;
          const bool mirror = flip[i] != flip[j];
          if (same(values.col(i).data(), values.col(j).data(), n, mirror, tolerance)) {
            first[j] = i;
            folding.mirrored[j] = mirror;
          }
        }
      }
  }
  for (std::uint32_t j = 0; j < d; ++j)
    if (first[j] == j) {
      folding.folded_of[j] = static_cast<std::uint32_t>(folding.kept.size());
      folding.kept.push_back(j);
    } else {
      folding.folded_of[j] = folding.folded_of[first[j]];
    }
  return folding;
}

template <class T>
ColumnMatrix<T> keep_columns(const ColumnMatrix<T>& values, const ColumnFolding& folding) {
  ColumnMatrix<T> kept(values.rows(), static_cast<Eigen::Index>(folding.kept.size()));
  for (std::size_t f = 0; f < folding.kept.size(); ++f)
    kept.col(static_cast<Eigen::Index>(f)) = values.col(static_cast<Eigen::Index>(folding.kept[f]));
  return kept;
}

std::vector<std::uint32_t> unfold(const std::vector<std::uint32_t>& dimensions, const ColumnFolding& folding) {
  std::vector<bool> wanted(folding.kept.size(), false);
  for (const std::uint32_t f : dimensions) wanted[f] = true;
  std::vector<std::uint32_t> out;
  for (std::uint32_t j = 0; j < folding.columns(); ++j)
    if (wanted[folding.folded_of[j]]) out.push_back(j);
  return out;
}

void unfold(std::vector<SubspaceCluster>& clusters, const ColumnFolding& folding) {
  if (!folding.any()) return;
  tbb::parallel_for(std::size_t{0}, clusters.size(),
                    [&](std::size_t i) { clusters[i].dimensions = unfold(clusters[i].dimensions, folding); });
}

template double default_tolerance<float>();
template double default_tolerance<double>();
template ColumnFolding find_repeated_columns(const ColumnMatrix<float>&, double);
template ColumnFolding find_repeated_columns(const ColumnMatrix<double>&, double);
template ColumnMatrix<float> keep_columns(const ColumnMatrix<float>&, const ColumnFolding&);
template ColumnMatrix<double> keep_columns(const ColumnMatrix<double>&, const ColumnFolding&);

}  // namespace subscale::dedup
