#include "stages/significance/denser_parts.hpp"

#include <tbb/parallel_for.h>

#include <cmath>
#include <limits>
#include <utility>

#include "stages/merge/neighbour_graph.hpp"
#include "stages/merge/subspace_dbscan.hpp"
#include "stages/significance/keep_significant.hpp"
#include "stages/significance/search_correction.hpp"
#include "stages/significance/subspace_bound.hpp"

namespace subscale::significance {
// Named, not anonymous: the unity build includes this file into another, and a lambda's capture of
// an anonymous-namespace type in a template is then a warning.
namespace denser {

// Parts this large are clustered with oneTBB's threads inside them too.
constexpr std::size_t kParallelPoints = 4096;

// A cluster's neighbour graph is kept (neighbour_graph.hpp) up to this many edges (64 MiB); a
// cluster with more is clustered afresh at each min_points.
constexpr std::size_t kMaxGraphEdges = std::size_t{1} << 24;

// The best cut of a part's tree: the parts chosen and the sum of their scores.
struct Cut {
  double worth = 0;
  std::vector<SubspaceCluster> parts;
};

template <class T>
class Splitter {
 public:
  Splitter(const ColumnMatrix<T>& values, const Marginals& marginals, double epsilon, const TestParams& params)
      : values_(values), marginals_(marginals), epsilon_(epsilon), params_(params) {}

  // The score of a cluster that passes, 0 for one that fails.
  double passing_score(const SubspaceCluster& cluster) const {
    const double score = gathering_score(values_, marginals_, cluster, params_).score;
    return score >= -std::log10(params_.alpha) ? score : 0;
  }

  // The best cut inside `cluster`, through its neighbour graph where that fits.
  Cut best_cut(const SubspaceCluster& cluster, std::size_t min_points) const {
    if (min_points > kMaxSplitMinPoints || cluster.points.size() < min_points) return {};
    const auto graph =
        merge::NeighbourGraph::of(values_, cluster, epsilon_, kMaxGraphEdges, cluster.points.size() >= kParallelPoints);
    if (!graph) return best_cut_inside(cluster, min_points);
    return best_cut_in_graph(*graph, graph->all_places(), cluster.points.size(), min_points);
  }

  // The same as best_cut_inside, for the part of a graph's cluster on `places` (of `points` points).
  Cut best_cut_in_graph(const merge::NeighbourGraph& graph, const std::vector<std::uint32_t>& places,
                        std::size_t points, std::size_t min_points) const {
    Cut cut;
    if (min_points > kMaxSplitMinPoints || points < min_points) return cut;
    for (auto& split : graph.dbscan(places, min_points)) {
      SubspaceCluster part{graph.dimensions(), std::move(split.points)};
      Cut below = best_cut_in_graph(graph, split.places, part.points.size(), 2 * min_points);
      choose(cut, std::move(part), std::move(below));
    }
    return cut;
  }

  // The best cut inside `cluster`, whose parts are its DBSCAN clusters at `min_points`.
  Cut best_cut_inside(const SubspaceCluster& cluster, std::size_t min_points) const {
    Cut cut;
    if (min_points > kMaxSplitMinPoints || cluster.points.size() < min_points) return cut;
    auto split =
        merge::dbscan_in_subspace(values_, cluster, epsilon_, min_points, cluster.points.size() >= kParallelPoints);
    for (auto& members : split.clusters) {
      SubspaceCluster part{cluster.dimensions, std::move(members)};
      Cut below = best_cut_inside(part, 2 * min_points);
      choose(cut, std::move(part), std::move(below));
    }
    return cut;
  }

  // Adds to `cut` either `part` or the best cut below it, whichever is worth more; the part where
  // it passes and is worth at least as much.
  void choose(Cut& cut, SubspaceCluster part, Cut below) const {
    const double score = passing_score(part);
    if (score > 0 && score >= below.worth) {
      cut.worth += score;
      cut.parts.push_back(std::move(part));
    } else {
      cut.worth += below.worth;
      for (auto& chosen : below.parts) cut.parts.push_back(std::move(chosen));
    }
  }

 private:
  const ColumnMatrix<T>& values_;
  const Marginals& marginals_;
  double epsilon_;
  TestParams params_;
};

}  // namespace denser

bool part_can_pass(const Marginals& marginals, std::span<const std::uint32_t> dimensions, std::size_t points,
                   std::size_t min_points, const TestParams& params) {
  const std::vector<double> no_floors(dimensions.size(), -std::numeric_limits<double>::infinity());
  const double best = best_score_within(marginals.points(), no_floors, log_search_size(marginals, dimensions),
                                        static_cast<std::uint32_t>(min_points), static_cast<std::uint32_t>(points),
                                        params.sample_scale);
  // The bound and the score sum the same logarithms in another order: a little margin.
  return best + 1e-6 >= -std::log10(params.alpha);
}

template <class T>
DenserParts denser_parts(const ColumnMatrix<T>& values, const Marginals& marginals,
                         const std::vector<SubspaceCluster>& clusters, double epsilon, std::size_t min_points,
                         const TestParams& params) {
  const denser::Splitter<T> splitter(values, marginals, epsilon, params);
  std::vector<std::size_t> large;
  for (std::size_t i = 0; i < clusters.size(); ++i)
    if (clusters[i].points.size() >= kSplitPoints) large.push_back(i);
  std::vector<denser::Cut> cuts(large.size());
  tbb::parallel_for(std::size_t{0}, large.size(), [&](std::size_t i) {
    const SubspaceCluster& cluster = clusters[large[i]];
    const std::size_t first = 2 * std::max<std::size_t>(min_points, 1);
    if (!part_can_pass(marginals, cluster.dimensions, cluster.points.size(), first, params)) return;
    if (splitter.passing_score(cluster) > 0) return;  // it passes as it is
    cuts[i] = splitter.best_cut(cluster, first);
  });
  DenserParts out;
  for (auto& cut : cuts) {
    if (cut.parts.empty()) continue;
    ++out.clusters_split;
    for (auto& part : cut.parts) out.parts.push_back(std::move(part));
  }
  return out;
}

template DenserParts denser_parts(const Matrix32&, const Marginals&, const std::vector<SubspaceCluster>&, double,
                                  std::size_t, const TestParams&);
template DenserParts denser_parts(const Matrix&, const Marginals&, const std::vector<SubspaceCluster>&, double,
                                  std::size_t, const TestParams&);

}  // namespace subscale::significance
