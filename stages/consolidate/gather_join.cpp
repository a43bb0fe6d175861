#include "stages/consolidate/gather_join.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <utility>

#include "stages/consolidate/cluster_union.hpp"
#include "stages/consolidate/point_holders.hpp"
#include "stages/consolidate/sorted_ids.hpp"

namespace subscale::consolidate {
namespace {

template <class T>
std::uint64_t interest_of(const WorkingCluster<T>& cluster) {
  return static_cast<std::uint64_t>(cluster.points.size()) * cluster.dimensions.size();
}

bool contains(const std::vector<std::uint32_t>& big, const std::vector<std::uint32_t>& small) {
  return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

// The box (central_span.hpp) of each gathered cluster's points, computed when first asked and kept
// until the cluster changes.
template <class T>
class GatheredBoxes {
 public:
  GatheredBoxes(const ColumnSorter<T>& columns, double fraction) : columns_(columns), fraction_(fraction) {}

  // Whether every one of `points` lies outside the box of gathered cluster `id` (g).
  bool all_outside(std::uint32_t id, const WorkingCluster<T>& g, const std::vector<std::uint32_t>& points) {
    const std::vector<Interval<T>>& box = of(id, g);
    const ColumnMatrix<T>& values = columns_.values();
    return std::all_of(points.begin(), points.end(), [&](std::uint32_t p) {
      for (std::size_t t = 0; t < box.size(); ++t) {
        const T v = values(static_cast<Eigen::Index>(p), static_cast<Eigen::Index>(g.dimensions[t]));
        if (v < box[t].low || v > box[t].high) return true;
      }
      return false;
    });
  }
  void changed(std::uint32_t id) {
    if (id < valid_.size()) valid_[id] = false;
  }

 private:
  const std::vector<Interval<T>>& of(std::uint32_t id, const WorkingCluster<T>& g) {
    if (id >= valid_.size()) valid_.resize(id + 1, false), boxes_.resize(id + 1);
    if (!valid_[id]) {
      boxes_[id].clear();
      for (std::size_t t = 0; t < g.dimensions.size(); ++t) {
        const Interval<T> span = central_span_of(columns_, g.columns[t], g.dimensions[t], fraction_);
        const T half = span.width() / T(2);
        boxes_[id].push_back({span.low - half, span.high + half});
      }
      valid_[id] = true;
    }
    return boxes_[id];
  }

  const ColumnSorter<T>& columns_;
  double fraction_;
  std::vector<std::vector<Interval<T>>> boxes_;
  std::vector<bool> valid_;
};

struct Candidate {
  double overlap = 0;
  std::uint32_t gathered = 0;
  std::uint32_t shared = 0;  // points in both
};

}  // namespace

template <class T>
std::vector<WorkingCluster<T>> gather_clusters(const ColumnSorter<T>& columns, std::vector<WorkingCluster<T>> clusters,
                                               const ConsolidateParams& params, JoinCounters& counters,
                                               const StageProgress& progress) {
  std::vector<std::uint32_t> order(clusters.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return interest_of(clusters[a]) > interest_of(clusters[b]);
  });

  std::vector<WorkingCluster<T>> gathered;
  PointHolders holders(columns.points());
  ClusterUnion<T> unite(columns, params);
  GatheredBoxes<T> boxes(columns, params.span_fraction);
  std::vector<std::uint32_t> counts, touched, lacks;
  std::vector<Candidate> candidates;
  constexpr std::uint64_t kReportEvery = 256;  // clusters between calls to progress
  for (std::size_t done = 0; done < order.size(); ++done) {
    if (done > 0 && done % kReportEvery == 0) progress.advance(kReportEvery);
    WorkingCluster<T>& c = clusters[order[done]];
    counts.resize(gathered.size(), 0);
    for (std::uint32_t p : c.points)
      holders.for_each(p, [&](std::uint32_t g) {
        if (counts[g]++ == 0) touched.push_back(g);
      });
    candidates.clear();
    for (std::uint32_t g : touched) {
      const std::size_t smaller = std::min(c.points.size(), gathered[g].points.size());
      const double overlap = static_cast<double>(counts[g]) / static_cast<double>(smaller);
      if (overlap >= params.overlap) candidates.push_back({overlap, g, counts[g]});
      counts[g] = 0;
    }
    touched.clear();
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      return a.overlap != b.overlap ? a.overlap > b.overlap : a.gathered < b.gathered;
    });
    counters.candidate_pairs += candidates.size();

    bool joined = false;
    for (const Candidate& candidate : candidates) {
      const std::uint32_t id = candidate.gathered;
      WorkingCluster<T>& g = gathered[id];
      const bool g_larger = ClusterUnion<T>::larger(g, c) == &g;
      if (g_larger) {
        // c's points that g lacks: as many as c has beyond the shared ones, so the search
        // stops at the last of them (and does not start for a c inside g). Looked up in g's
        // sorted points: a point's holders can be thousands of clusters where ties are many.
        lacks.clear();
        const std::size_t missing = c.points.size() - candidate.shared;
        for (auto p = c.points.begin(); lacks.size() < missing; ++p)
          if (!std::binary_search(g.points.begin(), g.points.end(), *p)) lacks.push_back(*p);
      } else {
        lacks = sorted_difference(g.points, c.points);
      }
      if (g_larger && contains(g.dimensions, c.dimensions) && (lacks.empty() || boxes.all_outside(id, g, lacks))) {
        // The join would bring no dimension, and no point that g's box would keep: c is
        // absorbed, g stands as it is (the exact join would trim the points c brings, and g's
        // box again, to a few points less at most).
        g.reference_span = std::max(g.reference_span, c.reference_span);
        g.sources += c.sources;
        g.extended = false;
        ++counters.joins;
        joined = true;
        break;
      }
      std::vector<std::uint32_t> before;
      if (!g_larger) before = g.points;  // the join starts from c's points: g's are replaced
      std::optional<WorkingCluster<T>> result = unite.join(g, c, lacks);
      if (!result) {
        ++counters.rejected;
        continue;
      }
      boxes.changed(id);
      holders.remove(id, g_larger ? unite.left_out() : before);
      g = std::move(*result);
      holders.add(id, g_larger ? unite.taken_in() : g.points);
      ++counters.joins;
      joined = true;
      break;
    }
    if (!joined) {
      holders.add(static_cast<std::uint32_t>(gathered.size()), c.points);
      gathered.push_back(std::move(c));
    }
  }
  if (!order.empty()) progress.advance(order.size() - (order.size() - 1) / kReportEvery * kReportEvery);
  return gathered;
}

template std::vector<WorkingCluster<float>> gather_clusters(const ColumnSorter<float>&,
                                                            std::vector<WorkingCluster<float>>,
                                                            const ConsolidateParams&, JoinCounters&,
                                                            const StageProgress&);
template std::vector<WorkingCluster<double>> gather_clusters(const ColumnSorter<double>&,
                                                             std::vector<WorkingCluster<double>>,
                                                             const ConsolidateParams&, JoinCounters&,
                                                             const StageProgress&);

}  // namespace subscale::consolidate
