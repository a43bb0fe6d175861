#include "pipeline/log/significance_reach.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pipeline/log/log_format.hpp"
#include "stages/significance/subspace_bound.hpp"

namespace subscale::pipeline {
namespace {

std::string share_text(std::uint32_t k, std::uint32_t n) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g%%", 100.0 * k / n);
  return text;
}

template <class M>
std::uint32_t median_distinct(const M& values) {
  const auto d = static_cast<std::size_t>(values.cols());
  std::vector<std::uint32_t> distinct(d, 0);
  tbb::parallel_for(std::size_t{0}, d, [&](std::size_t j) {
    const auto column = values.col(static_cast<Eigen::Index>(j));
    std::vector<typename M::Scalar> sorted(column.data(), column.data() + column.size());
    std::sort(sorted.begin(), sorted.end());
    distinct[j] = static_cast<std::uint32_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
  });
  if (distinct.empty()) return 0;
  std::nth_element(distinct.begin(), distinct.begin() + static_cast<std::ptrdiff_t>(d / 2), distinct.end());
  return distinct[d / 2];
}

}  // namespace

std::uint32_t median_distinct_values(const HeldValues& held) {
  return held.visit([](const auto& values) { return median_distinct(values); });
}

std::vector<std::string> significance_reach_lines(std::uint32_t n, std::uint32_t d, std::uint32_t distinct,
                                                  double alpha) {
  if (n < 2 || d < 2 || distinct < 1) return {};
  const double threshold = -std::log10(alpha);
  // The best case first at a tenth of the points: where even it fails, the smallest passing size
  // is not searched for (it may be none, and the search would walk every size up to n).
  const auto share = std::max<std::uint32_t>(2, static_cast<std::uint32_t>(kReachShare * n));
  char head[320];
  std::snprintf(head, sizeof head,
                "significance the smallest cluster that could pass (alpha %g, %u points, %u dimensions of about %u "
                "distinct values; at best, its box holding its own points alone):",
                alpha, n, d, distinct);
  std::string line = head;
  std::string warning;
  for (std::uint32_t s = 2; s <= std::min<std::uint32_t>(4, d); ++s) {
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on the inlined chain of +.
    if (s > 2) line += ",";
    line += " in ";
    line += std::to_string(s);
    line += " dimensions ";
    const double at_share = significance::best_possible_score(n, d, s, distinct, share);
    if (at_share < threshold) {
      line += "more than " + counted(share, "point") + " (" + share_text(share, n) + ")";
      if (s == 2) {
        char score[96];
        std::snprintf(score, sizeof score, "at best a score of %.2f where %.2f is needed", at_share, threshold);
        warning = "warning: even a cluster of " + share_text(share, n) + " of the points (" + counted(share, "point") +
                  ") could not pass the significance test in 2 dimensions (" + score +
                  "): on this few points in this many dimensions the run will likely report no cluster of few "
                  "dimensions; more points, fewer dimensions, or a higher significance.alpha let smaller clusters pass";
      }
      continue;
    }
    const std::uint32_t k = significance::smallest_passing_size(n, d, s, distinct, threshold);
    line += counted(k, "point") + " (" + share_text(k, n) + ")";
  }
  std::vector<std::string> lines{line};
  if (!warning.empty()) lines.push_back(warning);
  return lines;
}

}  // namespace subscale::pipeline
