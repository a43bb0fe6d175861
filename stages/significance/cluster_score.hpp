#pragma once
// The significance of a subspace cluster (S, P) under the data's own marginals.
//
// Box B: per dimension j of S, [min, max] of P's values. Under the null model (dimensions
// independent, each with the data's empirical marginal) a point falls in B with probability
// p0 = prod_{j in S} f_j, f_j the fraction of all points with x_j in [lo_j, hi_j]. The statistic
// is k = |P|. (The points of the whole data inside B would be at least |P| and so a stronger
// statistic, but |P| is what the bound before merge, subspace_bound.hpp, can bound by the
// subspace's own points; with |P| a cluster passes only where the box count would pass too, so
// the test stays valid, just slightly conservative.) Under the null k ~ Binomial(n, p0); the
// p-value is its
// upper tail P(X >= k), computed exactly in log space. The corrected p-value multiplies it by the
// family size of search_correction.hpp; score = -log10 of the corrected p-value, capped at 0 (a
// higher score is a stronger cluster; significant when score >= -log10 alpha).
//
// A cluster of two dimensions can also be judged by a rectangle turned to its own axis
// (turned_rectangle.hpp), with that shape's mass and family; its score is then the better of the
// two. Merge's clusters, and the bounds that skip work before and during merge, use boxes alone:
// a turned rectangle can hold k points at a mass of only k / n^2, and no bound that weak skips
// anything. The consolidated clusters, the ones reported, are judged by both shapes.
#include <cstdint>
#include <span>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/marginals.hpp"

namespace subscale::significance {

struct ClusterScore {
  std::uint32_t points = 0;  // k = |P|
  double log10_p0 = 0;       // log10 of the box's mass under the null
  double log10_p = 0;        // log10 of the raw p-value, P(Binomial(n, p0) >= k)
  double log10_search = 0;   // log10 of the family size the test is corrected for
  double score = 0;          // -log10 min(1, p * family size): 0 for nothing, higher is stronger
  bool turned = false;       // the mass and family are those of the turned rectangle
};

enum class Shapes {
  boxes,            // the axis-parallel box
  boxes_and_turned  // and, in two dimensions, the turned rectangle where it scores higher
};

// One cluster; its dimensions and points sorted and in range (callers check).
template <class T>
ClusterScore score_cluster(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster,
                           Shapes shapes = Shapes::boxes);

// Every cluster, in parallel; the result does not depend on the number of threads.
template <class T>
std::vector<ClusterScore> score_clusters(const ColumnMatrix<T>& values, const Marginals& marginals,
                                         const std::vector<SubspaceCluster>& clusters, Shapes shapes = Shapes::boxes);

// The score a cluster found on a sample of `sample_points` points predicts for an input of
// `scale` x as many (predicted_log_tail): its box's mass and family size as on the sample.
ClusterScore predicted_for_input(ClusterScore on_sample, std::uint32_t sample_points, double scale);

// The score from the raw tail and the family size, both natural logarithms.
double score_of(double log_p, double log_search_size);

// The score before it is cut at 0: -log10(p * family size). Searches that climb the score climb
// this, so that a cluster that scores 0 can still be told from a stronger one that scores 0 too.
inline double uncut_score(const ClusterScore& score) { return -(score.log10_p + score.log10_search); }

}  // namespace subscale::significance
