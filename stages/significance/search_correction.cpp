#include "stages/significance/search_correction.hpp"

#include <cmath>

#include "stages/significance/binomial_tail.hpp"

namespace subscale::significance {
namespace {

double log_intervals(std::uint32_t distinct) {
  const double u = distinct;
  return std::log(u) + std::log(u + 1) - std::log(2.0);
}

double log_subspaces(std::uint32_t d, std::uint32_t s) { return std::log(static_cast<double>(d)) + log_choose(d, s); }

}  // namespace

double log_search_size(const Marginals& marginals, std::span<const std::uint32_t> dimensions) {
  double log_m = log_subspaces(marginals.dimensions(), static_cast<std::uint32_t>(dimensions.size()));
  for (const auto j : dimensions) log_m += log_intervals(marginals.distinct(j));
  return log_m;
}

SearchSizes::SearchSizes(const Marginals& marginals) {
  const std::uint32_t d = marginals.dimensions();
  log_subspaces_.reserve(d + 1);
  for (std::uint32_t s = 0; s <= d; ++s) log_subspaces_.push_back(log_subspaces(d, s));
  log_intervals_.reserve(d);
  for (std::uint32_t j = 0; j < d; ++j) log_intervals_.push_back(log_intervals(marginals.distinct(j)));
}

double SearchSizes::log_size(std::span<const std::uint32_t> dimensions) const {
  double log_m = log_subspaces_[dimensions.size()];
  for (const auto j : dimensions) log_m += log_intervals_[j];
  return log_m;
}

double log_search_size(std::uint32_t data_dimensions, std::uint32_t s, std::uint32_t distinct) {
  return log_subspaces(data_dimensions, s) + s * log_intervals(distinct);
}

}  // namespace subscale::significance
