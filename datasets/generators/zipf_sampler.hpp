#pragma once
// Zipf(alpha) over ranks 1..n, P(k) proportional to k^-alpha, sampled in O(1) expected time
// without a table by rejection-inversion (Hörmann & Derflinger, "Rejection-inversion to generate
// variates from monotone discrete distributions", 1996). A table of the cumulative distribution,
// as the seed's generator used, would need 1 GiB for n = 2^27 ranks.
#include <cstdint>
#include <random>

namespace subscale::join {

class ZipfSampler {
 public:
  // alpha >= 0 (0 is uniform), n >= 1.
  ZipfSampler(std::uint64_t n, double alpha);

  template <class Rng>
  std::uint64_t operator()(Rng& rng) const {
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (;;) {
      const double u = h_integral_n_ + uniform(rng) * (h_integral_x1_ - h_integral_n_);
      const double x = h_integral_inverse(u);
      double k = static_cast<double>(static_cast<std::uint64_t>(x + 0.5));
      if (k < 1) k = 1;
      if (k > n_) k = n_;
      if (k - x <= cut_ || u >= h_integral(k + 0.5) - h(k)) return static_cast<std::uint64_t>(k);
    }
  }

 private:
  double h(double x) const;                   // x^-alpha
  double h_integral(double x) const;          // an antiderivative of h, stable near alpha = 1
  double h_integral_inverse(double y) const;  // its inverse

  double n_;
  double alpha_;
  double h_integral_x1_;
  double h_integral_n_;
  double cut_;
};

}  // namespace subscale::join
