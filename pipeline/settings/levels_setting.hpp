#pragma once
// The `levels` key: the reach in levels of each column on integer levels
// (stages/significance/resolution.hpp), as the run's config.yaml writes it back.
//   auto: chosen from the data with epsilon (epsilon: auto and significance on), else none;
//   none: every column searched on its values as they are;
//   "DIM:CORE:MERGE,...": in dimension DIM (0-based) the core links points up to CORE levels apart
//   and merge and the test up to MERGE levels apart (each listed column is scaled to make it so).
#include <string>
#include <vector>

#include "stages/significance/resolution.hpp"

namespace subscale::pipeline {

// UsageError naming the key for text of another form.
std::vector<significance::LevelReach> parse_levels(const std::string& text);

// "none" for an empty list.
std::string format_levels(const std::vector<significance::LevelReach>& levels);

}  // namespace subscale::pipeline
