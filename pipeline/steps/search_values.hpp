#pragma once
// The values the search reads, when they are not the held values as they are: repeated columns
// folded into one (stages/dedup, under the test) and columns on integer levels scaled to their
// reach (`levels`, stages/significance/resolution.hpp): one copy for the core, one for merge,
// consolidation, the test and a sample's memberships. The clusters found are then unfolded into the
// input's columns. Neither applies with significance off and no `levels` given: the values are
// then the held ones, untouched.
#include <optional>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "pipeline/output/run_report.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "stages/dedup/dedup.hpp"

namespace subscale::pipeline {

template <class T>
class SearchValues {
 public:
  // `sample`: the sample's values where the run finds its clusters on one (else null).
  SearchValues(const ColumnMatrix<T>& every, const ColumnMatrix<T>* sample, const RunSettings& settings);

  const ColumnMatrix<T>& every() const noexcept { return every_copy_ ? *every_copy_ : *every_; }
  // What merge, consolidation and the test read: the sample's values or every point's.
  const ColumnMatrix<T>& discovery() const noexcept {
    return sample_ ? (sample_copy_ ? *sample_copy_ : *sample_) : every();
  }
  // What the core reads (before its background ties are spread, significance_steps.hpp).
  const ColumnMatrix<T>& core() const noexcept { return core_copy_ ? *core_copy_ : discovery(); }

  const dedup::ColumnFolding& folding() const noexcept { return folding_; }
  const std::vector<std::string>& log_lines() const noexcept { return log_lines_; }

  // The map from the input's held values to every()'s, for RunReport::search.
  SearchSpace space(const RunSettings& settings) const;

  // Every list of the report in the input's columns again (a folded dimension becomes all the
  // columns of its group), before evaluation and output.
  void unfold(RunReport& report) const;

 private:
  const ColumnMatrix<T>* every_;
  const ColumnMatrix<T>* sample_;
  std::optional<ColumnMatrix<T>> every_copy_, sample_copy_, core_copy_;
  dedup::ColumnFolding folding_;
  std::vector<double> search_scales_;  // per column of every(); empty: none scaled
  std::vector<std::string> log_lines_;
};

}  // namespace subscale::pipeline
