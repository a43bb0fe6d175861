#include "stages/sample/membership.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "common/held_values.hpp"
#include "stages/merge/neighbour_test.hpp"
#include "stages/sample/cluster_members.hpp"

namespace subscale::sample {
namespace membership_detail {

// The rows [begin, end) of `points` that belong to one cluster, ascending.
template <class T>
void block_members(const ColumnMatrix<T>& points, const SubspaceCluster& cluster, const Members<T>& m, double radius,
                   std::size_t begin, std::size_t end, std::vector<std::uint32_t>& out) {
  const std::size_t count = end - begin;
  std::vector<unsigned char> inside(count, 1);
  for (std::size_t t = 0; t < m.width; ++t) {
    const T* column = points.col(cluster.dimensions[t]).data() + begin;
    const double lo = m.lo[t], hi = m.hi[t];
    for (std::size_t i = 0; i < count; ++i) {
      const double v = static_cast<double>(column[i]);
      inside[i] &= static_cast<unsigned char>(v >= lo && v <= hi);
    }
  }
  const T held = held_epsilon<T>(radius);
  const T limit = held * held;
  const double reach = widened<T>(radius);
  std::vector<T> x(m.width);
  for (std::size_t i = 0; i < count; ++i) {
    if (!inside[i]) continue;
    const auto row = static_cast<Eigen::Index>(begin + i);
    for (std::size_t t = 0; t < m.width; ++t) x[t] = points(row, cluster.dimensions[t]);
    const double x0 = static_cast<double>(x[0]);
    auto from = std::lower_bound(m.first.begin(), m.first.end(), x0 - reach,
                                 [](T a, double b) { return static_cast<double>(a) < b; });
    for (auto it = from; it != m.first.end() && static_cast<double>(*it) <= x0 + reach; ++it) {
      const auto member = static_cast<std::size_t>(it - m.first.begin());
      if (merge::within(x.data(), m.coordinates.data() + member * m.width, m.width, limit)) {
        out.push_back(static_cast<std::uint32_t>(begin + i));
        break;
      }
    }
  }
}

}  // namespace membership_detail

template <class T>
std::vector<std::vector<std::uint32_t>> members_near(const ColumnMatrix<T>& points, const ColumnMatrix<T>& reference,
                                                     const std::vector<SubspaceCluster>& clusters,
                                                     const MembershipParams& params, const StageProgress& progress) {
  using namespace membership_detail;
  check(points, reference, clusters, params);
  const auto n = static_cast<std::size_t>(points.rows());
  const std::size_t block = std::max<std::size_t>(params.block_points, 1);
  const std::size_t blocks = (n + block - 1) / block;
  std::vector<Members<T>> members(clusters.size());
  tbb::parallel_for(std::size_t{0}, clusters.size(), [&](std::size_t c) {
    if (!clusters[c].dimensions.empty() && !clusters[c].points.empty())
      members[c] = gather(reference, clusters[c], params.radius);
  });
  progress.begin("membership", static_cast<std::uint64_t>(n) * clusters.size(), "points");
  // found[b][c]: block b's members of cluster c; concatenated in block order they are ascending.
  std::vector<std::vector<std::vector<std::uint32_t>>> found(blocks);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const std::size_t begin = b * block, end = std::min(n, begin + block);
    found[b].resize(clusters.size());
    for (std::size_t c = 0; c < clusters.size(); ++c) {
      if (members[c].first.empty()) continue;
      block_members(points, clusters[c], members[c], params.radius, begin, end, found[b][c]);
      progress.advance(end - begin);
    }
  });
  std::vector<std::vector<std::uint32_t>> out(clusters.size());
  tbb::parallel_for(std::size_t{0}, clusters.size(), [&](std::size_t c) {
    std::size_t total = 0;
    for (const auto& f : found) total += f[c].size();
    out[c].reserve(total);
    for (auto& f : found) {
      out[c].insert(out[c].end(), f[c].begin(), f[c].end());
      std::vector<std::uint32_t>().swap(f[c]);
    }
  });
  return out;
}

template std::vector<std::vector<std::uint32_t>> members_near(const ColumnMatrix<float>&, const ColumnMatrix<float>&,
                                                              const std::vector<SubspaceCluster>&,
                                                              const MembershipParams&, const StageProgress&);
template std::vector<std::vector<std::uint32_t>> members_near(const ColumnMatrix<double>&, const ColumnMatrix<double>&,
                                                              const std::vector<SubspaceCluster>&,
                                                              const MembershipParams&, const StageProgress&);

}  // namespace subscale::sample
