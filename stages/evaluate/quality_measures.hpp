#pragma once
// Stage evaluate (docs/method.md §11): a found clustering against hidden clusters (ground truth).
// Clusters are (dimensions S, points O); a micro-object is a pair (point, dimension), and a
// cluster covers the |O| x |S| micro-objects O x S.
//
// F1 (OpenSubspace's "F1Measure", weka.clusterquality.F1Measure in the OpenSubspace Weka plugin
//    of Müller, Günnemann, Assent, Seidl, VLDB 2009; the measure Günnemann et al. call
//    F1-Merge). Objects only, dimensions ignored:
//    1. each found cluster F is mapped to the hidden cluster H maximising |F ∩ H|^2 / |H|
//       (OpenSubspace's "Variante 2"; ties go to the first hidden cluster, as its strict >);
//    2. per hidden cluster, the found clusters mapped to it are merged (union of points) into U;
//    3. F1(H) = 2 |U ∩ H| / (|U| + |H|) (0 when nothing maps to H);
//    4. F1 = the mean of F1(H) over the hidden clusters.
//    OpenSubspace runs this over the class labels of the ARFF, noise being one more class. Here
//    the classes are the hidden clusters (which may overlap and nest), and points in no hidden
//    cluster form no class: a found cluster that shares no point with any hidden cluster is
//    mapped to none. 1 is best. Note that F1-Merge does not penalise a split cluster.
// F1-R (Günnemann et al., CIKM 2011, "F1-Recall"): the mean over hidden clusters H of
//    max over found F of 2 |F ∩ H| / (|F| + |H|). Objects only. 1 is best.
// RNIA (Patrikainen & Meila, TKDE 2006): with c_F(o, d) and c_H(o, d) the number of found and
//    hidden clusters covering micro-object (o, d), U = sum max(c_F, c_H), I = sum min(c_F, c_H),
//    RNIA = (U - I) / U. 0 is best (OpenSubspace prints 1 - RNIA).
// CE (Patrikainen & Meila, TKDE 2006): M(H, F) = |O_H ∩ O_F| * |S_H ∩ S_F| (shared
//    micro-objects), D_max = the weight of a maximum-weight one-to-one matching of hidden to
//    found clusters on M (Hungarian method, assignment.hpp), CE = (U - D_max) / U. 0 is best
//    (OpenSubspace prints 1 - CE).
// E4SC (Günnemann et al., CIKM 2011): F1 on micro-objects, F1(A, B) = 2 |A ∩ B| / (|A| + |B|);
//    R = mean over hidden H of max over found F of F1(H, F), P = mean over found F of max over
//    hidden H of F1(F, H); E4SC = 2 R P / (R + P) (0 when R + P = 0 or nothing was found).
//    1 is best.
// Coverage (OpenSubspace's "Coverage"): the fraction of the n points in at least one found
//    cluster.
// When found and hidden both cover no micro-object, U = 0 and RNIA = CE = 0.
#include <cstdint>
#include <ostream>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale::evaluate {

struct QualityMeasures {
  double f1 = 0.0;         // OpenSubspace F1 (F1-Merge); 1 is best
  double f1_recall = 0.0;  // F1-R; 1 is best
  double e4sc = 0.0;       // 1 is best
  double rnia = 0.0;       // 0 is best
  double ce = 0.0;         // 0 is best
  double coverage = 0.0;   // fraction of points in some found cluster
  std::size_t found_clusters = 0;
  std::size_t hidden_clusters = 0;
};

// `found` and `hidden` hold sorted, duplicate-free dimensions < n_dims and points < n_points.
// Throws InputError when a cluster names a point or dimension out of range, when n_points is 0,
// or when `hidden` is empty (nothing to compare with).
QualityMeasures evaluate(const std::vector<SubspaceCluster>& found, const std::vector<SubspaceCluster>& hidden,
                         std::size_t n_points, std::size_t n_dims);

// A small table of the measures, one a line, with the direction that is best.
void print_quality_table(std::ostream& out, const QualityMeasures& measures);

}  // namespace subscale::evaluate
