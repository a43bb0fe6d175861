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

struct Candidate {
  double overlap = 0;
  std::uint32_t gathered = 0;
  std::uint32_t shared = 0;  // points in both
};

}  // namespace

template <class T>
std::vector<WorkingCluster<T>> gather_clusters(const ColumnSorter<T>& columns, std::vector<WorkingCluster<T>> clusters,
                                               const ConsolidateParams& params, JoinCounters& counters) {
  std::vector<std::uint32_t> order(clusters.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return interest_of(clusters[a]) > interest_of(clusters[b]);
  });

  std::vector<WorkingCluster<T>> gathered;
  PointHolders holders(columns.points());
  ClusterUnion<T> unite(columns, params);
  std::vector<std::uint32_t> counts, touched, lacks;
  std::vector<Candidate> candidates;
  for (std::uint32_t index : order) {
    WorkingCluster<T>& c = clusters[index];
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
        // stops at the last of them (and does not start for a c inside g).
        lacks.clear();
        const std::size_t missing = c.points.size() - candidate.shared;
        for (auto p = c.points.begin(); lacks.size() < missing; ++p)
          if (!holders.holds(*p, id)) lacks.push_back(*p);
      } else {
        lacks = sorted_difference(g.points, c.points);
      }
      if (g_larger && lacks.empty() && contains(g.dimensions, c.dimensions)) {
        // The join would bring neither a point nor a dimension: c is absorbed as it stands
        // (the exact join would only trim g's box again, to a few points less at most).
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
  return gathered;
}

template std::vector<WorkingCluster<float>> gather_clusters(const ColumnSorter<float>&,
                                                            std::vector<WorkingCluster<float>>,
                                                            const ConsolidateParams&, JoinCounters&);
template std::vector<WorkingCluster<double>> gather_clusters(const ColumnSorter<double>&,
                                                             std::vector<WorkingCluster<double>>,
                                                             const ConsolidateParams&, JoinCounters&);

}  // namespace subscale::consolidate
