#include "datasets/generators/zipf_sampler.hpp"

#include <cmath>

#include "common/error.hpp"

namespace subscale::join {

namespace {

// log(1 + x) / x and (exp(x) - 1) / x, with their Taylor series near 0 where the quotients lose
// precision (alpha close to 1 makes the argument small).
double log1p_over_x(double x) {
  return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}
double expm1_over_x(double x) {
  return std::abs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
}

}  // namespace

ZipfSampler::ZipfSampler(std::uint64_t n, double alpha) : n_(static_cast<double>(n)), alpha_(alpha) {
  if (n == 0) throw UsageError("a Zipf distribution needs at least one rank");
  if (!(alpha >= 0.0) || !std::isfinite(alpha))
    throw UsageError("Zipf alpha must be a finite number >= 0, not " + std::to_string(alpha));
  h_integral_x1_ = h_integral(1.5) - 1.0;
  h_integral_n_ = h_integral(n_ + 0.5);
  cut_ = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
}

double ZipfSampler::h(double x) const { return std::exp(-alpha_ * std::log(x)); }

double ZipfSampler::h_integral(double x) const {
  const double log_x = std::log(x);
  return expm1_over_x((1.0 - alpha_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double y) const {
  double t = y * (1.0 - alpha_);
  if (t < -1.0) t = -1.0;  // rounding can push it just below the domain
  return std::exp(log1p_over_x(t) * y);
}

}  // namespace subscale::join
