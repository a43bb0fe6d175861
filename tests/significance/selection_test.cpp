#include "stages/significance/selection.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace subscale::significance {
namespace {

std::vector<ClusterScore> with_scores(std::vector<double> values) {
  std::vector<ClusterScore> scores(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) scores[i].score = values[i];
  return scores;
}

TEST(Selection, BonferroniKeepsCorrectedPBelowAlpha) {
  const auto scores = with_scores({1.9, 2.0, 5.0, 0.0});
  EXPECT_EQ(significant(scores, {0.01, Correction::bonferroni}), (std::vector<bool>{false, true, true, false}));
}

TEST(Selection, BenjaminiHochbergStepsUp) {
  // Corrected p-values 0.005, 0.015, 0.025, 0.5: the third passes at rank 3 (0.025 <= 0.03), and
  // so the second does too although 0.015 > 0.01.
  const auto scores = with_scores({-std::log10(0.025), -std::log10(0.005), -std::log10(0.5), -std::log10(0.015)});
  EXPECT_EQ(significant(scores, {0.01, Correction::fdr}), (std::vector<bool>{true, true, false, true}));
  EXPECT_EQ(significant(scores, {0.01, Correction::bonferroni}), (std::vector<bool>{false, true, false, false}));
}

TEST(Selection, KeptStrongestFirstTiesByIndex) {
  const auto scores = with_scores({3.0, 9.0, 1.0, 3.0});
  EXPECT_EQ(kept_by_score(scores, {0.01, Correction::bonferroni}), (std::vector<std::size_t>{1, 0, 3}));
}

TEST(Selection, ParsesCorrection) {
  EXPECT_EQ(parse_correction("fdr"), Correction::fdr);
  EXPECT_EQ(parse_correction("bonferroni"), Correction::bonferroni);
  EXPECT_THROW(parse_correction("holm"), UsageError);
}

}  // namespace
}  // namespace subscale::significance
