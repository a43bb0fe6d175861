#include "pipeline/steps/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "common/error.hpp"
#include "pipeline/steps/automatic_parameters.hpp"
#include "stages/sample/sample.hpp"
#include "stages/significance/auto_parameters.hpp"

namespace subscale::pipeline {
namespace {

std::size_t smallest_sample(const SampleSettings& settings) {
  return static_cast<std::size_t>(std::ceil(kSmallestClusterPoints / settings.smallest_cluster));
}

DrawnSample draw(const HeldValues& held, const std::vector<std::uint32_t>& order, std::size_t size,
                 std::uint64_t seed) {
  DrawnSample sample;
  sample.rows = sample::first_rows(order, size);
  sample.seed = seed;
  sample.held = held.visit([&](const auto& values) { return HeldValues::of(sample::take_rows(values, sample.rows)); });
  return sample;
}

struct SampleChoice {
  std::optional<DrawnSample> sample;
  AutomaticParameters parameters;
};

// The largest halving n / 2^k of the input whose epsilon the data's spacing sets, down to
// `smallest`. At a fixed epsilon the units of pairs grow as the square of the points, and the
// window's share keeps epsilon about where it is as the points halve, so h halvings of epsilon
// on every point suggest k = ceil(h / 2); the search starts there and steps to the answer.
SampleChoice halve_until_spacing_sets_epsilon(const HeldValues& held, const AutomaticInput& in, std::size_t smallest,
                                              std::uint64_t seed, std::uint32_t halvings) {
  const auto order = sample::draw_order(held.points(), seed);
  const std::size_t n = held.points();
  std::map<std::uint32_t, SampleChoice> tried;
  const auto at = [&](std::uint32_t k) -> const SampleChoice& {
    auto found = tried.find(k);
    if (found != tried.end()) return found->second;
    SampleChoice choice;
    choice.sample = draw(held, order, std::max(n >> k, smallest), seed);
    choice.parameters = choose_on(choice.sample->held, in);
    return tried.emplace(k, std::move(choice)).first->second;
  };
  const auto fits = [&](std::uint32_t k) { return !at(k).parameters.epsilon_halved; };
  const auto floor_of = [&](std::uint32_t k) { return (n >> k) <= smallest; };
  std::uint32_t k = std::max<std::uint32_t>(1, (halvings + 1) / 2);
  while (!fits(k) && !floor_of(k)) ++k;         // too large: halve on
  while (fits(k) && k > 1 && fits(k - 1)) --k;  // room to spare: double back
  return at(k);
}

std::string budget_note(const AutomaticParameters& chosen, bool sampled) {
  std::ostringstream note;
  note << "the dense-unit budget, not the data's spacing, set "
       << (chosen.epsilon_halved ? "epsilon (halved to " + exact_text(chosen.epsilon) + ")"
                                 : "min_points (" + std::to_string(chosen.min_points) + ")")
       << (sampled ? " even on the sample" : "")
       << ": clusters may shatter into pieces too small to pass the test, so an empty or thin result may be the "
          "budget's, not the data's; ";
  if (chosen.epsilon_halved)
    note << (sampled ? "a larger sample.smallest_cluster (a smaller sample), " : "sample.enabled: auto, ")
         << "fewer dimensions, or epsilon and min_points=3 given explicitly (a longer run) resolve the clusters";
  else
    note << "min_points=3 given explicitly resolves units of three points at the cost of a longer run";
  return note.str();
}

// Whether `epsilon: auto` on every point would halve epsilon below the data's spacing, and about
// how many times. Exact up to kDecisionPoints; beyond, from a sample of that many (the exact
// choice sorts every column and counts the units once per halving, minutes on millions of
// points): at a fixed epsilon the units of pairs grow as the square of the points.
struct WholeInput {
  std::optional<AutomaticParameters> exact;
  std::uint32_t halvings = 0;
  std::string reason;  // empty: no halving
};
constexpr std::size_t kDecisionPoints = std::size_t{1} << 18;

WholeInput judge_whole_input(const HeldValues& held, const AutomaticInput& in, const RunSettings& settings) {
  WholeInput whole;
  const std::size_t n = held.points();
  if (n <= kDecisionPoints) {
    whole.exact = choose_on(held, in);
    whole.halvings = whole.exact->halvings;
    if (whole.exact->epsilon_halved)
      whole.reason = "with every point the dense units fit the budget only with epsilon halved to " +
                     exact_text(whole.exact->epsilon) + ", below the data's spacing, where clusters shatter";
    return whole;
  }
  const DrawnSample probe = draw(held, sample::draw_order(n, settings.sample.seed), kDecisionPoints, 0);
  const AutomaticParameters chosen = choose_on(probe.held, in);
  const double growth = std::pow(static_cast<double>(n) / static_cast<double>(kDecisionPoints), 2);
  const double pairs = probe.held.visit([&](const auto& values) {
    return significance::planned_units(values, chosen.epsilon, 2, settings.significance.test.background_share);
  });
  const double units = pairs * growth, budget = significance::AutoRequest{}.unit_budget;
  if (!chosen.epsilon_halved && units <= budget) return whole;
  whole.halvings = chosen.halvings + static_cast<std::uint32_t>(std::ceil(std::log2(std::max(units / budget, 1.0))));
  std::ostringstream reason;
  reason << "with every point the dense units would fit the budget only with epsilon halved about " << whole.halvings
         << " times (judged on " << kDecisionPoints
         << " of the points: units of pairs grow as the square of the points), below the data's spacing, where "
            "clusters shatter";
  whole.reason = reason.str();
  return whole;
}

}  // namespace

std::vector<std::string> resolve_sample_and_parameters(LoadedInput& input, RunSettings& settings, Config& config,
                                                       BudgetLimit& budget) {
  const AutomaticInput in = automatic_input(settings);
  const SampleSettings& s = settings.sample;
  const std::size_t n = input.held.points();
  const std::size_t smallest = smallest_sample(s);
  const bool may_sample = settings.significance.enabled && s.enabled.value_or(true);
  std::optional<AutomaticParameters> whole;
  std::uint32_t halvings = 1;
  bool judged = false;
  std::string reason;
  if (s.enabled.value_or(false)) {
    reason = "sample.enabled: true";
  } else if (may_sample && n > smallest) {
    WholeInput judgement = judge_whole_input(input.held, in, settings);
    whole = std::move(judgement.exact);
    halvings = std::max<std::uint32_t>(judgement.halvings, 1);
    reason = std::move(judgement.reason);
    judged = true;
  }
  SampleChoice choice;
  if (!reason.empty() && s.points && *s.points < n) {
    choice.sample = draw(input.held, sample::draw_order(n, s.seed), *s.points, s.seed);
    choice.parameters = choose_on(choice.sample->held, in);
  } else if (!reason.empty() && !s.points && n > smallest) {
    choice = halve_until_spacing_sets_epsilon(input.held, in, smallest, s.seed, halvings);
  } else {
    choice.parameters = whole ? *whole : choose_on(input.held, in);
  }
  std::vector<std::string> lines;
  if (choice.sample) {
    choice.sample->reason = reason;
    std::ostringstream line;
    line << "sample      " << choice.sample->rows.size() << " of " << n << " points (sample.seed " << s.seed
         << "): " << reason
         << "; the clusters are found on the sample, then every point's membership is decided in each cluster's "
            "subspace and the clusters are tested on every point";
    lines.push_back(line.str());
    config.set("sample.enabled", "true");
    config.set("sample.points", std::to_string(choice.sample->rows.size()));
    input.sample = std::move(choice.sample);
  } else if (settings.significance.enabled && !s.enabled.has_value() && judged) {
    config.set("sample.enabled", "false");  // decided from the whole input: the same on a rerun
  }
  apply_parameters(choice.parameters, settings, config);
  for (const auto& line : choice.parameters.log_lines) lines.push_back(line);
  // min_points = 2 alone is common and harmless (merge links the pairs); a halved epsilon shatters.
  if (choice.parameters.epsilon_halved) {
    budget.limited = true;
    budget.note = budget_note(choice.parameters, input.sample.has_value());
  }
  return lines;
}

}  // namespace subscale::pipeline
