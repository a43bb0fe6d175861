#pragma once
// Stage evaluate (docs/method.md §11): found clusters scored against hidden ones (F1, F1-R, E4SC,
// RNIA, CE, coverage) by quality_measures.hpp, whose one-to-one measures match clusters with the
// maximum-weight assignment of assignment.hpp; against class labels (each class a hidden cluster
// in every dimension) by class_labels.hpp; clusters read from and written in the SUBSCALE text
// form by cluster_text.hpp.
#include "stages/evaluate/class_labels.hpp"
#include "stages/evaluate/cluster_text.hpp"
#include "stages/evaluate/quality_measures.hpp"
