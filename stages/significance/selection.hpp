#pragma once
// Which scored candidates are significant.
//
// bonferroni (the default): a candidate passes when its corrected p-value (raw p-value times its
// family size, search_correction.hpp) is at most alpha; the chance that any cluster of pure noise
// passes is then at most alpha. fdr: Benjamini-Hochberg on the same weighted family: with the
// candidates sorted by corrected p-value, the first r pass, r the largest rank with corrected
// p-value <= alpha * r; the expected share of false clusters among those reported is then at most
// alpha (for positively dependent tests, which nested and overlapping boxes are).
#include <cstdint>
#include <vector>

#include "stages/significance/cluster_score.hpp"

namespace subscale::significance {

enum class Correction { bonferroni, fdr };

struct TestParams {
  double alpha = 0.01;
  Correction correction = Correction::bonferroni;
  // A value shared by more than this share of a dimension's points is its background, kept out of
  // the core's work (heavy_ties.hpp); and a cluster gathers in a dimension where its points'
  // interval holds at most this share of all points: one that gathers in fewer than two is no
  // subspace cluster and never passes (keep_significant.hpp).
  double background_share = 0.5;
  // Where clusters are found on a sample of the input: the input's points over the sample's. The
  // clusters carried to every point are then chosen by the score each predicts for the input
  // (predicted_for_input): a 2% cluster in 2 of 60 dimensions, 143 points of a 7,812-point sample,
  // fails on the sample (log10 p -13.9 against a search family of 10^16.3) and passes on the input
  // by hundreds of orders. The test on every point decides. 1: no sample.
  double sample_scale = 1.0;
  // The shapes a cluster is judged by (cluster_score.hpp): boxes for merge's clusters, and in two
  // dimensions also the turned rectangle for the consolidated ones.
  Shapes shapes = Shapes::boxes;
};

// significance.correction's text: "bonferroni" or "fdr"; anything else is a UsageError.
Correction parse_correction(const std::string& text);
const char* to_string(Correction correction);

// keep[i] is true where scores[i] passes.
std::vector<bool> significant(const std::vector<ClusterScore>& scores, const TestParams& params);

// The indices of the kept candidates, strongest (highest score) first; ties by index, so the order
// does not depend on the number of threads.
std::vector<std::size_t> kept_by_score(const std::vector<ClusterScore>& scores, const TestParams& params);

}  // namespace subscale::significance
