#pragma once
// Pairs of clusters whose point sets overlap strongly: |O_a ∩ O_b| / min(|O_a|, |O_b|) >= threshold
// (the overlap coefficient; containment of the smaller set in the larger). Jaccard would miss the
// projections of one cluster that each hold 60-70% of its points: two of them share about half
// of their points but only a third to a half of their union.
//
// Intersections are counted through an inverted index (point -> clusters holding it), so the work
// is the sum over points of (clusters holding the point)^2 / 2 and the memory the number of
// memberships, not clusters x points. Clusters are spread over oneTBB's threads; the result is
// sorted, so it does not depend on them.
#include <cstdint>
#include <vector>

namespace subscale::consolidate {

struct OverlapPair {
  std::uint32_t first = 0;  // first < second, indices into the list given
  std::uint32_t second = 0;
  double overlap = 0.0;
};

// `points[i]` are the sorted point ids (< n_points) of cluster i. Returns the pairs with overlap
// >= threshold, ordered by overlap descending, then first, then second.
std::vector<OverlapPair> overlapping_pairs(const std::vector<const std::vector<std::uint32_t>*>& points,
                                           std::size_t n_points, double threshold);

}  // namespace subscale::consolidate
