#include "stages/significance/trimmed_box.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "stages/significance/binomial_tail.hpp"
#include "stages/significance/search_correction.hpp"

namespace subscale::significance {
namespace {

constexpr int kMaxSteps = 64;
constexpr std::size_t kMaxValuesPeeled = 4;

// The cluster's points sorted by value in each of its dimensions, the points taken away so far,
// and the current ends of every dimension's list (the first and last point still in).
template <class T>
class Edges {
 public:
  Edges(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster)
      : marginals_(marginals),
        dimensions_(cluster.dimensions),
        out_(cluster.points.size(), 0),
        left_(cluster.points.size()) {
    for (const auto j : dimensions_) {
      const T* column = values.col(j).data();
      std::vector<std::pair<double, std::uint32_t>> sorted;
      sorted.reserve(cluster.points.size());
      for (std::uint32_t at = 0; at < cluster.points.size(); ++at)
        sorted.emplace_back(static_cast<double>(column[cluster.points[at]]), at);
      std::sort(sorted.begin(), sorted.end());
      sorted_.push_back(std::move(sorted));
    }
    first_.assign(dimensions_.size(), 0);
    last_.assign(dimensions_.size(), cluster.points.size() - 1);
    log_search_ = log_search_size(marginals, dimensions_);
  }

  std::size_t left() const { return left_; }

  // The points (positions in the cluster) of the outermost `count` values still in, at the low
  // (high = false) or high end of dimension i; fewer where fewer values are left.
  std::vector<std::uint32_t> outermost(std::size_t i, bool high, std::size_t count) const {
    std::vector<std::uint32_t> taken;
    const auto& list = sorted_[i];
    std::size_t values_seen = 0;
    double previous = std::numeric_limits<double>::quiet_NaN();
    const auto visit = [&](std::size_t at) {
      if (out_[list[at].second]) return true;
      if (list[at].first != previous) {
        if (values_seen == count) return false;
        ++values_seen, previous = list[at].first;
      }
      taken.push_back(list[at].second);
      return true;
    };
    if (high) {
      for (std::size_t at = last_[i] + 1; at-- > first_[i];)
        if (!visit(at)) break;
    } else {
      for (std::size_t at = first_[i]; at <= last_[i]; ++at)
        if (!visit(at)) break;
    }
    return taken;
  }

  // -log10(p * family size) of the points still in, without `extra` (marked and unmarked here).
  double strength_without(const std::vector<std::uint32_t>& extra) {
    for (const auto at : extra) out_[at] = 1;
    const double strength = strength_of(left_ - extra.size());
    for (const auto at : extra) out_[at] = 0;
    return strength;
  }

  void take(const std::vector<std::uint32_t>& points) {
    for (const auto at : points) out_[at] = 1;
    left_ -= points.size();
    for (std::size_t i = 0; i < dimensions_.size(); ++i) {
      while (out_[sorted_[i][first_[i]].second]) ++first_[i];
      while (out_[sorted_[i][last_[i]].second]) --last_[i];
    }
  }

  bool taken(std::uint32_t at) const { return out_[at] != 0; }

 private:
  double strength_of(std::size_t points) const {
    double log_p0 = 0;
    for (std::size_t i = 0; i < dimensions_.size(); ++i) {
      std::size_t lo = first_[i], hi = last_[i];
      while (out_[sorted_[i][lo].second]) ++lo;
      while (out_[sorted_[i][hi].second]) --hi;
      log_p0 += std::log(marginals_.mass(dimensions_[i], sorted_[i][lo].first, sorted_[i][hi].first));
    }
    const double log_p = log_binomial_upper_tail(marginals_.points(), log_p0, points);
    return -(log_p + log_search_) / std::log(10.0);
  }

  const Marginals& marginals_;
  const std::vector<std::uint32_t>& dimensions_;
  std::vector<std::vector<std::pair<double, std::uint32_t>>> sorted_;
  std::vector<std::size_t> first_, last_;
  std::vector<char> out_;
  std::size_t left_;
  double log_search_ = 0;
};

}  // namespace

template <class T>
SubspaceCluster trim_while_stronger(const ColumnMatrix<T>& values, const Marginals& marginals,
                                    SubspaceCluster cluster) {
  if (cluster.points.size() < 4 || cluster.dimensions.empty()) return cluster;
  Edges<T> edges(values, marginals, cluster);
  const std::size_t keep_at_least = (cluster.points.size() + 1) / 2;
  double current = edges.strength_without({});
  for (int step = 0; step < kMaxSteps; ++step) {
    double best = current;
    std::vector<std::uint32_t> best_removal;
    for (std::size_t i = 0; i < cluster.dimensions.size(); ++i)
      for (const bool high : {false, true})
        for (std::size_t count = 1; count <= kMaxValuesPeeled; ++count) {
          auto removal = edges.outermost(i, high, count);
          if (removal.empty() || edges.left() - removal.size() < keep_at_least) break;
          const double strength = edges.strength_without(removal);
          if (strength > best) best = strength, best_removal = std::move(removal);
        }
    if (best_removal.empty()) break;
    edges.take(best_removal);
    current = best;
  }
  if (edges.left() == cluster.points.size()) return cluster;
  std::vector<std::uint32_t> kept;
  kept.reserve(edges.left());
  for (std::uint32_t at = 0; at < cluster.points.size(); ++at)
    if (!edges.taken(at)) kept.push_back(cluster.points[at]);
  cluster.points = std::move(kept);
  return cluster;
}

template SubspaceCluster trim_while_stronger(const ColumnMatrix<float>&, const Marginals&, SubspaceCluster);
template SubspaceCluster trim_while_stronger(const ColumnMatrix<double>&, const Marginals&, SubspaceCluster);

}  // namespace subscale::significance
