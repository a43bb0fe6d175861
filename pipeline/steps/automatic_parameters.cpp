#include "pipeline/steps/automatic_parameters.hpp"

#include <cstdio>

#include "stages/significance/auto_parameters.hpp"

namespace subscale::pipeline {

std::string exact_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

template <class T>
AutomaticParameters choose_parameters(const ColumnMatrix<T>& values, const AutomaticInput& input) {
  AutomaticParameters out{input.epsilon, input.min_points, input.merge_epsilon, input.merge_min_points, {}, {}};
  out.levels = input.levels;
  const bool significance = input.significance.enabled;
  if (input.epsilon_auto || input.min_points_auto) {
    significance::AutoRequest request;
    if (!input.epsilon_auto) request.epsilon = input.epsilon;
    if (!input.min_points_auto) request.min_points = input.min_points;
    // Without the test nothing is kept from the core, so nothing is left out of the counts either.
    request.background_mass = significance ? input.significance.test.background_share : 1.0;
    // Under the test: columns on integer levels read at their resolution (resolution.hpp), and
    // repeated columns counted once, as the search reads them (stages/dedup).
    request.levels = significance && input.levels_auto && input.epsilon_auto;
    request.fold_repeats = significance;
    if (!input.merge_epsilon_auto) request.merge_epsilon = input.merge_epsilon;
    request.merge_factor = significance ? kMergeRadius : 1.0;
    const auto choice = significance::choose_core_parameters(values, request);
    if (request.levels) {
      out.levels = choice.levels;
      out.resolved.emplace_back("levels", "\"" + format_levels(choice.levels) + "\"");
    }
    out.epsilon = choice.epsilon;
    out.min_points = choice.min_points;
    out.budget_limited = choice.budget_limited;
    out.epsilon_halved = choice.epsilon_halved;
    out.halvings = choice.halvings;
    if (input.epsilon_auto) {
      out.resolved.emplace_back("epsilon", exact_text(out.epsilon));
      out.log_lines.push_back("auto        epsilon = " + exact_text(out.epsilon) + ": " + choice.epsilon_reason);
    }
    if (input.min_points_auto) {
      out.resolved.emplace_back("min_points", std::to_string(out.min_points));
      out.log_lines.push_back("auto        min_points = " + std::to_string(out.min_points) + ": " +
                              choice.min_points_reason);
    }
    if (request.levels && !choice.levels.empty())
      out.log_lines.push_back("auto        levels: " + choice.levels_reason);
  }
  if (input.merge_epsilon_auto) {
    const double factor = significance ? kMergeRadius : 1.0;
    out.merge_epsilon = factor * out.epsilon;
    if (significance) {
      out.resolved.emplace_back("merge.epsilon", exact_text(out.merge_epsilon));
      out.log_lines.push_back("auto        merge.epsilon = " + exact_text(out.merge_epsilon) + ": " +
                              exact_text(factor) +
                              " x epsilon, the radius that links a cluster's points in its subspace");
    }
  }
  if (input.merge_min_points_auto) {
    out.merge_min_points = out.min_points;
    if (significance) {
      out.resolved.emplace_back("merge.min_points", std::to_string(out.merge_min_points));
      out.log_lines.push_back("auto        merge.min_points = " + std::to_string(out.merge_min_points) +
                              ": min_points");
    }
  }
  return out;
}

AutomaticInput automatic_input(const RunSettings& settings) {
  AutomaticInput in;
  in.epsilon_auto = settings.epsilon_auto;
  in.min_points_auto = settings.min_points_auto;
  in.merge_epsilon_auto = settings.merge_epsilon_auto;
  in.merge_min_points_auto = settings.merge_min_points_auto;
  in.significance = settings.significance;
  in.epsilon = settings.core.epsilon;
  in.min_points = settings.core.min_points;
  in.merge_epsilon = settings.merge_epsilon;
  in.merge_min_points = settings.merge_min_points;
  in.levels_auto = settings.levels_auto;
  in.levels = settings.levels;
  return in;
}

AutomaticParameters choose_on(const HeldValues& held, const AutomaticInput& input) {
  return held.visit([&](const auto& values) { return choose_parameters(values, input); });
}

void apply_parameters(const AutomaticParameters& chosen, RunSettings& settings, Config& config) {
  settings.core.epsilon = chosen.epsilon;
  settings.core.min_points = chosen.min_points;
  settings.merge_epsilon = chosen.merge_epsilon;
  settings.merge_min_points = chosen.merge_min_points;
  settings.levels = chosen.levels;
  for (const auto& [key, value] : chosen.resolved) config.set(key, value);
}

template AutomaticParameters choose_parameters(const ColumnMatrix<float>&, const AutomaticInput&);
template AutomaticParameters choose_parameters(const ColumnMatrix<double>&, const AutomaticInput&);

}  // namespace subscale::pipeline
