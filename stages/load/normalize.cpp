#include "stages/load/normalize.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "common/text_distance.hpp"
#include "io/data_validation.hpp"

namespace subscale::load {

Normalization parse_normalization(std::string_view name, const std::string& key) {
  const std::string lower = io::to_lower(io::trim(name));
  if (lower == "minmax") return Normalization::minmax;
  if (lower == "none") return Normalization::none;
  const std::string nearest = nearest_word(lower, {"minmax", "none"});
  throw UsageError(key + ": unknown normalisation '" + std::string(name) + "'; use minmax or none" +
                   (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)"));
}

const char* to_string(Normalization normalization) {
  return normalization == Normalization::minmax ? "minmax" : "none";
}

void normalize(Dataset& dataset, Normalization normalization) {
  if (normalization == Normalization::none) return;
  for (Eigen::Index j = 0; j < dataset.values.cols(); ++j) {
    auto column = dataset.values.col(j);
    if (column.size() == 0) continue;
    const ColumnScale scale(column.minCoeff(), column.maxCoeff());
    for (Eigen::Index i = 0; i < column.size(); ++i) column[i] = scale(column[i]);
  }
}

}  // namespace subscale::load
