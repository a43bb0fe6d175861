#include "stages/evaluate/class_labels.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>

#include "common/error.hpp"
#include "stages/evaluate/quality_measures.hpp"

namespace subscale::evaluate {

std::vector<SubspaceCluster> classes_as_hidden_clusters(const std::vector<std::int64_t>& labels, std::size_t n_dims) {
  std::map<std::int64_t, std::vector<std::uint32_t>> members;
  for (std::size_t p = 0; p < labels.size(); ++p)
    if (labels[p] != kNoClass) members[labels[p]].push_back(static_cast<std::uint32_t>(p));
  std::vector<std::uint32_t> every_dimension(n_dims);
  std::iota(every_dimension.begin(), every_dimension.end(), std::uint32_t{0});
  std::vector<SubspaceCluster> classes;
  classes.reserve(members.size());
  for (auto& [label, points] : members) classes.push_back({every_dimension, std::move(points)});
  return classes;
}

ClassMeasures evaluate_against_classes(const std::vector<SubspaceCluster>& found,
                                       const std::vector<std::int64_t>& labels, std::size_t n_dims) {
  const std::vector<SubspaceCluster> classes = classes_as_hidden_clusters(labels, n_dims);
  if (classes.empty())
    throw InputError("evaluate: none of the " + std::to_string(labels.size()) +
                     " labels names a class (every one is -1, empty or ?); give the column that holds the classes");
  for (std::size_t c = 0; c < found.size(); ++c)
    if (!found[c].points.empty() && found[c].points.back() >= labels.size())
      throw InputError("evaluate: found cluster #" + std::to_string(c) + " holds point " +
                       std::to_string(found[c].points.back()) + ", but there are " + std::to_string(labels.size()) +
                       " labels (one per point); give one label per point of the data");
  const QualityMeasures m = evaluate(found, classes, labels.size(), n_dims);
  ClassMeasures result;
  result.f1 = m.f1;
  result.e4sc = m.e4sc;
  result.found_clusters = m.found_clusters;
  result.classes = classes.size();
  for (const auto& c : classes) result.labelled_points += c.points.size();
  return result;
}

void print_class_table(std::ostream& out, const ClassMeasures& m) {
  char line[128];
  out << "quality against " << m.classes << " classes (" << m.labelled_points << " labelled points, each class a "
      << "cluster in every dimension; " << m.found_clusters << " clusters found)\n";
  out << "  measure      value   best\n";
  std::snprintf(line, sizeof line, "  %-9s %8.4f   %-5s %s\n", "F1", m.f1, "1",
                "(OpenSubspace F1, found clusters merged per class)");
  out << line;
  std::snprintf(line, sizeof line, "  %-9s %8.4f   %s\n", "E4SC", m.e4sc, "1");
  out << line;
}

}  // namespace subscale::evaluate
