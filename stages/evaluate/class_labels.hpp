#pragma once
// Found clusters scored against class labels (docs/method.md §11), as the OpenSubspace evaluation
// study (Müller, Günnemann, Assent, Seidl, VLDB 2009) scores its real-world data: each class is a
// hidden cluster of its points in every dimension, and F1 and E4SC of quality_measures.hpp compare
// the found clusters with those. A point labelled -1 (an empty or `?` cell of a label column) is
// in no class, as the points of no hidden cluster are.
#include <cstdint>
#include <ostream>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale::evaluate {

inline constexpr std::int64_t kNoClass = -1;

struct ClassMeasures {
  double f1 = 0.0;    // OpenSubspace F1 against the classes; 1 is best
  double e4sc = 0.0;  // 1 is best
  std::size_t found_clusters = 0;
  std::size_t classes = 0;
  std::size_t labelled_points = 0;  // points in some class
};

// One hidden cluster per distinct label other than kNoClass, in ascending label order, each in
// all `n_dims` dimensions.
std::vector<SubspaceCluster> classes_as_hidden_clusters(const std::vector<std::int64_t>& labels, std::size_t n_dims);

// `labels` holds one label per point (point ids index it). Throws InputError when a found cluster
// names a point or dimension beyond the labels or `n_dims`, or when no point has a class.
ClassMeasures evaluate_against_classes(const std::vector<SubspaceCluster>& found,
                                       const std::vector<std::int64_t>& labels, std::size_t n_dims);

void print_class_table(std::ostream& out, const ClassMeasures& measures);

}  // namespace subscale::evaluate
