#pragma once
// The run report: one self-contained HTML file (inline SVG charts, no script, nothing fetched
// from a network) drawn from a finished run folder's summary.json and results.h5: the stage times,
// the clusters (a table, the dimensions they live in, scatters of the strongest; see
// report_clusters.hpp), dense units per dimension, partition fills, subspace sizes and dimensionalities, clusters per
// subspace and, when ground truth was given, the quality measures. Every section is a
// <section id="..."> with one of the ids in kReportSections.
#include <array>
#include <filesystem>
#include <string>

namespace subscale::pipeline {

inline constexpr std::array<const char*, 11> kReportSections = {
    "overview",    "clusters",   "cluster-map",    "cluster-scatter",           "stage-times",
    "dense-units", "partitions", "subspace-sizes", "subspace-dimensionalities", "clusters-per-subspace",
    "quality"};

// Throws InputError when the folder is not a finished run (no summary.json or results.h5).
std::string report_html(const std::filesystem::path& run_folder);

// Writes RUN_FOLDER/report.html (atomically) and returns its path. A run writes its report before
// summary.json (the last file of a finished run) and so hands the summary's text over.
std::filesystem::path write_report_html(const std::filesystem::path& run_folder);
std::filesystem::path write_report_html(const std::filesystem::path& run_folder, const std::string& summary_text);

}  // namespace subscale::pipeline
