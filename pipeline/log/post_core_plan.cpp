#include "pipeline/log/post_core_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pipeline/log/log_format.hpp"

namespace subscale::pipeline {

std::string post_core_plan_text(const PostCoreInputs& in) {
  if (!in.merge) return "";
  // Every point a subspace holds comes from a unit found in it, which brings at most min_points
  // points; and a subspace holds at most n points.
  const double by_units = in.multi_units * in.min_points;
  const double by_subspaces = static_cast<double>(in.subspaces_at_most) * static_cast<double>(in.points);
  const auto points_at_most = static_cast<std::uint64_t>(std::min(by_units, by_subspaces));
  const std::uint64_t points_at_least = in.subspaces_at_least * in.min_points;
  std::string text =
      "after the core (bounds, not a forecast: merge and consolidation work on the subspaces the core "
      "finds, which only the run counts; the log shows their progress):\n";
  text += "  merge: " +
          (in.exact ? format_count(in.subspaces_at_least) + " subspaces (counted)"
                    : "from " + format_count(in.subspaces_at_least) + " subspaces (found in the sample) to " +
                          format_count(in.subspaces_at_most) + " (the bound above)") +
          ", DBSCAN on their points: from " + format_count(points_at_least) + " to " + format_count(points_at_most) +
          " points in all (each unit in >= 2 dimensions brings at most min_points = " + std::to_string(in.min_points) +
          " points to its subspace, which holds at most " + std::to_string(in.points) +
          "); its time grows with these points\n";
  if (in.significance) {
    char chance[32];
    std::snprintf(chance, sizeof chance, "%.3g", in.chance_dimensions);
    const std::uint64_t pairs = static_cast<std::uint64_t>(in.dimensions) * (in.dimensions - (in.dimensions > 0)) / 2;
    text += std::string("  pooling: a dense unit holds ") + chance +
            " dimensions by chance (units / C(n, min_points)); " +
            (in.chance_dimensions > 1.0
                 ? "over one, so the run pools the subspaces into their pairs of dimensions before merge (at most " +
                       format_count(pairs) +
                       " pairs; the work is the sum over subspaces of C(|S|, 2) x their points, not done over " +
                       format_count(in.pooling_budget) + ")\n"
                 : "at most one, so the subspaces go to merge as the core finds them\n");
  }
  if (!in.consolidate) return text;
  const std::uint64_t clusters_at_most = points_at_most / std::max<std::uint32_t>(1, in.merge_min_points);
  text += "  consolidate: at most " + format_count(clusters_at_most) +
          " clusters from merge (one per merge.min_points = " + std::to_string(in.merge_min_points) +
          " points at most); gathering them costs about clusters x their points x the clusters sharing a point, so "
          "it grows with the square of merge's clusters where they share the same few of the " +
          std::to_string(in.points) + " points (ties)\n";
  return text;
}

}  // namespace subscale::pipeline
