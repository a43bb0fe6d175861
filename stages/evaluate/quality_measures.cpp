#include "stages/evaluate/quality_measures.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "common/error.hpp"
#include "stages/evaluate/assignment.hpp"

namespace subscale::evaluate {
namespace {

void check_clusters(const std::vector<SubspaceCluster>& clusters, const char* which, std::size_t n_points,
                    std::size_t n_dims) {
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    const auto where = [&] { return std::string("evaluate: ") + which + " cluster #" + std::to_string(c); };
    for (std::size_t i = 0; i < clusters[c].points.size(); ++i) {
      const std::uint32_t p = clusters[c].points[i];
      if (p >= n_points) {
        throw InputError(where() + " holds point " + std::to_string(p) + ", but the data has " +
                         std::to_string(n_points) + " points; does the ground truth belong to this data set?");
      }
      if (i > 0 && p <= clusters[c].points[i - 1]) {
        throw InputError(where() + " has points that are not sorted ascending without repeats");
      }
    }
    for (std::size_t i = 0; i < clusters[c].dimensions.size(); ++i) {
      const std::uint32_t d = clusters[c].dimensions[i];
      if (d >= n_dims) {
        throw InputError(where() + " lives in dimension " + std::to_string(d) + ", but the data has " +
                         std::to_string(n_dims) + " dimensions; does the ground truth belong to this data set?");
      }
      if (i > 0 && d <= clusters[c].dimensions[i - 1]) {
        throw InputError(where() + " has dimensions that are not sorted ascending without repeats");
      }
    }
  }
}

// 2 a / (b + c), 0 when the numerator is 0 (also covers b + c == 0).
double f1_of(std::uint64_t shared, std::uint64_t size_a, std::uint64_t size_b) {
  if (shared == 0) return 0.0;
  return 2.0 * static_cast<double>(shared) / static_cast<double>(size_a + size_b);
}

// For every found cluster, the hidden clusters it shares points with and how many, ascending by
// hidden index. Built from an inverted index (point -> hidden clusters holding it), so the cost is
// the total size of the found clusters times the typical number of hidden clusters per point.
struct Overlap {
  std::uint32_t hidden;
  std::uint64_t shared_points;
  std::uint64_t shared_dims;
};

std::vector<std::vector<Overlap>> overlaps(const std::vector<SubspaceCluster>& found,
                                           const std::vector<SubspaceCluster>& hidden, std::size_t n_points,
                                           std::size_t n_dims) {
  std::vector<std::uint32_t> offsets(n_points + 1, 0);
  for (const auto& h : hidden)
    for (std::uint32_t p : h.points) ++offsets[p + 1];
  for (std::size_t p = 0; p < n_points; ++p) offsets[p + 1] += offsets[p];
  std::vector<std::uint32_t> members(offsets[n_points]);
  std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
  for (std::uint32_t h = 0; h < hidden.size(); ++h)
    for (std::uint32_t p : hidden[h].points) members[fill[p]++] = h;

  std::vector<std::vector<std::uint8_t>> hidden_has_dim(hidden.size(), std::vector<std::uint8_t>(n_dims, 0));
  for (std::size_t h = 0; h < hidden.size(); ++h)
    for (std::uint32_t d : hidden[h].dimensions) hidden_has_dim[h][d] = 1;

  std::vector<std::vector<Overlap>> result(found.size());
  std::vector<std::uint64_t> count(hidden.size(), 0);
  std::vector<std::uint32_t> touched;
  for (std::size_t f = 0; f < found.size(); ++f) {
    touched.clear();
    for (std::uint32_t p : found[f].points) {
      for (std::uint32_t k = offsets[p]; k < offsets[p + 1]; ++k) {
        if (count[members[k]]++ == 0) touched.push_back(members[k]);
      }
    }
    std::sort(touched.begin(), touched.end());
    for (std::uint32_t h : touched) {
      std::uint64_t dims = 0;
      for (std::uint32_t d : found[f].dimensions) dims += hidden_has_dim[h][d];
      result[f].push_back({h, count[h], dims});
      count[h] = 0;
    }
  }
  return result;
}

// OpenSubspace's F1Measure with hidden clusters as the classes (see the header).
double opensubspace_f1(const std::vector<SubspaceCluster>& found, const std::vector<SubspaceCluster>& hidden,
                       const std::vector<std::vector<Overlap>>& overlap, std::size_t n_points) {
  std::vector<std::vector<std::uint32_t>> mapped(hidden.size());
  for (std::size_t f = 0; f < found.size(); ++f) {
    double best_value = 0.0;
    std::int64_t best = -1;
    for (const Overlap& o : overlap[f]) {  // ascending hidden index: ties keep the first
      const double shared = static_cast<double>(o.shared_points);
      const double value = shared * shared / static_cast<double>(hidden[o.hidden].points.size());
      if (value > best_value) {
        best_value = value;
        best = o.hidden;
      }
    }
    if (best >= 0) mapped[static_cast<std::size_t>(best)].push_back(static_cast<std::uint32_t>(f));
  }
  // Per hidden cluster: |U| and |U ∩ H| with a stamp array instead of building U.
  std::vector<std::uint32_t> in_union(n_points, 0), in_hidden(n_points, 0);
  double sum = 0.0;
  for (std::uint32_t h = 0; h < hidden.size(); ++h) {
    const std::uint32_t stamp = h + 1;
    for (std::uint32_t p : hidden[h].points) in_hidden[p] = stamp;
    std::uint64_t union_size = 0, shared = 0;
    for (std::uint32_t f : mapped[h]) {
      for (std::uint32_t p : found[f].points) {
        if (in_union[p] == stamp) continue;
        in_union[p] = stamp;
        ++union_size;
        if (in_hidden[p] == stamp) ++shared;
      }
    }
    sum += f1_of(shared, union_size, hidden[h].points.size());
  }
  return sum / static_cast<double>(hidden.size());
}

// U and I of RNIA, dimension by dimension, touching only covered micro-objects.
struct UnionIntersection {
  std::uint64_t union_size = 0;
  std::uint64_t intersection = 0;
};

UnionIntersection micro_object_union(const std::vector<SubspaceCluster>& found,
                                     const std::vector<SubspaceCluster>& hidden, std::size_t n_points,
                                     std::size_t n_dims) {
  std::vector<std::vector<std::uint32_t>> found_in_dim(n_dims), hidden_in_dim(n_dims);
  for (std::uint32_t f = 0; f < found.size(); ++f)
    for (std::uint32_t d : found[f].dimensions) found_in_dim[d].push_back(f);
  for (std::uint32_t h = 0; h < hidden.size(); ++h)
    for (std::uint32_t d : hidden[h].dimensions) hidden_in_dim[d].push_back(h);

  UnionIntersection result;
  std::vector<std::uint32_t> found_count(n_points, 0), hidden_count(n_points, 0), touched;
  for (std::size_t d = 0; d < n_dims; ++d) {
    touched.clear();
    for (std::uint32_t f : found_in_dim[d]) {
      for (std::uint32_t p : found[f].points) {
        if (found_count[p]++ == 0 && hidden_count[p] == 0) touched.push_back(p);
      }
    }
    for (std::uint32_t h : hidden_in_dim[d]) {
      for (std::uint32_t p : hidden[h].points) {
        if (hidden_count[p]++ == 0 && found_count[p] == 0) touched.push_back(p);
      }
    }
    for (std::uint32_t p : touched) {
      result.union_size += std::max(found_count[p], hidden_count[p]);
      result.intersection += std::min(found_count[p], hidden_count[p]);
      found_count[p] = hidden_count[p] = 0;
    }
  }
  return result;
}

}  // namespace

QualityMeasures evaluate(const std::vector<SubspaceCluster>& found, const std::vector<SubspaceCluster>& hidden,
                         std::size_t n_points, std::size_t n_dims) {
  if (n_points == 0) throw InputError("evaluate: the data has no points");
  if (hidden.empty()) {
    throw InputError(
        "evaluate: the ground truth holds no hidden clusters, so there is nothing to compare with; "
        "check ground_truth.path");
  }
  check_clusters(found, "found", n_points, n_dims);
  check_clusters(hidden, "hidden", n_points, n_dims);

  QualityMeasures m;
  m.found_clusters = found.size();
  m.hidden_clusters = hidden.size();
  const auto overlap = overlaps(found, hidden, n_points, n_dims);

  m.f1 = opensubspace_f1(found, hidden, overlap, n_points);

  // F1-R (objects) and E4SC (micro-objects) share the pairwise overlaps.
  std::vector<double> best_object_f1(hidden.size(), 0.0), best_micro_for_hidden(hidden.size(), 0.0);
  double found_side = 0.0;
  for (std::size_t f = 0; f < found.size(); ++f) {
    const std::uint64_t found_micro = found[f].points.size() * found[f].dimensions.size();
    double best_micro_for_found = 0.0;
    for (const Overlap& o : overlap[f]) {
      const SubspaceCluster& h = hidden[o.hidden];
      best_object_f1[o.hidden] =
          std::max(best_object_f1[o.hidden], f1_of(o.shared_points, found[f].points.size(), h.points.size()));
      const double micro = f1_of(o.shared_points * o.shared_dims, found_micro, h.points.size() * h.dimensions.size());
      best_micro_for_hidden[o.hidden] = std::max(best_micro_for_hidden[o.hidden], micro);
      best_micro_for_found = std::max(best_micro_for_found, micro);
    }
    found_side += best_micro_for_found;
  }
  double recall_side = 0.0, f1_recall = 0.0;
  for (std::size_t h = 0; h < hidden.size(); ++h) {
    f1_recall += best_object_f1[h];
    recall_side += best_micro_for_hidden[h];
  }
  m.f1_recall = f1_recall / static_cast<double>(hidden.size());
  recall_side /= static_cast<double>(hidden.size());
  if (!found.empty()) {
    found_side /= static_cast<double>(found.size());
    if (recall_side + found_side > 0.0) m.e4sc = 2.0 * recall_side * found_side / (recall_side + found_side);
  }

  // RNIA and CE.
  const UnionIntersection ui = micro_object_union(found, hidden, n_points, n_dims);
  // The matching only needs found clusters that share a micro-object with some hidden cluster.
  std::vector<std::size_t> columns;
  for (std::size_t f = 0; f < found.size(); ++f) {
    for (const Overlap& o : overlap[f]) {
      if (o.shared_dims > 0) {
        columns.push_back(f);
        break;
      }
    }
  }
  std::vector<std::int64_t> weights(hidden.size() * columns.size(), 0);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    for (const Overlap& o : overlap[columns[c]]) {
      weights[o.hidden * columns.size() + c] = static_cast<std::int64_t>(o.shared_points * o.shared_dims);
    }
  }
  const std::int64_t d_max = max_weight_assignment(weights, hidden.size(), columns.size()).total;
  if (ui.union_size > 0) {
    const double u = static_cast<double>(ui.union_size);
    m.rnia = static_cast<double>(ui.union_size - ui.intersection) / u;
    m.ce = (u - static_cast<double>(d_max)) / u;
  }

  std::vector<std::uint8_t> covered(n_points, 0);
  std::size_t covered_count = 0;
  for (const auto& f : found) {
    for (std::uint32_t p : f.points) {
      if (!covered[p]) {
        covered[p] = 1;
        ++covered_count;
      }
    }
  }
  m.coverage = static_cast<double>(covered_count) / static_cast<double>(n_points);
  return m;
}

void print_quality_table(std::ostream& out, const QualityMeasures& m) {
  char line[128];
  const auto row = [&](const char* name, double value, const char* best, const char* note) {
    std::snprintf(line, sizeof line, "  %-9s %8.4f   %-5s %s\n", name, value, best, note);
    out << line;
  };
  out << "quality against " << m.hidden_clusters << " hidden clusters (" << m.found_clusters << " found)\n";
  out << "  measure      value   best\n";
  row("F1", m.f1, "1", "(OpenSubspace F1, found clusters merged per hidden cluster)");
  row("F1-R", m.f1_recall, "1", "(best found cluster per hidden cluster)");
  row("E4SC", m.e4sc, "1", "");
  char note[64];
  std::snprintf(note, sizeof note, "(1-RNIA = %.4f)", 1.0 - m.rnia);
  row("RNIA", m.rnia, "0", note);
  std::snprintf(note, sizeof note, "(1-CE = %.4f)", 1.0 - m.ce);
  row("CE", m.ce, "0", note);
  row("coverage", m.coverage, "", "(fraction of points in a found cluster)");
}

}  // namespace subscale::evaluate
