#pragma once
// Writers of a run folder's files (docs/output.md): results.h5, summary.json and the SUBSCALE text
// forms. Each file is written under a temporary name and renamed into place.
#include <filesystem>
#include <string>

#include "pipeline/output/run_report.hpp"

namespace subscale::pipeline {

// gzip_level 0 stores the datasets uncompressed (the fastest); 1-9 compresses them by chunks.
void write_results_hdf5(const std::filesystem::path& file, const RunReport& report, int gzip_level = 0);
std::string summary_json(const RunReport& report);
// subspaces.txt, clusters.txt: written block by block as the blocks are formatted.
void write_clusters_text(const std::filesystem::path& file, const std::vector<SubspaceCluster>& clusters);

}  // namespace subscale::pipeline
