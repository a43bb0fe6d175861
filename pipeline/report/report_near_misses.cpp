#include "pipeline/report/report_near_misses.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pipeline/report/svg_chart.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/core_schema.hpp"

namespace subscale::pipeline {
namespace {

using nlohmann::json;

struct Miss {
  std::vector<std::uint32_t> dimensions;
  std::uint64_t points = 0;
  double score = 0;
  bool best_case = false;  // a subspace skipped before merge: `score` bounds its clusters' scores
};

std::string miss_number(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string code(const std::string& setting) { return "<code>" + escape_html(setting) + "</code>"; }

// 10^-score: the least alpha at which the candidate passes on its own (Bonferroni).
double alpha_needed(double score) { return std::pow(10.0, -score); }

// The setting to write for `alpha`, to two digits: rounded up where it must reach alpha (rounded
// down it would miss), down where it must stay below.
std::string alpha_setting(double alpha, bool up = true) {
  const double scale = std::pow(10.0, std::floor(std::log10(alpha)) - 1);
  const double digits = up ? std::ceil(alpha * (1 + 1e-9) / scale) : std::floor(alpha * (1 - 1e-9) / scale);
  return code("significance.alpha: " + miss_number("%.2g", std::min(1.0, digits * scale)));
}

std::vector<Miss> read_misses(const json& summary) {
  std::vector<Miss> misses;
  if (!summary.contains("significance") || !summary["significance"].is_object()) return misses;
  const json& significance = summary["significance"];
  if (!significance.contains("near_misses")) return misses;
  for (const json& entry : significance["near_misses"])
    misses.push_back({entry.at("dimensions").get<std::vector<std::uint32_t>>(), entry.at("points").get<std::uint64_t>(),
                      entry.at("score").get<double>(), entry.value("best_case", false)});
  return misses;
}

std::string dimension_names(const std::vector<std::uint32_t>& dimensions, const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 12;
  std::string text;
  for (std::size_t i = 0; i < std::min(kShown, dimensions.size()); ++i)
    text += (i ? ", " : "") +
            (dimensions[i] < names.size() ? names[dimensions[i]] : std::string(1, 'd') + std::to_string(dimensions[i]));
  if (dimensions.size() > kShown) text += ", ... (" + std::to_string(dimensions.size() - kShown) + " more)";
  return text;
}

// The score the candidate of 1-based `rank` needed: -log10 alpha, and with Benjamini-Hochberg
// log10 rank less (the r strongest pass when the r-th passes at r x alpha).
double bar(const AppliedTest& test, std::size_t rank) {
  return -std::log10(test.alpha) - (test.fdr ? std::log10(static_cast<double>(rank)) : 0.0);
}

// The least alpha at which the `count` strongest of the list would pass: the weakest of them on its
// own under Bonferroni; under Benjamini-Hochberg the best rank r >= count whose r-th passes at r x
// alpha. Candidates beyond the list are weaker and can only add passes, so this is at most it.
double alpha_for(const std::vector<Miss>& misses, std::size_t count, bool fdr) {
  if (!fdr) return alpha_needed(misses[count - 1].score);
  double least = 1;
  for (std::size_t r = count; r <= misses.size(); ++r)
    if (misses[r - 1].score > 0) least = std::min(least, alpha_needed(misses[r - 1].score) / static_cast<double>(r));
  return least;
}

std::string headline(const std::optional<AppliedTest>& test) {
  if (!test)
    return "<p>No cluster passed the significance test (the run folder's config.yaml, which holds the test's "
           "level, could not be read). The strongest candidates that failed, strongest first:</p>\n";
  const std::string alpha = miss_number("%g", test->alpha);
  const std::string rule = test->fdr
                               ? "Benjamini-Hochberg (" + code("significance.fdr: true") + ") at " +
                                     code("significance.alpha: " + alpha) + ": the r-th strongest needs a score of " +
                                     miss_number("%.2f", bar(*test, 1)) + " - log10 r"
                               : "Bonferroni at " + code("significance.alpha: " + alpha) + ": a score of " +
                                     miss_number("%.2f", bar(*test, 1)) + " or more";
  return "<p>No cluster passed the significance test (" + rule +
         "). The strongest candidates that failed, strongest first:</p>\n";
}

std::string miss_table(const std::vector<Miss>& misses, const std::optional<AppliedTest>& test,
                       const std::vector<std::string>& names) {
  std::string table =
      "<table class=\"near-misses\"><tr><th>rank</th><th>dimensions</th><th>|S|</th><th>points</th><th>score</th>"
      "<th>needed</th><th>short by</th><th>passes at alpha</th></tr>";
  for (std::size_t r = 1; r <= misses.size(); ++r) {
    const Miss& miss = misses[r - 1];
    const std::string needed = test ? miss_number("%.2f", bar(*test, r)) : "-";
    const std::string short_by = test ? miss_number("%.2f", bar(*test, r) - miss.score) : "-";
    const std::string alpha = miss.score > 0 ? miss_number("%.3g", alpha_needed(miss.score)) : "none below 1";
    table += "<tr class=\"near-miss-row\" data-rank=\"" + std::to_string(r) + "\"" +
             (miss.best_case ? " data-best-case=\"true\"" : "") + "><td>" + std::to_string(r) + "</td><td>" +
             escape_html(dimension_names(miss.dimensions, names)) + "</td><td>" +
             std::to_string(miss.dimensions.size()) + "</td><td>" + std::to_string(miss.points) + "</td><td>" +
             (miss.best_case ? "at most " : "") + miss_number("%.2f", miss.score) + "</td><td>" + needed + "</td><td>" +
             short_by + "</td><td>" + alpha + "</td></tr>";
  }
  table += "</table>\n";
  if (misses.front().best_case)
    table +=
        "<p class=\"note\">Every subspace was skipped before merge: each row is a subspace, its points, and the "
        "best score any cluster of them could reach (a bound, not a cluster's own score).</p>\n";
  return table;
}

// Which settings would report the candidates, as items of a list.
std::string settings_advice(const std::vector<Miss>& misses, const std::optional<AppliedTest>& test) {
  const bool fdr = test && test->fdr;
  std::string items;
  const auto item = [&](const std::string& text) { items += "<li>" + text + "</li>"; };
  const Miss& best = misses.front();
  std::size_t positive = 0;
  while (positive < misses.size() && misses[positive].score > 0) ++positive;
  if (positive == 0) {
    item(
        "No alpha below 1 would report any of them: each is as likely as not by chance in a search this wide "
        "(the test counts every box of every subspace of its size).");
  } else if (best.best_case) {
    item("Below " + alpha_setting(alpha_for(misses, 1, fdr), false) +
         " no cluster of these subspaces can pass; at or above it, one might.");
  } else {
    item(alpha_setting(alpha_for(misses, 1, fdr)) +
         " would report the strongest, and clusters of pure noise would then pass at about that rate.");
    if (positive > 1)
      item(alpha_setting(alpha_for(misses, positive, fdr)) + " would report all " + std::to_string(positive) +
           " listed.");
    if (!fdr && positive > 1)
      item(code("significance.fdr: true") + " (Benjamini-Hochberg: the r strongest pass when the r-th passes at r x " +
           "alpha; it bounds the share of chance clusters among those reported, a weaker promise) with " +
           alpha_setting(alpha_for(misses, positive, true)) + " would report all " + std::to_string(positive) + ".");
  }
  item("More points, fewer dimensions, or a cluster that holds more of the points raise the scores.");
  return "<p>What would report them (the run's earlier steps test at the same level, so a rerun decides):</p>\n"
         "<ul class=\"near-miss-settings\">" +
         items + "</ul>\n";
}

}  // namespace

std::optional<AppliedTest> applied_test(const std::filesystem::path& folder) {
  const auto file = folder / "config.yaml";
  if (!std::filesystem::exists(file)) return std::nullopt;
  try {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const Config config = Config::from_text(text.str(), {}, core_config_schema(), ".", file.string());
    return AppliedTest{config.number("significance.alpha"), config.boolean("significance.fdr")};
  } catch (const std::exception&) {
    return std::nullopt;  // the page says the level is not known
  }
}

std::string near_miss_html(const json& summary, const std::optional<AppliedTest>& test,
                           const std::vector<std::string>& names) {
  const std::vector<Miss> misses = read_misses(summary);
  if (misses.empty()) return "";
  return headline(test) + miss_table(misses, test, names) + settings_advice(misses, test);
}

}  // namespace subscale::pipeline
