#pragma once
// After discovery on a sample (sampling.hpp): the clusters found on it extended to every point and
// tested there, the sample's own lists (subspaces, merge's clusters) renamed to the input's points.
#include "common/dataset.hpp"
#include "common/stage_progress.hpp"
#include "pipeline/output/run_report.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "pipeline/steps/input_loading.hpp"

namespace subscale::pipeline {

// `values`: every point; `sample_values`: the sample's rows of them. The run's clusters (the
// consolidated ones, or merge's without consolidation) become the points of `values` within
// merge.epsilon of one of their sample points in their subspace (stages/sample/membership.hpp),
// and are tested again on every point against the whole input's marginals: the significant and
// distinct ones stay, strongest first. The core's subspaces and merge's clusters stay the
// sample's, their points renamed to rows of `values`.
template <class T>
void extend_sample_result(const ColumnMatrix<T>& values, const ColumnMatrix<T>& sample_values,
                          const DrawnSample& sample, const RunSettings& settings, RunReport& report,
                          const StageProgress& progress = {});

}  // namespace subscale::pipeline
