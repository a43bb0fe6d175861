// Each measure on small examples computed by hand (the arithmetic is in the comments).
#include "stages/evaluate/quality_measures.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "common/error.hpp"

namespace subscale::evaluate {
namespace {

// 10 points, 4 dimensions. H0 lives in {0,1} with points 0-3 (8 micro-objects); H1 in {2,3}
// with points 5-8 (8 micro-objects). Points 4 and 9 are noise.
const std::vector<SubspaceCluster> kHidden{{{0, 1}, {0, 1, 2, 3}}, {{2, 3}, {5, 6, 7, 8}}};
constexpr std::size_t kPoints = 10, kDims = 4;

TEST(QualityMeasures, PerfectResult) {
  const QualityMeasures m = evaluate(kHidden, kHidden, kPoints, kDims);
  EXPECT_DOUBLE_EQ(m.f1, 1.0);
  EXPECT_DOUBLE_EQ(m.f1_recall, 1.0);
  EXPECT_DOUBLE_EQ(m.e4sc, 1.0);
  EXPECT_DOUBLE_EQ(m.rnia, 0.0);
  EXPECT_DOUBLE_EQ(m.ce, 0.0);
  EXPECT_DOUBLE_EQ(m.coverage, 0.8);  // 8 of 10 points
  EXPECT_EQ(m.found_clusters, 2u);
  EXPECT_EQ(m.hidden_clusters, 2u);
}

TEST(QualityMeasures, OneMissedCluster) {
  const QualityMeasures m = evaluate({kHidden[0]}, kHidden, kPoints, kDims);
  EXPECT_DOUBLE_EQ(m.f1, 0.5);         // F1(H0) = 1, F1(H1) = 0
  EXPECT_DOUBLE_EQ(m.f1_recall, 0.5);  // same
  EXPECT_DOUBLE_EQ(m.rnia, 0.5);       // U = 16, I = 8
  EXPECT_DOUBLE_EQ(m.ce, 0.5);         // D_max = 8
  // R = (1 + 0) / 2, P = 1 / 1: E4SC = 2 * 0.5 * 1 / 1.5 = 2/3.
  EXPECT_DOUBLE_EQ(m.e4sc, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.coverage, 0.4);
}

TEST(QualityMeasures, OneSplitCluster) {
  // H0 found as two halves {0,1} and {2,3} in its own dimensions; H1 found exactly.
  const std::vector<SubspaceCluster> found{{{0, 1}, {0, 1}}, {{0, 1}, {2, 3}}, kHidden[1]};
  const QualityMeasures m = evaluate(found, kHidden, kPoints, kDims);
  // Both halves map to H0 (2^2/4 = 1 > 0), their union is H0: F1-Merge does not see the split.
  EXPECT_DOUBLE_EQ(m.f1, 1.0);
  // F1-R: H0's best half has F1 = 2*2/(4+2) = 2/3; H1: 1. Mean 5/6.
  EXPECT_DOUBLE_EQ(m.f1_recall, 5.0 / 6.0);
  // The same micro-objects are covered as often: RNIA = 0.
  EXPECT_DOUBLE_EQ(m.rnia, 0.0);
  // Matching: H0 with one half (2 points x 2 dims = 4), H1 with H1 (8): D_max = 12, U = 16.
  EXPECT_DOUBLE_EQ(m.ce, 0.25);
  // Micro-object F1: half vs H0 = 2*4/(4+8) = 2/3. R = (2/3 + 1)/2 = 5/6, P = (2/3 + 2/3 + 1)/3
  // = 7/9; E4SC = 2 R P / (R + P) = 70/87.
  EXPECT_NEAR(m.e4sc, 70.0 / 87.0, 1e-12);
}

TEST(QualityMeasures, WrongDimensions) {
  // H0's points found, but in dimensions {0, 2} instead of {0, 1}; H1 found exactly.
  const std::vector<SubspaceCluster> found{{{0, 2}, {0, 1, 2, 3}}, kHidden[1]};
  const QualityMeasures m = evaluate(found, kHidden, kPoints, kDims);
  EXPECT_DOUBLE_EQ(m.f1, 1.0);  // objects only
  EXPECT_DOUBLE_EQ(m.f1_recall, 1.0);
  // Per dimension, max / min of the cover counts over points 0-3 and 5-8:
  // d0: 4/4, d1: 4/0 (missed), d2: 8/4 (points 0-3 wrongly, 5-8 right), d3: 4/4.
  // U = 20, I = 12: RNIA = 8/20.
  EXPECT_DOUBLE_EQ(m.rnia, 0.4);
  // M(H0, F0) = 4 points x 1 shared dimension = 4; M(H1, F1) = 8: D_max = 12, CE = 8/20.
  EXPECT_DOUBLE_EQ(m.ce, 0.4);
  // Micro F1(H0, F0) = 2*4/(8+8) = 0.5: R = P = (0.5 + 1)/2 = 0.75 = E4SC.
  EXPECT_DOUBLE_EQ(m.e4sc, 0.75);
}

TEST(QualityMeasures, EmptyResult) {
  const QualityMeasures m = evaluate({}, kHidden, kPoints, kDims);
  EXPECT_DOUBLE_EQ(m.f1, 0.0);
  EXPECT_DOUBLE_EQ(m.f1_recall, 0.0);
  EXPECT_DOUBLE_EQ(m.e4sc, 0.0);
  EXPECT_DOUBLE_EQ(m.rnia, 1.0);  // U = 16, I = 0
  EXPECT_DOUBLE_EQ(m.ce, 1.0);
  EXPECT_DOUBLE_EQ(m.coverage, 0.0);
}

TEST(QualityMeasures, NoiseClusterAndOverlappingHidden) {
  // Nested hidden clusters: A = points 0-9 in {0}, B = points 0-4 in {0, 1} (B inside A).
  const std::vector<SubspaceCluster> hidden{{{0}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}, {{0, 1}, {0, 1, 2, 3, 4}}};
  // Found: B exactly, and a cluster of pure noise points 10-11 in {1}.
  const std::vector<SubspaceCluster> found{{{0, 1}, {0, 1, 2, 3, 4}}, {{1}, {10, 11}}};
  const QualityMeasures m = evaluate(found, hidden, 12, 2);
  // Found B: 5^2/10 = 2.5 for A, 5^2/5 = 5 for B: maps to B. The noise cluster maps nowhere.
  // F1(A) = 0, F1(B) = 1: F1 = 0.5.
  EXPECT_DOUBLE_EQ(m.f1, 0.5);
  // F1-R: A's best is found B: 2*5/(10+5) = 2/3; B: 1. Mean 5/6.
  EXPECT_DOUBLE_EQ(m.f1_recall, 5.0 / 6.0);
  // Micro-objects. Hidden: d0 is covered by A (0-9) and B (0-4): counts 2 for points 0-4, 1 for
  // 5-9; d1 by B: 0-4 once.
  // Found: d0 by found B: 0-4 once; d1: 0-4 once (B) and 10-11 once (noise cluster).
  // d0: max 2*5 + 1*5 = 15, min 5; d1: max 5 + 2 = 7, min 5. U = 22, I = 10: RNIA = 12/22.
  EXPECT_DOUBLE_EQ(m.rnia, 12.0 / 22.0);
  // M(A, foundB) = 5 * 1 = 5, M(B, foundB) = 5 * 2 = 10, noise cluster 0: D_max = 10.
  // CE = (22 - 10) / 22.
  EXPECT_DOUBLE_EQ(m.ce, 12.0 / 22.0);
  // Micro F1: (A: 10 micro, foundB: 10 micro, shared 5) = 0.5; (B, foundB) = 1; noise: 0.
  // R = (0.5 + 1)/2 = 0.75, P = (1 + 0)/2 = 0.5: E4SC = 2*0.75*0.5/1.25 = 0.6.
  EXPECT_DOUBLE_EQ(m.e4sc, 0.6);
  EXPECT_DOUBLE_EQ(m.coverage, 7.0 / 12.0);
}

TEST(QualityMeasures, OpenSubspaceMappingUsesSharedSquaredOverHiddenSize) {
  // Hidden A has 100 points, B (10 points) is disjoint from A. Found F shares 20 points with A
  // and 5 with B. OpenSubspace maps F to argmax |F∩H|^2/|H|: A (400/100 = 4) over B (25/10 =
  // 2.5), although F covers a larger fraction of B (0.5 against 0.2).
  SubspaceCluster a{{0}, {}}, b{{0}, {}}, f{{0}, {}};
  for (std::uint32_t p = 0; p < 100; ++p) a.points.push_back(p);
  for (std::uint32_t p = 100; p < 110; ++p) b.points.push_back(p);
  for (std::uint32_t p = 0; p < 20; ++p) f.points.push_back(p);
  for (std::uint32_t p = 100; p < 105; ++p) f.points.push_back(p);
  const QualityMeasures m = evaluate({f}, {a, b}, 110, 1);
  // U_A = F (25 points), |U_A ∩ A| = 20: F1(A) = 40/125 = 0.32; F1(B) = 0.
  EXPECT_DOUBLE_EQ(m.f1, 0.16);
}

TEST(QualityMeasures, RefusesOutOfRangeAndEmptyTruth) {
  EXPECT_THROW(evaluate({}, {}, kPoints, kDims), InputError);
  EXPECT_THROW(evaluate({}, kHidden, 0, kDims), InputError);
  EXPECT_THROW(evaluate({{{0}, {10}}}, kHidden, kPoints, kDims), InputError);
  EXPECT_THROW(evaluate({{{4}, {1}}}, kHidden, kPoints, kDims), InputError);
  EXPECT_THROW(evaluate(kHidden, {{{0}, {11}}}, kPoints, kDims), InputError);
  EXPECT_THROW(evaluate({{{0}, {3, 1}}}, kHidden, kPoints, kDims), InputError);
}

TEST(QualityMeasures, PrintsATable) {
  std::ostringstream out;
  print_quality_table(out, evaluate({kHidden[0]}, kHidden, kPoints, kDims));
  const std::string text = out.str();
  for (const char* word : {"F1", "F1-R", "E4SC", "RNIA", "CE", "coverage", "0.5000", "0.6667", "1-CE"})
    EXPECT_NE(text.find(word), std::string::npos) << word << " missing in\n" << text;
}

}  // namespace
}  // namespace subscale::evaluate
