#pragma once
// Reads Weka's ARFF format (dense data section), as the OpenSubspace benchmark sets ship:
//
//   % comment
//   @relation D5
//   @attribute dim0 real            (numeric | real | integer)
//   @attribute class {100,701,-1}   (nominal: read as labels)
//   @data
//   45.45,651.06,100
//
// Keywords are case-insensitive; names and nominal values may be quoted ('...' or "...").
// The label attribute is `label_attribute` when given, else the attribute named "class"
// (any case) when there is one; it may be nominal or integer. Nominal values that are all
// integers (as in the OpenSubspace files) are kept as the labels; other values are coded 0, 1, ...
// in the order they are declared; '?' becomes -1. Every other attribute must be numeric.
// Not supported (refused with a message): sparse rows ({...}), string/date/relational attributes,
// missing numeric values ('?').
#include <istream>
#include <string>

#include "common/dataset.hpp"

namespace subscale::io {

struct ArffOptions {
  std::string label_attribute;  // empty: the attribute named "class" when there is one
};

Dataset read_arff(const std::string& path, const ArffOptions& options = {});
Dataset read_arff(std::istream& input, const std::string& source, const ArffOptions& options = {});

}  // namespace subscale::io
