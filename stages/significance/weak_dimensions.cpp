#include "stages/significance/weak_dimensions.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <tuple>
#include <utility>

#include "stages/significance/cluster_score.hpp"
#include "stages/significance/point_range.hpp"

namespace subscale::significance {

template <class T>
std::vector<std::uint32_t> points_in_box(const ColumnMatrix<T>& values, const Marginals& marginals,
                                         const std::vector<std::uint32_t>& dimensions, const std::vector<double>& lo,
                                         const std::vector<double>& hi) {
  // Scan the dimension whose interval holds the fewest points, check the others.
  std::size_t narrowest = 0;
  std::pair<std::uint32_t, std::uint32_t> best{0, marginals.points()};
  for (std::size_t i = 0; i < dimensions.size(); ++i) {
    const auto r = marginals.range(dimensions[i], lo[i], hi[i]);
    if (r.second - r.first < best.second - best.first) best = r, narrowest = i;
  }
  std::vector<std::uint32_t> inside;
  const auto order = marginals.order(dimensions[narrowest]);
  for (std::uint32_t pos = best.first; pos < best.second; ++pos) {
    const std::uint32_t p = order[pos];
    bool in = true;
    for (std::size_t i = 0; i < dimensions.size() && in; ++i) {
      const double x = static_cast<double>(values(p, dimensions[i]));
      in = x >= lo[i] && x <= hi[i];
    }
    if (in) inside.push_back(p);
  }
  std::sort(inside.begin(), inside.end());
  return inside;
}

namespace {

constexpr std::size_t kWeakestTried = 3;
constexpr int kMaxWidenings = 4;

// The score before it is cut at 0: -log10(p * family size). The searches below climb this, so
// that a cluster whose score is 0 (a hidden cluster carried into hundreds of chance dimensions by
// consolidation's extension: its search correction, 10^2030 in 500 dimensions, outweighs its
// p-value of 10^-790) still loses those dimensions one by one; with the cut, every step compared
// 0 with 0 and none was taken.
template <class T>
double strength(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster) {
  return uncut_score(score_cluster(values, marginals, cluster));
}

// The cluster without dimensions[skip]: every point inside its box in the others.
template <class T>
SubspaceCluster without(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster,
                        std::size_t skip) {
  SubspaceCluster out;
  std::vector<double> lo, hi;
  for (std::size_t i = 0; i < cluster.dimensions.size(); ++i) {
    if (i == skip) continue;
    const auto j = cluster.dimensions[i];
    const auto range = range_of(values, cluster.points, j);
    out.dimensions.push_back(j);
    lo.push_back(range.lo), hi.push_back(range.hi);
  }
  out.points = points_in_box(values, marginals, out.dimensions, lo, hi);
  return out;
}

// The positions (in cluster.dimensions) of the kWeakestTried dimensions whose removal would bring
// the most points into the box (points inside it in every other dimension). Such a point lies in
// the interval of the narrowest dimension unless that is the one it fails, so scanning the two
// narrowest intervals finds them all. Trying only these keeps a step at a few box counts.
template <class T>
std::vector<std::size_t> weakest(const ColumnMatrix<T>& values, const Marginals& marginals,
                                 const SubspaceCluster& cluster) {
  const std::size_t s = cluster.dimensions.size();
  std::vector<double> lo(s), hi(s);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges(s);
  std::vector<std::size_t> by_width(s);
  for (std::size_t i = 0; i < s; ++i) {
    const auto range = range_of(values, cluster.points, cluster.dimensions[i]);
    lo[i] = range.lo, hi[i] = range.hi;
    ranges[i] = marginals.range(cluster.dimensions[i], lo[i], hi[i]);
    by_width[i] = i;
  }
  std::sort(by_width.begin(), by_width.end(), [&](std::size_t a, std::size_t b) {
    return ranges[a].second - ranges[a].first < ranges[b].second - ranges[b].first;
  });
  std::vector<std::uint32_t> gain(s, 0);
  for (std::size_t pass = 0; pass < std::min<std::size_t>(2, s); ++pass) {
    const std::size_t scanned = by_width[pass];
    const auto order = marginals.order(cluster.dimensions[scanned]);
    for (std::uint32_t pos = ranges[scanned].first; pos < ranges[scanned].second; ++pos) {
      const std::uint32_t p = order[pos];
      std::size_t failed = s, fails = 0;
      for (std::size_t i = 0; i < s && fails < 2; ++i) {
        const double x = static_cast<double>(values(p, cluster.dimensions[i]));
        if (x < lo[i] || x > hi[i]) failed = i, ++fails;
      }
      // The first pass sees every point that fails one dimension other than its own; the second
      // adds those that fail only the first pass's dimension.
      if (fails == 1 && (pass == 0 || failed == by_width[0])) ++gain[failed];
    }
  }
  std::vector<std::size_t> by_gain(s), positions;
  std::iota(by_gain.begin(), by_gain.end(), std::size_t{0});
  std::stable_sort(by_gain.begin(), by_gain.end(), [&](std::size_t a, std::size_t b) { return gain[a] > gain[b]; });
  for (std::size_t i = 0; i < std::min(kWeakestTried, s) && gain[by_gain[i]] > 0; ++i) positions.push_back(by_gain[i]);
  // And the dimensions whose intervals hold the most points: they add the least to the box and
  // their share of the search correction, whatever their removal brings in.
  for (std::size_t i = 0; i < std::min(kWeakestTried, s); ++i)
    if (std::find(positions.begin(), positions.end(), by_width[s - 1 - i]) == positions.end())
      positions.push_back(by_width[s - 1 - i]);
  return positions;
}

// The sorted positions of the 5% and 95% quantiles among `size` values: the ends of the central
// 90%. central_range and surely_holds_more must take the same ones.
std::pair<std::size_t, std::size_t> central_ranks(std::size_t size) {
  const auto last = static_cast<double>(size - 1);
  return {static_cast<std::size_t>(0.05 * last), static_cast<std::size_t>(std::ceil(0.95 * last))};
}

// The interval of the points' central 90% in dimension j (their 5% and 95% quantiles).
template <class T>
PointRange central_range(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& points, std::uint32_t j) {
  std::vector<double> column;
  column.reserve(points.size());
  for (const auto p : points) column.push_back(static_cast<double>(values(p, j)));
  // Two selections, not a sort: this runs for every dimension of every cluster tested, and a
  // sort was a third of a small file's whole run.
  const auto [r_low, r_high] = central_ranks(column.size());
  const auto low = column.begin() + static_cast<std::ptrdiff_t>(r_low);
  const auto high = column.begin() + static_cast<std::ptrdiff_t>(r_high);
  std::nth_element(column.begin(), low, column.end());
  if (high > low) std::nth_element(low + 1, high, column.end());
  return {*low, *high};
}

// Whether the points' central interval in dimension j surely holds more than `most` of all
// points, decided from a histogram of their values instead of the two selections central_range
// makes. The 5% quantile lies in some bin b1 and the 95% one in b2 (bins are monotone in the
// value); when b1 < b2, [largest value in b1, smallest value in b2] lies inside the central
// interval, so what that holds is a lower bound of what the central interval holds. Most of a
// cluster's other dimensions spread its points over most of the range and are settled here.
template <class T>
bool surely_holds_more(const ColumnMatrix<T>& values, const Marginals& marginals,
                       const std::vector<std::uint32_t>& points, std::uint32_t j, double most) {
  constexpr std::uint32_t kBins = 32;
  const PointRange all = range_of(values, points, j);
  if (!(all.hi > all.lo)) return false;
  std::uint32_t count[kBins] = {};
  double low[kBins], high[kBins];
  std::fill(std::begin(low), std::end(low), std::numeric_limits<double>::infinity());
  std::fill(std::begin(high), std::end(high), -std::numeric_limits<double>::infinity());
  const double scale = kBins / (all.hi - all.lo);
  for (const auto p : points) {
    const double v = static_cast<double>(values(p, j));
    const auto b = std::min(kBins - 1, static_cast<std::uint32_t>((v - all.lo) * scale));
    ++count[b];
    low[b] = std::min(low[b], v);
    high[b] = std::max(high[b], v);
  }
  // The (r + 1)-th smallest value lies in the first bin whose running count reaches r + 1.
  const auto [r_low, r_high] = central_ranks(points.size());
  std::uint32_t b_low = kBins, b_high = kBins;
  std::size_t running = 0;
  for (std::uint32_t b = 0; b < kBins; ++b) {
    running += count[b];
    if (b_low == kBins && running > r_low) b_low = b;
    if (running > r_high) {
      b_high = b;
      break;
    }
  }
  if (b_low >= b_high || b_high == kBins) return false;
  const auto held = marginals.range(j, high[b_low], low[b_high]);
  return static_cast<double>(held.second - held.first) > most;
}

// The cluster's box widened in every dimension to twice its points' central 90% span about that
// span's centre (what consolidation's box does), filled with every point inside. A cluster found
// from a part of its points has a box narrower than the cluster in some dimensions; in 16
// dimensions a few such cut most of its points away.
template <class T>
SubspaceCluster widened(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster) {
  std::vector<double> lo, hi;
  for (const auto j : cluster.dimensions) {
    const auto central = central_range(values, cluster.points, j), all = range_of(values, cluster.points, j);
    const double centre = (central.lo + central.hi) / 2, width = central.hi - central.lo;
    // On integer levels a piece of a cluster can sit on one level (span 0) while the rest of the
    // cluster lies on the next, where a narrow merge left it: the box reaches one level further on
    // each side (half a gap more keeps the level after that out, whatever the rounding).
    const double gap = marginals.level_gap(j);
    lo.push_back(std::min({all.lo, centre - width, all.lo - 1.5 * gap}));
    hi.push_back(std::max({all.hi, centre + width, all.hi + 1.5 * gap}));
  }
  return {cluster.dimensions, points_in_box(values, marginals, cluster.dimensions, lo, hi)};
}

// The cluster's box reaching one level further on one side of one grid column, the strongest such
// box filled: where a cluster spans two levels of a coarse grid and a piece of it sits on one, the
// box one level wider on every side (above) takes in seven cells of background for the one it
// lacks (a 10-level file: 85 points on one cell of a 2-D cluster whose 157 fill two, score 5.5;
// both cells 13.6; the 3 x 3 around them less than the one). nullopt where no grid column widens it
// to a stronger cluster; else `current` becomes its score.
template <class T>
std::optional<SubspaceCluster> widened_one_side(const ColumnMatrix<T>& values, const Marginals& marginals,
                                                const SubspaceCluster& cluster, double& current) {
  std::vector<double> lo, hi;
  for (const auto j : cluster.dimensions) {
    const auto all = range_of(values, cluster.points, j);
    lo.push_back(all.lo);
    hi.push_back(all.hi);
  }
  std::optional<SubspaceCluster> best;
  for (std::size_t i = 0; i < cluster.dimensions.size(); ++i) {
    const double gap = marginals.level_gap(cluster.dimensions[i]);
    if (gap <= 0) continue;
    for (const double side : {-1.0, 1.0}) {
      auto box_lo = lo, box_hi = hi;
      (side < 0 ? box_lo[i] : box_hi[i]) += side * 1.5 * gap;
      SubspaceCluster candidate{cluster.dimensions,
                                points_in_box(values, marginals, cluster.dimensions, box_lo, box_hi)};
      const double score = strength(values, marginals, candidate);
      if (score > current) current = score, best = std::move(candidate);
    }
  }
  return best;
}

// How many of all points lie in the interval the given points span in dimension j.
template <class T>
std::uint32_t held_by_interval(const ColumnMatrix<T>& values, const Marginals& marginals,
                               const std::vector<std::uint32_t>& points, std::uint32_t j) {
  const auto range = range_of(values, points, j);
  const auto held = marginals.range(j, range.lo, range.hi);
  return held.second - held.first;
}

// The cluster without the dimensions in which its points' interval holds more than
// `background_share` of all points, the widest first (none may be left: such a cluster then fails
// the test, keep_significant.hpp). Removing one refills the box but cannot widen another
// interval: the points it brings in lie inside it.
template <class T>
SubspaceCluster without_background_dimensions(const ColumnMatrix<T>& values, const Marginals& marginals,
                                              SubspaceCluster cluster, double background_share) {
  const double most = background_share * static_cast<double>(values.rows());
  while (!cluster.dimensions.empty()) {
    std::size_t widest = 0;
    std::uint32_t held = 0;
    for (std::size_t i = 0; i < cluster.dimensions.size(); ++i)
      if (const auto h = held_by_interval(values, marginals, cluster.points, cluster.dimensions[i]); h > held)
        held = h, widest = i;
    if (static_cast<double>(held) <= most) break;
    if (cluster.dimensions.size() == 1) return {{}, cluster.points};
    cluster = without(values, marginals, cluster, widest);
  }
  return cluster;
}

}  // namespace

template <class T>
std::uint32_t gathering_dimensions(const ColumnMatrix<T>& values, const Marginals& marginals,
                                   const SubspaceCluster& cluster, double background_share) {
  const double most = background_share * static_cast<double>(values.rows());
  std::uint32_t gathering = 0;
  for (const auto j : cluster.dimensions)
    if (static_cast<double>(held_by_interval(values, marginals, cluster.points, j)) <= most) ++gathering;
  return gathering;
}

template <class T>
SubspaceCluster widen_while_stronger(const ColumnMatrix<T>& values, const Marginals& marginals,
                                     SubspaceCluster cluster) {
  if (cluster.points.empty()) return cluster;
  double current = strength(values, marginals, cluster);
  for (int step = 0; step < kMaxWidenings; ++step) {
    auto candidate = widened(values, marginals, cluster);
    const double score = strength(values, marginals, candidate);
    if (score > current) {
      cluster = std::move(candidate);
      current = score;
      continue;
    }
    auto one_side = widened_one_side(values, marginals, cluster, current);
    if (!one_side) break;
    cluster = std::move(*one_side);
  }
  return cluster;
}

template <class T>
SubspaceCluster drop_weak_dimensions(const ColumnMatrix<T>& values, const Marginals& marginals, SubspaceCluster cluster,
                                     double background_share) {
  if (cluster.points.empty()) return cluster;
  cluster = without(values, marginals, cluster, cluster.dimensions.size());  // every point of its box
  cluster = without_background_dimensions(values, marginals, std::move(cluster), background_share);
  if (cluster.dimensions.size() < 2) return cluster;
  double current = strength(values, marginals, cluster);
  while (cluster.dimensions.size() > 2) {
    double best = current;
    std::optional<SubspaceCluster> better;
    for (const std::size_t skip : weakest(values, marginals, cluster)) {
      auto candidate = without(values, marginals, cluster, skip);
      const double score = strength(values, marginals, candidate);
      if (score > best) best = score, better = std::move(candidate);
    }
    if (!better) break;
    cluster = std::move(*better);
    current = best;
  }
  return cluster;
}

template <class T>
SubspaceCluster add_strong_dimensions(const ColumnMatrix<T>& values, const Marginals& marginals,
                                      SubspaceCluster cluster, double background_share) {
  if (cluster.points.empty()) return cluster;
  const double most = background_share * static_cast<double>(values.rows());
  struct Candidate {
    std::uint32_t held;  // points of the whole data in the central interval
    std::uint32_t dimension;
    PointRange central;
    bool operator<(const Candidate& o) const { return std::tie(held, dimension) < std::tie(o.held, o.dimension); }
  };
  std::vector<Candidate> by_share;
  for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(values.cols()); ++j) {
    if (std::binary_search(cluster.dimensions.begin(), cluster.dimensions.end(), j)) continue;
    // Such a dimension would sort after the background share, where the loop below stops.
    if (surely_holds_more(values, marginals, cluster.points, j, most)) continue;
    const auto central = central_range(values, cluster.points, j);
    const auto held = marginals.range(j, central.lo, central.hi);
    by_share.push_back({held.second - held.first, j, central});
  }
  std::sort(by_share.begin(), by_share.end());
  double current = strength(values, marginals, cluster);
  for (const auto& [held, j, central] : by_share) {
    if (static_cast<double>(held) > most) break;
    // The dimension with all the points (the interval they span), or with those in their central
    // interval: a point or two of the rest of the data that the box took in when it was filled
    // would otherwise stretch every further interval over the whole range.
    SubspaceCluster all = cluster, inner{cluster.dimensions, {}};
    for (const auto dims : {&all.dimensions, &inner.dimensions})
      dims->insert(std::upper_bound(dims->begin(), dims->end(), j), j);
    for (const auto p : cluster.points)
      if (central.holds(static_cast<double>(values(p, j)))) inner.points.push_back(p);
    // All the points may not span more than the background share either (the central interval did).
    const bool all_gathers = static_cast<double>(held_by_interval(values, marginals, cluster.points, j)) <= most;
    const double score_all = all_gathers ? strength(values, marginals, all) : -std::numeric_limits<double>::infinity();
    const double score_inner = strength(values, marginals, inner);
    if (std::max(score_all, score_inner) <= current) break;  // the next interval holds no fewer points
    cluster = score_all >= score_inner ? std::move(all) : std::move(inner);
    current = std::max(score_all, score_inner);
  }
  return cluster;
}

template SubspaceCluster drop_weak_dimensions(const ColumnMatrix<float>&, const Marginals&, SubspaceCluster, double);
template SubspaceCluster add_strong_dimensions(const ColumnMatrix<float>&, const Marginals&, SubspaceCluster, double);
template SubspaceCluster add_strong_dimensions(const ColumnMatrix<double>&, const Marginals&, SubspaceCluster, double);
template std::uint32_t gathering_dimensions(const ColumnMatrix<float>&, const Marginals&, const SubspaceCluster&,
                                            double);
template std::uint32_t gathering_dimensions(const ColumnMatrix<double>&, const Marginals&, const SubspaceCluster&,
                                            double);
template SubspaceCluster widen_while_stronger(const ColumnMatrix<float>&, const Marginals&, SubspaceCluster);
template SubspaceCluster widen_while_stronger(const ColumnMatrix<double>&, const Marginals&, SubspaceCluster);
template SubspaceCluster drop_weak_dimensions(const ColumnMatrix<double>&, const Marginals&, SubspaceCluster, double);
template std::vector<std::uint32_t> points_in_box(const ColumnMatrix<float>&, const Marginals&,
                                                  const std::vector<std::uint32_t>&, const std::vector<double>&,
                                                  const std::vector<double>&);
template std::vector<std::uint32_t> points_in_box(const ColumnMatrix<double>&, const Marginals&,
                                                  const std::vector<std::uint32_t>&, const std::vector<double>&,
                                                  const std::vector<double>&);

}  // namespace subscale::significance
