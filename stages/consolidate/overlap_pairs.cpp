#include "stages/consolidate/overlap_pairs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>

namespace subscale::consolidate {

std::size_t intersection_size(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::size_t count = 0;
  auto i = a.begin(), j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++count, ++i, ++j;
    }
  }
  return count;
}

std::vector<OverlapPair> overlapping_pairs(const std::vector<const std::vector<std::uint32_t>*>& points,
                                           std::size_t n_points, double threshold) {
  const std::size_t clusters = points.size();
  // Inverted index, CSR: holders[offsets[p] .. offsets[p+1]) are the clusters holding p, ascending.
  std::vector<std::uint64_t> offsets(n_points + 1, 0);
  for (const auto* list : points)
    for (std::uint32_t p : *list) ++offsets[p + 1];
  for (std::size_t p = 0; p < n_points; ++p) offsets[p + 1] += offsets[p];
  std::vector<std::uint32_t> holders(offsets.back());
  {
    std::vector<std::uint64_t> next(offsets.begin(), offsets.end() - 1);
    for (std::uint32_t c = 0; c < clusters; ++c)
      for (std::uint32_t p : *points[c]) holders[next[p]++] = c;
  }

  struct Scratch {
    std::vector<std::uint32_t> counts;
    std::vector<std::uint32_t> touched;
  };
  tbb::enumerable_thread_specific<Scratch> scratch;
  std::vector<std::vector<OverlapPair>> per_cluster(clusters);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, clusters, 16), [&](const tbb::blocked_range<std::size_t>& r) {
    Scratch& s = scratch.local();
    s.counts.resize(clusters, 0);
    for (std::size_t a = r.begin(); a != r.end(); ++a) {
      // Intersections of a with every later cluster b. When a meets many of them (on the
      // benchmark data a third of all clusters), the counts are read back by one scan over the
      // later clusters and the hot loop keeps no list of the ones touched; otherwise the list is
      // kept and sorted, so that sparse data do not pay a scan over all clusters for each a.
      std::uint64_t meetings = 0;
      for (std::uint32_t p : *points[a]) meetings += offsets[p + 1] - offsets[p];
      const bool dense = meetings * 16 > clusters - a;
      for (std::uint32_t p : *points[a]) {
        const std::uint32_t* first = holders.data() + offsets[p];
        const std::uint32_t* last = holders.data() + offsets[p + 1];
        const std::uint32_t* h = std::upper_bound(first, last, static_cast<std::uint32_t>(a));
        if (dense) {
          for (; h != last; ++h) ++s.counts[*h];
        } else {
          for (; h != last; ++h)
            if (s.counts[*h]++ == 0) s.touched.push_back(*h);
        }
      }
      const auto take = [&](std::uint32_t b) {
        const std::size_t smaller = std::min(points[a]->size(), points[b]->size());
        const double overlap = static_cast<double>(s.counts[b]) / static_cast<double>(smaller);
        if (overlap >= threshold) per_cluster[a].push_back({static_cast<std::uint32_t>(a), b, overlap});
        s.counts[b] = 0;
      };
      if (dense) {
        for (std::size_t b = a + 1; b < clusters; ++b)
          if (s.counts[b] != 0) take(static_cast<std::uint32_t>(b));
      } else {
        std::sort(s.touched.begin(), s.touched.end());
        for (std::uint32_t b : s.touched) take(b);
        s.touched.clear();
      }
    }
  });
  std::vector<OverlapPair> pairs;
  for (auto& list : per_cluster) pairs.insert(pairs.end(), list.begin(), list.end());
  // A strict total order (the indices break ties), so the parallel sort's result is unique.
  tbb::parallel_sort(pairs.begin(), pairs.end(), [](const OverlapPair& x, const OverlapPair& y) {
    if (x.overlap != y.overlap) return x.overlap > y.overlap;
    return x.first != y.first ? x.first < y.first : x.second < y.second;
  });
  return pairs;
}

}  // namespace subscale::consolidate
