#include "stages/significance/turned_rectangle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

#include "stages/significance/binomial_tail.hpp"
#include "stages/significance/edge_peeling.hpp"
#include "stages/significance/search_correction.hpp"

namespace subscale::significance {
namespace {

// The rectangle's sides in turned units: u along the cluster, v across it.
struct Sides {
  double c = 1, s = 0;  // cos and sin of the angle
  double u_lo = std::numeric_limits<double>::infinity(), u_hi = -std::numeric_limits<double>::infinity();
  double v_lo = std::numeric_limits<double>::infinity(), v_hi = -std::numeric_limits<double>::infinity();
};

// The principal axes of the points in units (x / unit_a, y / unit_b): the direction of the
// larger in [0, pi), and the variances along both.
struct Axes {
  double theta = 0;
  double along = 0, across = 0;
};

template <class T>
Axes principal_axes(const T* x, const T* y, const std::vector<std::uint32_t>& points, double unit_a, double unit_b) {
  double mx = 0, my = 0;
  for (const auto p : points) mx += x[p] / unit_a, my += y[p] / unit_b;
  mx /= static_cast<double>(points.size());
  my /= static_cast<double>(points.size());
  double sxx = 0, syy = 0, sxy = 0;
  for (const auto p : points) {
    const double dx = x[p] / unit_a - mx, dy = y[p] / unit_b - my;
    sxx += dx * dx, syy += dy * dy, sxy += dx * dy;
  }
  Axes axes;
  axes.theta = 0.5 * std::atan2(2 * sxy, sxx - syy);
  if (axes.theta < 0) axes.theta += std::numbers::pi;
  const double mean = 0.5 * (sxx + syy), half_gap = std::hypot(0.5 * (sxx - syy), sxy);
  axes.along = mean + half_gap;
  axes.across = mean - half_gap;
  return axes;
}

// theta rounded to a step of pi / kTurnAngles, in [0, kTurnAngles).
std::uint32_t rounded_angle(double theta) {
  const auto step = static_cast<std::int64_t>(std::llround(theta / (std::numbers::pi / kTurnAngles)));
  return static_cast<std::uint32_t>(step % kTurnAngles);
}

// Widened by a little more than the rounding of the projections, so that every point of the
// cluster lies inside however the cut at each x is rounded: the mass can only come out larger.
void widen(double& lo, double& hi) {
  const double slack = 1e-9 * std::max({std::abs(lo), std::abs(hi), 1e-300});
  lo -= slack;
  hi += slack;
}

// The interval of y (in units) that the rectangle cuts at x (in units); lo > hi where none.
std::pair<double, double> cut_at(const Sides& r, double x) {
  // u = c x + s y in [u_lo, u_hi] with s > 0 (the angle lies strictly between 0 and pi).
  double lo = (r.u_lo - r.c * x) / r.s, hi = (r.u_hi - r.c * x) / r.s;
  // v = -s x + c y in [v_lo, v_hi]; c is never 0 (the angle pi / 2 is an axis).
  double v1 = (r.v_lo + r.s * x) / r.c, v2 = (r.v_hi + r.s * x) / r.c;
  if (r.c < 0) std::swap(v1, v2);
  return {std::max(lo, v1), std::min(hi, v2)};
}

}  // namespace

double turn_unit(const Marginals& marginals, std::uint32_t dimension) {
  if (marginals.level_gap(dimension) > 0 || marginals.points() == 0) return 0;
  const auto sorted = marginals.sorted(dimension);
  const std::size_t n = sorted.size();
  const double spread = sorted[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1] - sorted[n / 4];
  return std::isfinite(spread) && spread > 0 ? spread : 0;
}

bool takes_turned_rectangles(const Marginals& marginals, std::uint32_t a, std::uint32_t b) {
  return turn_unit(marginals, a) > 0 && turn_unit(marginals, b) > 0;
}

namespace {

// What a cluster's turned rectangle is measured in: the two dimensions, their units and the
// angle (none where the pair takes no turned rectangles or the direction rounds to an axis).
struct Frame {
  std::uint32_t a = 0, b = 0;
  double unit_a = 0, unit_b = 0;
  std::uint32_t angle = 0;
  double c = 1, s = 0;
  double stretch = 1;  // the points' spread along the direction over their spread across it
};

template <class T>
std::optional<Frame> frame_of(const ColumnMatrix<T>& values, const Marginals& marginals,
                              const SubspaceCluster& cluster) {
  if (cluster.dimensions.size() != 2 || cluster.points.size() < 2) return std::nullopt;
  Frame f;
  f.a = cluster.dimensions[0], f.b = cluster.dimensions[1];
  f.unit_a = turn_unit(marginals, f.a), f.unit_b = turn_unit(marginals, f.b);
  if (!(f.unit_a > 0) || !(f.unit_b > 0)) return std::nullopt;
  const Axes axes = principal_axes(values.col(f.a).data(), values.col(f.b).data(), cluster.points, f.unit_a, f.unit_b);
  f.angle = rounded_angle(axes.theta);
  if (f.angle == 0 || f.angle == kTurnAngles / 2) return std::nullopt;
  f.stretch = axes.across > 0 ? std::sqrt(axes.along / axes.across) : std::numeric_limits<double>::infinity();
  f.c = std::cos(f.angle * std::numbers::pi / kTurnAngles);
  f.s = std::sin(f.angle * std::numbers::pi / kTurnAngles);
  return f;
}

// Coordinates along (u) and across (v) the frame's direction of point p.
template <class T>
std::pair<double, double> turned_coordinates(const ColumnMatrix<T>& values, const Frame& f, std::uint32_t p) {
  const double px = values(p, f.a) / f.unit_a, py = values(p, f.b) / f.unit_b;
  return {f.c * px + f.s * py, -f.s * px + f.c * py};
}

// ln of the null mass of the rectangle [u_lo, u_hi] x [v_lo, v_hi] in the frame, counting at
// least `points` pairs (the cluster's own, which lie inside).
double log_mass(const Marginals& marginals, const Frame& f, double u_lo, double u_hi, double v_lo, double v_hi,
                std::size_t points) {
  Sides r;
  r.c = f.c, r.s = f.s;
  r.u_lo = u_lo, r.u_hi = u_hi, r.v_lo = v_lo, r.v_hi = v_hi;
  widen(r.u_lo, r.u_hi);
  widen(r.v_lo, r.v_hi);
  // The rectangle's reach along the first axis: its corners' x = c u - s v.
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo;
  for (const double u : {r.u_lo, r.u_hi})
    for (const double v : {r.v_lo, r.v_hi}) {
      x_lo = std::min(x_lo, r.c * u - r.s * v);
      x_hi = std::max(x_hi, r.c * u - r.s * v);
    }
  widen(x_lo, x_hi);
  const auto sorted_a = marginals.sorted(f.a);
  const auto [first, last] = marginals.range(f.a, x_lo * f.unit_a, x_hi * f.unit_a);
  std::uint64_t pairs = 0;
  for (std::uint32_t i = first; i < last;) {
    std::uint32_t next = i + 1;
    while (next < last && sorted_a[next] == sorted_a[i]) ++next;
    const auto [lo, hi] = cut_at(r, sorted_a[i] / f.unit_a);
    if (lo <= hi) pairs += static_cast<std::uint64_t>(next - i) * marginals.count(f.b, lo * f.unit_b, hi * f.unit_b);
    i = next;
  }
  // The rounding of the cuts must not count fewer pairs than the points inside.
  pairs = std::max<std::uint64_t>(pairs, points);
  return std::log(static_cast<double>(pairs)) - 2 * std::log(static_cast<double>(marginals.points()));
}

// The positions kept when the rectangle's sides are peeled while its score rises.
std::vector<std::uint32_t> peeled(const Marginals& marginals, const Frame& frame,
                                  const std::vector<std::vector<double>>& coordinates) {
  const double log_search = log_turned_search_size(marginals);
  const Strength strength = [&](const Ends& ends, std::size_t points) {
    const double log_p0 = log_mass(marginals, frame, ends.lo[0], ends.hi[0], ends.lo[1], ends.hi[1], points);
    return -(log_binomial_upper_tail(marginals.points(), log_p0, points) + log_search) / std::log(10.0);
  };
  return peel_while_stronger(coordinates, strength);
}

}  // namespace

template <class T>
std::optional<TurnedRectangle> turned_rectangle(const ColumnMatrix<T>& values, const Marginals& marginals,
                                                const SubspaceCluster& cluster) {
  const auto frame = frame_of(values, marginals, cluster);
  if (!frame) return std::nullopt;
  double u_lo = std::numeric_limits<double>::infinity(), u_hi = -u_lo, v_lo = u_lo, v_hi = u_hi;
  for (const auto p : cluster.points) {
    const auto [u, v] = turned_coordinates(values, *frame, p);
    u_lo = std::min(u_lo, u), u_hi = std::max(u_hi, u);
    v_lo = std::min(v_lo, v), v_hi = std::max(v_hi, v);
  }
  return TurnedRectangle{frame->angle, log_mass(marginals, *frame, u_lo, u_hi, v_lo, v_hi, cluster.points.size())};
}

template <class T>
bool looks_stretched(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster) {
  const auto frame = frame_of(values, marginals, cluster);
  return frame && frame->stretch >= kStretched;
}

template <class T>
SubspaceCluster trim_turned_while_stronger(const ColumnMatrix<T>& values, const Marginals& marginals,
                                           SubspaceCluster cluster) {
  const auto frame = frame_of(values, marginals, cluster);
  if (!frame || cluster.points.size() < 4) return cluster;
  std::vector<std::vector<double>> coordinates(2);
  for (const auto p : cluster.points) {
    const auto [u, v] = turned_coordinates(values, *frame, p);
    coordinates[0].push_back(u);
    coordinates[1].push_back(v);
  }
  const auto kept = peeled(marginals, *frame, coordinates);
  return keeping(std::move(cluster), kept);
}

template std::optional<TurnedRectangle> turned_rectangle(const ColumnMatrix<float>&, const Marginals&,
                                                         const SubspaceCluster&);
template std::optional<TurnedRectangle> turned_rectangle(const ColumnMatrix<double>&, const Marginals&,
                                                         const SubspaceCluster&);
template bool looks_stretched(const ColumnMatrix<float>&, const Marginals&, const SubspaceCluster&);
template bool looks_stretched(const ColumnMatrix<double>&, const Marginals&, const SubspaceCluster&);
template SubspaceCluster trim_turned_while_stronger(const ColumnMatrix<float>&, const Marginals&, SubspaceCluster);
template SubspaceCluster trim_turned_while_stronger(const ColumnMatrix<double>&, const Marginals&, SubspaceCluster);

}  // namespace subscale::significance
