#include "pipeline/run/run_folder.hpp"

#include <sys/resource.h>

#include <chrono>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "io/atomic_output.hpp"
#include "pipeline/output/results_writer.hpp"
#include "pipeline/report/report_html.hpp"

namespace subscale::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

// Points are positions in the matrix the stages saw; where join or filter dropped rows, those are
// not the input's rows, so every list written names each point by its input row instead. The map
// is ascending, so each list stays sorted.
void name_points_by_input_row(RunReport& report) {
  if (report.input_rows.empty()) return;
  const auto rename = [&](std::vector<SubspaceCluster>& clusters) {
    for (auto& cluster : clusters)
      for (auto& point : cluster.points) point = static_cast<std::uint32_t>(report.input_rows[point]);
  };
  rename(report.core.subspaces);
  if (report.merge) rename(report.merge->clusters);
  if (report.consolidated) rename(report.consolidated->clusters);
}

}  // namespace

std::filesystem::path RunDestination::shown() const {
  if (!claimed) return {};
  return name.empty() ? claimed->path() : claimed->path() / name;
}

std::filesystem::path RunDestination::begin() const {
  claimed->begin();
  if (name.empty()) return claimed->work_path();
  const std::filesystem::path folder = claimed->work_path() / name;
  create_folder(folder);
  if (on_begin) on_begin();
  return folder;
}

void create_folder(const std::filesystem::path& folder) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw Error(ExitCode::other, folder.string() + ": cannot create the run folder: " + error.message());
}

void write_run_folder(const std::filesystem::path& folder, const std::filesystem::path& shown, const Config& config,
                      const RunSettings& settings, RunReport& report, RunLog& log) {
  const auto start = Clock::now();
  name_points_by_input_row(report);
  io::write_text_file(folder / "config.yaml", config.to_yaml());
  if (settings.text_outputs) {
    write_clusters_text(folder / "subspaces.txt", report.core.subspaces);
    if (report.consolidated) {
      write_clusters_text(folder / "clusters.txt", report.consolidated->clusters);
      write_clusters_text(folder / "clusters_raw.txt", report.merge->clusters);
    } else if (report.merge) {
      write_clusters_text(folder / "clusters.txt", report.merge->clusters);
    }
  }
  report.stage_seconds.emplace_back("write", 0.0);
  write_results_hdf5(folder / "results.h5", report, settings.gzip_level);
  report.stage_seconds.back().second = seconds_since(start);
  report.peak_memory_bytes = peak_resident_bytes();
  const std::string summary = summary_json(report);
  if (settings.html_report) write_report_html(folder, summary);
  log.line("wrote       " + shown.string());
  log.check_written();
  // Last: a folder without summary.json is not a finished run.
  io::write_text_file(folder / "summary.json", summary);
}

}  // namespace subscale::pipeline
