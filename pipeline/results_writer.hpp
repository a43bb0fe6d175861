#pragma once
// Writers of a run folder's files (SPEC 13): results.h5, summary.json and the SUBSCALE text
// forms. Each file is written under a temporary name and renamed into place.
#include <filesystem>
#include <string>

#include "pipeline/run_report.hpp"

namespace subscale::pipeline {

void write_results_hdf5(const std::filesystem::path& file, const RunReport& report);
std::string summary_json(const RunReport& report);
std::string clusters_text(const std::vector<SubspaceCluster>& clusters);

}  // namespace subscale::pipeline
