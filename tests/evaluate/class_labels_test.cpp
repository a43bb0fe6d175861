// Class labels as full-space hidden clusters, and F1 and E4SC against them on an example computed
// by hand (the arithmetic is in the comments).
#include "stages/evaluate/class_labels.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "common/error.hpp"

namespace subscale::evaluate {
namespace {

// 6 points in 2 dimensions: class 7 = points 0-2, class 3 = points 3-4, point 5 in no class.
const std::vector<std::int64_t> kLabels{7, 7, 7, 3, 3, kNoClass};

TEST(ClassLabels, EachClassIsAHiddenClusterInEveryDimension) {
  const auto classes = classes_as_hidden_clusters(kLabels, 2);
  ASSERT_EQ(classes.size(), 2u);
  // Ascending by label: 3 first.
  EXPECT_EQ(classes[0], (SubspaceCluster{{0, 1}, {3, 4}}));
  EXPECT_EQ(classes[1], (SubspaceCluster{{0, 1}, {0, 1, 2}}));
}

TEST(ClassLabels, ScoresMatchAHandComputedExample) {
  // F0 = points 0-2 in {0}, F1 = points 3-5 in {0, 1}, F2 = point 5 alone in {1}.
  const std::vector<SubspaceCluster> found{{{0}, {0, 1, 2}}, {{0, 1}, {3, 4, 5}}, {{1}, {5}}};
  const ClassMeasures m = evaluate_against_classes(found, kLabels, 2);
  // F1: F0 maps to class 7 (3^2/3), F1 to class 3 (2^2/2), F2 to none. F1(7) = 1,
  // F1(3) = 2*2/(3+2) = 0.8; the mean is 0.9.
  EXPECT_DOUBLE_EQ(m.f1, 0.9);
  // E4SC on micro-objects: F0 with class 7 shares 3 of 3 and 6: 2*3/9 = 2/3; F1 with class 3
  // shares 2 points x 2 dimensions of 6 and 4: 2*4/10 = 0.8; F2 shares nothing.
  // R = (2/3 + 0.8) / 2 = 11/15, P = (2/3 + 0.8 + 0) / 3 = 22/45, E4SC = 2RP/(R+P) = 44/75.
  EXPECT_NEAR(m.e4sc, 44.0 / 75.0, 1e-12);
  EXPECT_EQ(m.found_clusters, 3u);
  EXPECT_EQ(m.classes, 2u);
  EXPECT_EQ(m.labelled_points, 5u);
}

TEST(ClassLabels, TheClassesThemselvesScoreOne) {
  const ClassMeasures m = evaluate_against_classes(classes_as_hidden_clusters(kLabels, 2), kLabels, 2);
  EXPECT_DOUBLE_EQ(m.f1, 1.0);
  EXPECT_DOUBLE_EQ(m.e4sc, 1.0);
}

TEST(ClassLabels, APointBeyondTheLabelsIsRefusedWithTheCounts) {
  try {
    evaluate_against_classes({{{0}, {2, 6}}}, kLabels, 2);
    FAIL() << "a point beyond the labels was accepted";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("holds point 6"), std::string::npos) << message;
    EXPECT_NE(message.find("6 labels"), std::string::npos) << message;
  }
}

TEST(ClassLabels, LabelsWithoutAnyClassAreRefused) {
  EXPECT_THROW(evaluate_against_classes({{{0}, {0}}}, {kNoClass, kNoClass}, 1), InputError);
}

TEST(ClassLabels, TheTableNamesTheClassesAndTheMeasures) {
  std::ostringstream out;
  print_class_table(out, evaluate_against_classes({{{0}, {0, 1, 2}}}, kLabels, 2));
  EXPECT_NE(out.str().find("2 classes"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("F1"), std::string::npos);
  EXPECT_NE(out.str().find("E4SC"), std::string::npos);
}

}  // namespace
}  // namespace subscale::evaluate
