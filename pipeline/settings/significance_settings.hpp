#pragma once
// The settings of the significance test between the run's stages (pipeline/steps/significance_steps.hpp),
// read from the config's significance section.
#include <cstddef>
#include <cstdint>

#include "stages/significance/selection.hpp"

namespace subscale::pipeline {

struct SignificanceSettings {
  bool enabled = true;
  significance::TestParams test;
  // A consolidated cluster that shares this share of its points and of its dimensions with a
  // stronger one is a piece of it (stages/significance/distinct_clusters.hpp).
  double distinct_overlap = 0.5;
  // Whether merge clusters that fail are clustered again for their denser parts
  // (stages/significance/denser_parts.hpp).
  bool denser_parts = true;
  // Merge clusters not significant on their own passed to consolidation at most
  // (stages/significance/keep_significant.hpp, consolidation_candidates).
  std::size_t consolidation_budget = 2000;
  // Where a dense unit holds more than this many dimensions by chance (ties), the subspaces are
  // pooled into their pairs of dimensions before merge (stages/significance/pooled_pairs.hpp),
  // unless that takes more than pooling_budget additions.
  double pooling_chance_dimensions = 1.0;
  std::uint64_t pooling_budget = 2'000'000'000;
};

}  // namespace subscale::pipeline
