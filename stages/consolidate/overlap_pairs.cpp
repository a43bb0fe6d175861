#include "stages/consolidate/overlap_pairs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>
#include <utility>

namespace subscale::consolidate {

namespace {

// Stable LSD radix sort on a key that orders like the overlap, 11 bits a pass; a pass in which
// every key has the same digit is skipped. Sorting the pairs by comparisons took a fifth of the
// stage's time on S1500. The digits of every pass are counted in one read of the keys.
//
// The key: an overlap is c / s rounded, with c <= s <= largest. Two different such fractions
// differ by at least 1 / largest^2, so while largest^2 < 2^31 the overlap scaled to 32 bits and
// floored keeps different overlaps apart and in order (and equal ones equal): 3 passes. Beyond
// that the overlap's own 64 bits are the key (a double in [0, 1] orders like its bits): 6 passes.
//
// The pairs come as lists (one per cluster, in order) that the first pass reads directly, so
// they are not concatenated first.
std::vector<OverlapPair> sort_by_overlap_descending(const std::vector<std::vector<OverlapPair>>& lists,
                                                    std::size_t largest) {
  constexpr unsigned digit_bits = 11, passes = (64 + digit_bits - 1) / digit_bits;
  constexpr std::uint64_t digit_mask = (std::uint64_t{1} << digit_bits) - 1;
  constexpr std::size_t buckets = std::size_t{1} << digit_bits;
  constexpr double scale = 4294967295.0;  // 2^32 - 1
  const bool compact = largest <= 46340;  // 46340^2 < 2^31
  // Computed again at each pass rather than stored: on D50 the keys' arrays were 24 MB of fresh
  // memory a round, whose page faults cost more than the multiplication.
  const auto key = [&](const OverlapPair& pair) {
    return compact ? 0xFFFFFFFFu - static_cast<std::uint64_t>(pair.overlap * scale)
                   : ~std::bit_cast<std::uint64_t>(pair.overlap);
  };
  std::vector<std::size_t> count(passes * buckets, 0);
  std::size_t total = 0;
  for (const auto& list : lists) {
    total += list.size();
    for (const OverlapPair& pair : list) {
      const std::uint64_t k = key(pair);
      for (unsigned pass = 0; pass < passes; ++pass)
        ++count[pass * buckets + ((k >> (pass * digit_bits)) & digit_mask)];
    }
  }
  std::vector<OverlapPair> pairs, pairs_out;
  bool first = true;
  for (unsigned pass = 0; pass < passes; ++pass) {
    std::size_t* next = count.data() + pass * buckets;
    if (std::find(next, next + buckets, total) != next + buckets) continue;
    std::size_t sum = 0;
    for (std::size_t b = 0; b < buckets; ++b) sum += std::exchange(next[b], sum);
    const unsigned shift = pass * digit_bits;
    pairs_out.resize(total);
    if (first) {
      for (const auto& list : lists)
        for (const OverlapPair& pair : list) pairs_out[next[(key(pair) >> shift) & digit_mask]++] = pair;
      first = false;
    } else {
      for (const OverlapPair& pair : pairs) pairs_out[next[(key(pair) >> shift) & digit_mask]++] = pair;
    }
    pairs.swap(pairs_out);
  }
  if (first) {  // every key the same: the lists' order stands
    pairs.reserve(total);
    for (const auto& list : lists) pairs.insert(pairs.end(), list.begin(), list.end());
  }
  return pairs;
}

// The smallest count c with c / size >= threshold (size + 1 when there is none), evaluated in
// the same floating-point expression as the pairs' overlap.
std::uint32_t fewest_shared(std::size_t size, double threshold) {
  const auto reaches = [&](std::size_t c) { return static_cast<double>(c) / static_cast<double>(size) >= threshold; };
  auto c =
      static_cast<std::size_t>(std::min(static_cast<double>(size), std::ceil(threshold * static_cast<double>(size))));
  while (c > 0 && reaches(c - 1)) --c;
  while (c <= size && !reaches(c)) ++c;
  return static_cast<std::uint32_t>(c);
}

// ++counts[h] for every holder in [h, last): the stage's hottest loop (the sum over points of
// their holders squared, 180 M increments on D50), unrolled by hand since the build does not
// unroll loops.
void count_holders(const std::uint32_t* h, const std::uint32_t* last, std::uint32_t* counts) {
  for (; last - h >= 8; h += 8) {
    ++counts[h[0]];
    ++counts[h[1]];
    ++counts[h[2]];
    ++counts[h[3]];
    ++counts[h[4]];
    ++counts[h[5]];
    ++counts[h[6]];
    ++counts[h[7]];
  }
  for (; h != last; ++h) ++counts[*h];
}

}  // namespace

std::vector<OverlapPair> overlapping_pairs(const std::vector<const std::vector<std::uint32_t>*>& points,
                                           std::size_t n_points, double threshold) {
  const std::size_t clusters = points.size();
  // Inverted index, CSR: holders[offsets[p] .. offsets[p+1]) are the clusters holding p, ascending.
  std::vector<std::uint64_t> offsets(n_points + 1, 0);
  for (const auto* list : points)
    for (std::uint32_t p : *list) ++offsets[p + 1];
  for (std::size_t p = 0; p < n_points; ++p) offsets[p + 1] += offsets[p];
  std::vector<std::uint32_t> holders(offsets.back());
  // after[first_membership[c] + i]: where the holders of cluster c's i-th point that come after c
  // begin. Clusters are filed in ascending order, so that is known while filing, and the counting
  // loop below needs no search for it.
  std::vector<std::uint64_t> first_membership(clusters + 1, 0);
  for (std::uint32_t c = 0; c < clusters; ++c) first_membership[c + 1] = first_membership[c] + points[c]->size();
  std::vector<std::uint64_t> after(first_membership.back());
  {
    std::vector<std::uint64_t> next(offsets.begin(), offsets.end() - 1);
    std::uint64_t membership = 0;
    for (std::uint32_t c = 0; c < clusters; ++c)
      for (std::uint32_t p : *points[c]) {
        holders[next[p]++] = c;
        after[membership++] = next[p];
      }
  }

  // need[s]: the fewest shared points at which a pair whose smaller cluster has s points reaches
  // the threshold, found with the very division the pairs' overlap is computed by, so the test
  // `count >= need[s]` decides exactly as `count / s >= threshold` would. Most pairs that share a
  // point stay under the threshold; this spares them the division.
  std::size_t largest = 0;
  for (const auto* list : points) largest = std::max(largest, list->size());
  std::vector<std::uint32_t> need(largest + 1, 0);
  for (std::size_t size = 1; size <= largest; ++size) need[size] = fewest_shared(size, threshold);

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
      const std::vector<std::uint32_t>& members = *points[a];
      const std::uint64_t* starts = after.data() + first_membership[a];
      std::uint64_t meetings = 0;
      for (std::size_t i = 0; i < members.size(); ++i) meetings += offsets[members[i] + 1] - starts[i];
      const bool dense = meetings * 16 > clusters - a;
      for (std::size_t i = 0; i < members.size(); ++i) {
        const std::uint32_t* h = holders.data() + starts[i];
        const std::uint32_t* last = holders.data() + offsets[members[i] + 1];
        if (dense) {
          count_holders(h, last, s.counts.data());
        } else {
          for (; h != last; ++h)
            if (s.counts[*h]++ == 0) s.touched.push_back(*h);
        }
      }
      const auto take = [&](std::uint32_t b) {
        const std::size_t smaller = std::min(points[a]->size(), points[b]->size());
        if (s.counts[b] >= need[smaller]) {
          const double overlap = static_cast<double>(s.counts[b]) / static_cast<double>(smaller);
          per_cluster[a].push_back({static_cast<std::uint32_t>(a), b, overlap});
        }
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
  // Concatenated, the lists are ordered by (first, second); a stable sort by overlap descending
  // keeps that order among equal overlaps.
  return sort_by_overlap_descending(per_cluster, largest);
}

}  // namespace subscale::consolidate
