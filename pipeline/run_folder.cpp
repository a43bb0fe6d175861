#include "pipeline/run_folder.hpp"

#include <sys/resource.h>

#include <chrono>
#include <ctime>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "io/atomic_output.hpp"
#include "pipeline/report_html.hpp"
#include "pipeline/results_writer.hpp"

namespace subscale::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

}  // namespace

std::filesystem::path default_run_folder(const std::filesystem::path& config_file) {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::filesystem::path base = std::filesystem::path("runs") / (config_file.stem().string() + "-" + stamp);
  std::filesystem::path folder = base;
  for (int i = 2; std::filesystem::exists(folder); ++i) folder = base.string() + "-" + std::to_string(i);
  return folder;
}

void create_folder(const std::filesystem::path& folder) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw Error(ExitCode::other, folder.string() + ": cannot create the run folder: " + error.message());
}

void write_run_folder(const std::filesystem::path& folder, const Config& config, const RunSettings& settings,
                      RunReport& report, RunLog& log) {
  const auto start = Clock::now();
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
  io::write_text_file(folder / "summary.json", summary_json(report));
  if (settings.html_report) write_report_html(folder);
  log.line("wrote       " + folder.string());
}

}  // namespace subscale::pipeline
