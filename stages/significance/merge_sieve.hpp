#pragma once
// Which of merge's clusters the test can use, settled before they are assembled
// (merge::ClusterSieve), by a bound that needs no box.
//
// A cluster P of k points in S has a box that holds its own points and each member's whole tie
// group, so in every dimension j its mass is f_j >= max(k, the largest tie group among P's values
// in j) / n; the raw p-value P(Binomial(n, prod_j f_j) >= k) rises with the mass, so the bound at
// those floors is a lower bound on it (on a sample, the prediction for the input,
// predicted_log_tail, which rises with the mass too). A cluster is used only where it passes
// (Bonferroni at alpha over its family, search_correction.hpp) or is a candidate for consolidation
// (raw p-value <= alpha / the clusters tested, keep_significant.hpp); a cluster whose bound reaches
// neither can be neither, and of 25 M clusters on a madelon-like file (1,800 points, 500 integer
// columns, units of two points) 24 M are pairs, triples and other small clusters of that kind.
// With the denser parts on, a failing cluster of kSplitPoints or more points is kept where a part
// of it could pass by its size alone (denser_parts.hpp), since its parts' floors are their own.
//
// The candidates' threshold rises with the number of clusters found, which is only known once
// merge has run; but once merge has found sieve_from clusters, the threshold of sieve_from found is
// at most the final one, so the clusters it refuses are refused in the end too, and merge does not
// build their lists at all (may_keep).
//
// Exact: the clusters kept, their scores, the candidates, the denser parts and the consolidated
// clusters are the same as without the sieve. Only the list of the closest failures, which an
// empty result names, would be drawn from the clusters kept; so the sieve keeps everything where
// merge found fewer than kSieveFrom clusters (assembling those costs little), and the list is
// exact there. Bonferroni only: under fdr the loosest threshold depends on how many clusters are
// tested in all, the denser parts among them.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "stages/merge/merge.hpp"
#include "stages/significance/marginals.hpp"
#include "stages/significance/selection.hpp"

namespace subscale::significance {

inline constexpr std::uint64_t kSieveFrom = std::uint64_t{1} << 20;

class MergeSieve final : public merge::ClusterSieve {
 public:
  // `test`: the test merge's clusters face. `parts_test`: the one the denser parts face (on a
  // sample, the prediction for the input), or nullptr when the parts are off; their splits start
  // at `parts_min_points`. It sets nothing aside where merge found fewer than `sieve_from`.
  MergeSieve(const Marginals& marginals, const TestParams& test, const TestParams* parts_test,
             std::size_t parts_min_points, std::uint64_t sieve_from = kSieveFrom);

  void prepare(std::uint64_t found) override;
  bool keep(std::span<const std::uint32_t> dimensions, std::span<const std::uint32_t> points) const override;
  // keep() as prepared with sieve_from clusters found, from sieve_from found on: the candidates'
  // threshold rises with the number found, so what this refuses keep() refuses for any larger
  // number; below sieve_from everything may be kept.
  bool may_keep(std::span<const std::uint32_t> dimensions, std::span<const std::uint32_t> points,
                std::uint64_t found_at_least) const override;

  // -log10 of the bound on the raw p-value of a cluster of k points whose box has at least mass
  // e^log_q.
  double best_raw(std::uint32_t k, double log_q) const;

 private:
  // What keep() compares against, for a number of clusters found (the candidates' threshold
  // lowered by `slack`).
  struct Limits {
    double candidate_raw = 0;         // -log10 of the raw p-value a candidate needs
    std::vector<double> log_q_limit;  // by k: the largest ln mass at which best_raw reaches it
  };
  Limits limits_for(std::uint64_t found, double slack) const;
  bool keeps(std::span<const std::uint32_t> dimensions, std::span<const std::uint32_t> points,
             const Limits& limits) const;
  double log_floors(std::span<const std::uint32_t> dimensions, std::span<const std::uint32_t> points) const;

  const Marginals& marginals_;
  TestParams params_;
  std::optional<TestParams> parts_test_;
  std::size_t parts_min_points_;
  std::uint64_t sieve_from_;
  bool keep_all_ = true;
  Limits prepared_;                   // for the number found in all
  Limits early_;                      // for sieve_from found
  std::vector<double> least_search_;  // by s: log10 of the smallest family of s dimensions
  std::vector<double> log_share_;     // by i <= n: ln(i / n), where n is small enough
};

}  // namespace subscale::significance
