#include "stages/significance/edge_peeling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace subscale::significance {
namespace {

constexpr int kMaxSteps = 64;
constexpr std::size_t kMaxValuesPeeled = 4;

// The points sorted by coordinate on each axis, the points taken away so far, and the current
// ends of every axis's list (the first and last point still in).
class Edges {
 public:
  explicit Edges(const std::vector<std::vector<double>>& coordinates)
      : out_(coordinates.front().size(), 0), left_(coordinates.front().size()) {
    for (const auto& axis : coordinates) {
      std::vector<std::pair<double, std::uint32_t>> sorted;
      sorted.reserve(axis.size());
      for (std::uint32_t at = 0; at < axis.size(); ++at) sorted.emplace_back(axis[at], at);
      std::sort(sorted.begin(), sorted.end());
      sorted_.push_back(std::move(sorted));
    }
    first_.assign(sorted_.size(), 0);
    last_.assign(sorted_.size(), left_ - 1);
  }

  std::size_t left() const { return left_; }
  std::size_t axes() const { return sorted_.size(); }

  // The points (positions) of the outermost `count` coordinates still in, at the low (high =
  // false) or high end of axis i; fewer where fewer coordinates are left.
  std::vector<std::uint32_t> outermost(std::size_t i, bool high, std::size_t count) const {
    std::vector<std::uint32_t> taken;
    const auto& list = sorted_[i];
    std::size_t seen = 0;
    double previous = std::numeric_limits<double>::quiet_NaN();
    const auto visit = [&](std::size_t at) {
      if (out_[list[at].second]) return true;
      if (list[at].first != previous) {
        if (seen == count) return false;
        ++seen, previous = list[at].first;
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

  // The strength of the points still in, without `extra` (marked and unmarked here).
  double strength_without(const std::vector<std::uint32_t>& extra, const Strength& strength) {
    for (const auto at : extra) out_[at] = 1;
    Ends ends;
    for (std::size_t i = 0; i < sorted_.size(); ++i) {
      std::size_t lo = first_[i], hi = last_[i];
      while (out_[sorted_[i][lo].second]) ++lo;
      while (out_[sorted_[i][hi].second]) --hi;
      ends.lo.push_back(sorted_[i][lo].first);
      ends.hi.push_back(sorted_[i][hi].first);
    }
    for (const auto at : extra) out_[at] = 0;
    return strength(ends, left_ - extra.size());
  }

  void take(const std::vector<std::uint32_t>& points) {
    for (const auto at : points) out_[at] = 1;
    left_ -= points.size();
    for (std::size_t i = 0; i < sorted_.size(); ++i) {
      while (out_[sorted_[i][first_[i]].second]) ++first_[i];
      while (out_[sorted_[i][last_[i]].second]) --last_[i];
    }
  }

  bool taken(std::uint32_t at) const { return out_[at] != 0; }

 private:
  std::vector<std::vector<std::pair<double, std::uint32_t>>> sorted_;
  std::vector<std::size_t> first_, last_;
  std::vector<char> out_;
  std::size_t left_;
};

}  // namespace

std::vector<std::uint32_t> peel_while_stronger(const std::vector<std::vector<double>>& coordinates,
                                               const Strength& strength) {
  const std::size_t points = coordinates.empty() ? 0 : coordinates.front().size();
  std::vector<std::uint32_t> kept;
  if (points < 4) {
    for (std::uint32_t at = 0; at < points; ++at) kept.push_back(at);
    return kept;
  }
  Edges edges(coordinates);
  const std::size_t keep_at_least = (points + 1) / 2;
  double current = edges.strength_without({}, strength);
  for (int step = 0; step < kMaxSteps; ++step) {
    double best = current;
    std::vector<std::uint32_t> best_removal;
    for (std::size_t i = 0; i < edges.axes(); ++i)
      for (const bool high : {false, true})
        for (std::size_t count = 1; count <= kMaxValuesPeeled; ++count) {
          auto removal = edges.outermost(i, high, count);
          if (removal.empty() || edges.left() - removal.size() < keep_at_least) break;
          const double s = edges.strength_without(removal, strength);
          if (s > best) best = s, best_removal = std::move(removal);
        }
    if (best_removal.empty()) break;
    edges.take(best_removal);
    current = best;
  }
  kept.reserve(edges.left());
  for (std::uint32_t at = 0; at < points; ++at)
    if (!edges.taken(at)) kept.push_back(at);
  return kept;
}

SubspaceCluster keeping(SubspaceCluster cluster, const std::vector<std::uint32_t>& kept) {
  if (kept.size() == cluster.points.size()) return cluster;
  std::vector<std::uint32_t> points;
  points.reserve(kept.size());
  for (const auto at : kept) points.push_back(cluster.points[at]);
  cluster.points = std::move(points);
  return cluster;
}

}  // namespace subscale::significance
