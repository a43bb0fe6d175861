#include "stages/significance/cluster_score.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "stages/significance/binomial_tail.hpp"
#include "stages/significance/point_range.hpp"
#include "stages/significance/search_correction.hpp"
#include "stages/significance/turned_rectangle.hpp"

namespace subscale::significance {
namespace {

const double kLn10 = std::log(10.0);

struct Box {
  std::vector<double> lo, hi;
};

template <class T>
Box box_of(const ColumnMatrix<T>& values, const SubspaceCluster& cluster) {
  Box box;
  for (const auto j : cluster.dimensions) {
    const auto range = range_of(values, cluster.points, j);
    box.lo.push_back(range.lo);
    box.hi.push_back(range.hi);
  }
  return box;
}

}  // namespace

double score_of(double log_p, double log_search_size) {
  const double corrected = std::min(0.0, log_p + log_search_size);
  return corrected == 0.0 ? 0.0 : -corrected / kLn10;
}

ClusterScore predicted_for_input(ClusterScore on_sample, std::uint32_t sample_points, double scale) {
  if (on_sample.points == 0) return on_sample;
  const double log_p = predicted_log_tail(sample_points, on_sample.log10_p0 * kLn10, on_sample.points, scale);
  on_sample.log10_p = log_p / kLn10;
  on_sample.score = score_of(log_p, on_sample.log10_search * kLn10);
  return on_sample;
}

namespace {

ClusterScore scored(std::uint32_t n, std::uint32_t points, double log_p0, double log_m) {
  ClusterScore score;
  score.points = points;
  const double log_p = log_binomial_upper_tail(n, log_p0, points);
  score.log10_p0 = log_p0 / kLn10;
  score.log10_p = log_p / kLn10;
  score.log10_search = log_m / kLn10;
  score.score = score_of(log_p, log_m);
  return score;
}

}  // namespace

template <class T>
ClusterScore score_cluster(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster,
                           Shapes shapes) {
  if (cluster.points.empty() || cluster.dimensions.empty()) return {};
  const Box box = box_of(values, cluster);
  double log_p0 = 0;
  for (std::size_t i = 0; i < cluster.dimensions.size(); ++i)
    log_p0 += std::log(marginals.mass(cluster.dimensions[i], box.lo[i], box.hi[i]));
  const auto k = static_cast<std::uint32_t>(cluster.points.size());
  ClusterScore score = scored(marginals.points(), k, log_p0, log_search_size(marginals, cluster.dimensions));
  if (shapes == Shapes::boxes || cluster.dimensions.size() != 2) return score;
  const auto rectangle = turned_rectangle(values, marginals, cluster);
  if (!rectangle) return score;
  ClusterScore turned = scored(marginals.points(), k, rectangle->log_p0, log_turned_search_size(marginals));
  turned.turned = true;
  return uncut_score(turned) > uncut_score(score) ? turned : score;
}

template <class T>
std::vector<ClusterScore> score_clusters(const ColumnMatrix<T>& values, const Marginals& marginals,
                                         const std::vector<SubspaceCluster>& clusters, Shapes shapes) {
  std::vector<ClusterScore> scores(clusters.size());
  tbb::parallel_for(std::size_t{0}, clusters.size(),
                    [&](std::size_t i) { scores[i] = score_cluster(values, marginals, clusters[i], shapes); });
  return scores;
}

template ClusterScore score_cluster(const ColumnMatrix<float>&, const Marginals&, const SubspaceCluster&, Shapes);
template ClusterScore score_cluster(const ColumnMatrix<double>&, const Marginals&, const SubspaceCluster&, Shapes);
template std::vector<ClusterScore> score_clusters(const ColumnMatrix<float>&, const Marginals&,
                                                  const std::vector<SubspaceCluster>&, Shapes);
template std::vector<ClusterScore> score_clusters(const ColumnMatrix<double>&, const Marginals&,
                                                  const std::vector<SubspaceCluster>&, Shapes);

}  // namespace subscale::significance
