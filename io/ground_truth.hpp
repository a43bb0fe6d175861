#pragma once
// Ground truth in the OpenSubspace `.true` format (docs/method.md §1):
//
//   DIM=20;FILE=db_C10D20S150.bin                     <- header: number of dimensions, source
//   0 0 1 1 0 ... 1 300 0 1 2 3 ...                    <- per hidden cluster: d flags (1 = the
//                                                         cluster lives in that dimension), its
//                                                         size, then its 0-based point ids
//
// OpenSubspace itself drops the first line and takes d from the data; its real-world files have
// a title there ("GLASS TRUE CLUSTER"). Such a file is read when the caller gives the number of
// dimensions. Blank lines are skipped; CRLF line ends are accepted. Point ids of a cluster are
// returned sorted; a repeated id is an error.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale::io {

struct GroundTruth {
  std::size_t dimensions = 0;
  std::string file;                       // the header's FILE= value, when there is one
  std::vector<SubspaceCluster> clusters;  // in file order
};

struct GroundTruthOptions {
  // Required when the header has no DIM=; must match DIM= when both are there.
  std::optional<std::size_t> dimensions;
  // When set, every point id must be below it.
  std::optional<std::size_t> points;
};

// Throws InputError naming the file and line for a missing file, a bad DIM line, a line with
// too few numbers or a flag other than 0/1, a size that does not match the ids listed, a
// non-numeric token, a repeated or out-of-range point id.
GroundTruth read_ground_truth(const std::filesystem::path& path, const GroundTruthOptions& options = {});
GroundTruth parse_ground_truth(std::istream& in, const std::string& source_name,
                               const GroundTruthOptions& options = {});

// The same format: "DIM=d" (";FILE=..." when `file` is set), then one line per cluster.
std::string format_ground_truth(const GroundTruth& truth);
// Writes atomically (io/atomic_output.hpp): nothing is left behind if writing fails.
void write_ground_truth(const std::filesystem::path& path, const GroundTruth& truth);

}  // namespace subscale::io
