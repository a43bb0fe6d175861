#pragma once
// The run report's explanation of an empty result: when the significance test passed no cluster,
// the clusters section lists the strongest candidates that failed (summary.json's
// significance.near_misses: dimensions, points, score, how far each fell short of the bar and the
// alpha it would pass at) and says which settings would report them. The test's level comes from
// the run's config.yaml.
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace subscale::pipeline {

// The test the run applied: its level and whether Benjamini-Hochberg replaced Bonferroni.
struct AppliedTest {
  double alpha = 0.01;
  bool fdr = false;
};

// significance.alpha and significance.fdr of RUN_FOLDER/config.yaml; empty when the file is
// missing or unreadable (the page then gives each candidate's alpha without the bar it missed).
std::optional<AppliedTest> applied_test(const std::filesystem::path& run_folder);

// The body of the clusters section for a run with no cluster: empty when summary.json lists no
// near misses (significance off, or the run found clusters). `names` names the input's
// dimensions (a dimension beyond it is shown as d<index>).
std::string near_miss_html(const nlohmann::json& summary, const std::optional<AppliedTest>& test,
                           const std::vector<std::string>& names);

}  // namespace subscale::pipeline
