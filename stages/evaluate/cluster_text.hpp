#pragma once
// The SUBSCALE text form of clusters, one a line: {d1, d2, ...}-[p1, p2, ...]
// (what common/subspace_cluster.hpp's operator<< writes, and the original code's
// maximaldense.csv). Blank lines and lines starting with '#' are skipped. Dimensions and points
// are returned sorted; a repeat is an error.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale::evaluate {

// Throws InputError naming the file, line and column of the first malformed line.
std::vector<SubspaceCluster> read_cluster_text(const std::filesystem::path& path);
std::vector<SubspaceCluster> parse_cluster_text(std::istream& in, const std::string& source_name);

}  // namespace subscale::evaluate
