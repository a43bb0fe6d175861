#pragma once
// The quality report as JSON (for scripts), every figure with its limit and verdict.
#include <nlohmann/json.hpp>

#include "stages/hash/hash_quality.hpp"

namespace subscale::hash {

nlohmann::json quality_to_json(const QualityReport& report);

}  // namespace subscale::hash
