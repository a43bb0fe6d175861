#pragma once
// The `filter:` section of a clustering run (docs/stages.md §4): rows of the input selected by a predicate
// before normalisation (after `join:` when both are set). The predicate sees the data's columns
// by name (the file's column names, else c0, c1, ... by 0-based position, as float64) and, when
// the input has ids, the int64 column `id`. With ground_truth.path set the point ids must keep
// referring to the input's rows, so a filter that drops rows is refused there.
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

#include "common/dataset.hpp"
#include "pipeline/settings/config.hpp"
#include "stages/filter/filter.hpp"

namespace subscale::pipeline {

struct FilterSection {
  YAML::Node where;
  subscale::Backend backend = subscale::Backend::cpu;
};

// The filter.* keys of the run's schema.
void add_filter_section_keys(ConfigSchema& schema);

// std::nullopt when filter.where is unset.
std::optional<FilterSection> read_filter_section(const Config& config);

// Keeps the selected rows of `data` (values, ids, labels); returns the log line. Throws before
// any output exists: UsageError for a bad predicate or a dropped row with ground truth set.
std::string apply_filter(const FilterSection& section, bool ground_truth_set, Dataset& data);

}  // namespace subscale::pipeline
