#pragma once
// A YAML text is checked by streaming it before it is built into nodes: anchors and aliases let a
// few hundred bytes stand for billions of nodes (an "alias bomb"), and a list of millions of values
// costs gigabytes as nodes. Both are refused while reading, before the memory is taken. Duplicate
// keys, which yaml-cpp keeps silently, are refused with both lines.
#include <cstddef>
#include <string>

namespace subscale::pipeline {

struct YamlBounds {
  std::size_t max_nodes = 250000;        // after every alias is expanded
  std::size_t max_depth = 64;            // nesting of mappings and lists, aliases expanded
  std::size_t max_list_values = 100000;  // one list (a sweep makes one run per value)
};

// Throws UsageError (exit 2) naming `source`, the line and the dotted key under which a bound was
// passed or a key repeats. Syntax errors are left to the parser that builds the nodes.
void check_yaml_bounds(const std::string& text, const std::string& source, const YamlBounds& bounds = {});

}  // namespace subscale::pipeline
