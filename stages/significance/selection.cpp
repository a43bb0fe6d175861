#include "stages/significance/selection.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "common/error.hpp"

namespace subscale::significance {

Correction parse_correction(const std::string& text) {
  if (text == "bonferroni") return Correction::bonferroni;
  if (text == "fdr") return Correction::fdr;
  throw UsageError("significance.correction: '" + text + "' is not one of bonferroni, fdr");
}

const char* to_string(Correction correction) { return correction == Correction::fdr ? "fdr" : "bonferroni"; }

namespace {

std::vector<std::size_t> by_score(const std::vector<ClusterScore>& scores) {
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a].score > scores[b].score; });
  return order;
}

}  // namespace

std::vector<bool> significant(const std::vector<ClusterScore>& scores, const TestParams& params) {
  std::vector<bool> keep(scores.size(), false);
  const double threshold = -std::log10(params.alpha);
  if (params.correction == Correction::bonferroni) {
    for (std::size_t i = 0; i < scores.size(); ++i) keep[i] = scores[i].score >= threshold;
    return keep;
  }
  // Step-up: corrected p <= alpha * rank  <=>  score >= -log10 alpha - log10 rank.
  const auto order = by_score(scores);
  std::size_t passing = 0;
  for (std::size_t r = 0; r < order.size(); ++r)
    if (scores[order[r]].score > 0 && scores[order[r]].score >= threshold - std::log10(static_cast<double>(r + 1)))
      passing = r + 1;
  for (std::size_t r = 0; r < passing; ++r) keep[order[r]] = true;
  return keep;
}

std::vector<std::size_t> kept_by_score(const std::vector<ClusterScore>& scores, const TestParams& params) {
  const auto keep = significant(scores, params);
  std::vector<std::size_t> kept;
  for (const auto i : by_score(scores))
    if (keep[i]) kept.push_back(i);
  return kept;
}

}  // namespace subscale::significance
