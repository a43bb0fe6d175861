#pragma once
// memberships.csv (docs/output.md §7): the run's clusters turned around, one line per clustered
// point: its input row, its strongest cluster and every cluster that holds it, e.g.
//   row,strongest,clusters
//   17,2,2;5
//   18,,
// Clusters are numbered as in clusters.txt and results.h5's /clusters (0-based). The strongest is
// the one of the highest interest (points x dimensions), the first on ties: the cluster Python's
// labels_ gives each point.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "pipeline/output/run_report.hpp"

namespace subscale::pipeline {

// Each point's clusters, ascending, as compressed rows over the points.
struct Memberships {
  std::vector<std::uint64_t> offsets;   // points + 1 entries
  std::vector<std::uint32_t> clusters;  // point i's are clusters[offsets[i]:offsets[i+1]]
  std::vector<std::int64_t> strongest;  // per point, -1 for none
};

// `clusters` name points by input row; `input_rows` lists the rows clustered (ascending; empty:
// rows 0..points-1).
Memberships memberships_of(const std::vector<SubspaceCluster>& clusters, std::size_t points,
                           const std::vector<std::uint64_t>& input_rows);

// Writes the table atomically, block by block, so a run of any size needs only a block of text.
void write_memberships_csv(const std::filesystem::path& file, const std::vector<SubspaceCluster>& clusters,
                           std::size_t points, const std::vector<std::uint64_t>& input_rows);

// The run's clusters (consolidated when that ran, else merge's; none without merge), after the
// run folder named the points by input row.
void write_memberships_csv(const std::filesystem::path& file, const RunReport& report);

}  // namespace subscale::pipeline
