#pragma once
// Stage significance (docs/significance.md): which subspace clusters are more than chance under the
// data's own per-dimension distributions, and the parameters chosen from the data. It runs between
// the other stages of a run (pipeline/steps/significance_steps.hpp composes it):
// - before the core: the background ties of each dimension kept out of its work (heavy_ties.hpp),
//   and epsilon and min_points chosen when they are auto (auto_parameters.hpp);
// - before merge: the subspaces none of whose clusters could pass skipped (subspace_bound.hpp,
//   keep_significant.hpp), and, where ties fill the units with chance dimensions, the subspaces
//   pooled into their pairs of dimensions (pooled_pairs.hpp);
// - after merge and consolidation: every cluster scored (cluster_score.hpp, corrected for the
//   search by search_correction.hpp), its dimensions checked (weak_dimensions.hpp), the
//   significant ones kept, strongest first (selection.hpp, keep_significant.hpp), and pieces of a
//   stronger cluster dropped (distinct_clusters.hpp).
// Every step reads the data's marginals (marginals.hpp), made once per run.
#include "stages/significance/auto_parameters.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/distinct_clusters.hpp"
#include "stages/significance/heavy_ties.hpp"
#include "stages/significance/keep_significant.hpp"
#include "stages/significance/marginals.hpp"
#include "stages/significance/pooled_pairs.hpp"
#include "stages/significance/search_correction.hpp"
#include "stages/significance/selection.hpp"
#include "stages/significance/subspace_bound.hpp"
#include "stages/significance/weak_dimensions.hpp"
