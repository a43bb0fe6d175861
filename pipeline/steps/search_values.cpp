#include "pipeline/steps/search_values.hpp"

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "stages/significance/resolution.hpp"

namespace subscale::pipeline {
namespace {

// The reaches of the kept columns, numbered as the folded columns (a repeat's entry is its first's).
std::vector<significance::LevelReach> folded_reaches(const std::vector<significance::LevelReach>& levels,
                                                     const dedup::ColumnFolding& folding) {
  std::vector<significance::LevelReach> out;
  for (const auto& r : levels) {
    if (!folding.any()) {
      out.push_back(r);
    } else if (r.dimension < folding.columns()) {
      const std::uint32_t f = folding.folded_of[r.dimension];
      if (folding.kept[f] == r.dimension) out.push_back({f, r.core, r.search});
    } else {
      out.push_back(r);  // out of range: scales_for says so
    }
  }
  return out;
}

template <class V>
V unfolded(const V& per_folded, const dedup::ColumnFolding& folding) {
  V out;
  out.reserve(folding.columns());
  for (std::size_t c = 0; c < folding.columns(); ++c) out.push_back(per_folded[folding.folded_of[c]]);
  return out;
}

}  // namespace

template <class T>
SearchValues<T>::SearchValues(const ColumnMatrix<T>& every, const ColumnMatrix<T>* sample, const RunSettings& settings)
    : every_(&every), sample_(sample) {
  if (settings.significance.enabled) {
    folding_ = dedup::find_repeated_columns(every);
    if (folding_.any()) {
      every_copy_ = dedup::keep_columns(every, folding_);
      if (sample) sample_copy_ = dedup::keep_columns(*sample, folding_);
      log_lines_.push_back("columns     " + std::to_string(folding_.folded_away()) + " of " +
                           std::to_string(folding_.columns()) + " columns repeat another after normalisation (" +
                           std::to_string(folding_.mirrored_count()) + " of them mirrored, 1 - x): the search reads " +
                           std::to_string(folding_.kept.size()) +
                           ", one of each, and reports every cluster in all the columns of its dimensions");
    }
  }
  if (settings.levels.empty()) return;
  const auto reaches = folded_reaches(settings.levels, folding_);
  const auto scales = significance::scales_for(reaches, significance::grids_of(this->every()), settings.core.epsilon,
                                               settings.merge_epsilon);
  // The core's copy is of the values discovery reads; the search's copies replace them.
  search_scales_ = scales.search;
  core_copy_ = significance::scaled(discovery(), scales.core);
  every_copy_ = significance::scaled(this->every(), scales.search);
  if (sample) sample_copy_ = significance::scaled(sample_copy_ ? *sample_copy_ : *sample, scales.search);
  log_lines_.push_back("levels      " + std::to_string(reaches.size()) +
                       " dimensions on integer levels scaled to their reach (levels in config.yaml): epsilon and "
                       "merge.epsilon hold whole levels there");
}

template <class T>
SearchSpace SearchValues<T>::space(const RunSettings& settings) const {
  SearchSpace out{settings.normalization, std::is_same_v<T, float> ? Precision::float32 : Precision::float64,
                  folding_.kept, search_scales_, settings.merge_epsilon};
  if (!folding_.any()) {
    out.columns.resize(static_cast<std::size_t>(every_->cols()));
    std::iota(out.columns.begin(), out.columns.end(), 0U);
  }
  return out;
}

template <class T>
void SearchValues<T>::unfold(RunReport& report) const {
  if (!folding_.any()) return;
  dedup::unfold(report.core.subspaces, folding_);
  if (report.merge) dedup::unfold(report.merge->clusters, folding_);
  if (report.consolidated) dedup::unfold(report.consolidated->clusters, folding_);
  if (report.significance)
    for (auto& miss : report.significance->near_misses) miss.dimensions = dedup::unfold(miss.dimensions, folding_);
  if (report.core.units_per_dimension.size() == folding_.kept.size())
    report.core.units_per_dimension = unfolded(report.core.units_per_dimension, folding_);
  if (report.core.density.dimensions.size() == folding_.kept.size())
    report.core.density.dimensions = unfolded(report.core.density.dimensions, folding_);
}

template class SearchValues<float>;
template class SearchValues<double>;

}  // namespace subscale::pipeline
