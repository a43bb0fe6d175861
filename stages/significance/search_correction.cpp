#include "stages/significance/search_correction.hpp"

#include <cmath>

#include "stages/significance/binomial_tail.hpp"
#include "stages/significance/turned_rectangle.hpp"

namespace subscale::significance {
namespace {

double log_intervals(std::uint32_t distinct) {
  const double u = distinct;
  return std::log(u) + std::log(u + 1) - std::log(2.0);
}

double log_subspaces(std::uint32_t d, std::uint32_t s) { return std::log(static_cast<double>(d)) + log_choose(d, s); }

// The boxes' share of a pair's weight where the pair also takes turned rectangles.
double log_boxes_share_inverse() { return -std::log1p(-kTurnedShare); }

}  // namespace

double log_search_size(const Marginals& marginals, std::span<const std::uint32_t> dimensions) {
  double log_m = log_subspaces(marginals.dimensions(), static_cast<std::uint32_t>(dimensions.size()));
  for (const auto j : dimensions) log_m += log_intervals(marginals.distinct(j));
  if (dimensions.size() == 2 && takes_turned_rectangles(marginals, dimensions[0], dimensions[1]))
    log_m += log_boxes_share_inverse();
  return log_m;
}

double log_turned_search_size(const Marginals& marginals) {
  const double n = marginals.points();
  return log_subspaces(marginals.dimensions(), 2) + std::log(kTurnAngles / kTurnedShare) +
         2 * (std::log(n) + std::log(n + 1) - std::log(2.0));
}

SearchSizes::SearchSizes(const Marginals& marginals) {
  const std::uint32_t d = marginals.dimensions();
  log_subspaces_.reserve(d + 1);
  for (std::uint32_t s = 0; s <= d; ++s) log_subspaces_.push_back(log_subspaces(d, s));
  log_intervals_.reserve(d);
  for (std::uint32_t j = 0; j < d; ++j) log_intervals_.push_back(log_intervals(marginals.distinct(j)));
  turns_.reserve(d);
  for (std::uint32_t j = 0; j < d; ++j) turns_.push_back(turn_unit(marginals, j) > 0 ? 1 : 0);
}

double SearchSizes::log_size(std::span<const std::uint32_t> dimensions) const {
  double log_m = log_subspaces_[dimensions.size()];
  for (const auto j : dimensions) log_m += log_intervals_[j];
  if (dimensions.size() == 2 && turns_[dimensions[0]] && turns_[dimensions[1]]) log_m += log_boxes_share_inverse();
  return log_m;
}

double log_search_size(std::uint32_t data_dimensions, std::uint32_t s, std::uint32_t distinct) {
  return log_subspaces(data_dimensions, s) + s * log_intervals(distinct);
}

}  // namespace subscale::significance
