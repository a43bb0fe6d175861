#include "pipeline/run/run_folder.hpp"

#include <sys/resource.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "io/atomic_output.hpp"
#include "io/same_file.hpp"
#include "pipeline/log/progress.hpp"
#include "pipeline/output/memberships_writer.hpp"
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

// How many folders down `file` lies below `folder` (1: directly in it), by device and inode, so
// that links and other spellings of either count; 0 when it does not.
int depth_below(const std::filesystem::path& file, const std::filesystem::path& folder) {
  std::error_code error;
  const std::filesystem::path real = std::filesystem::weakly_canonical(std::filesystem::absolute(file), error);
  if (error) return 0;
  int depth = 1;
  for (std::filesystem::path above = real.parent_path();; above = above.parent_path(), ++depth) {
    if (io::same_file(above, folder)) return depth;
    if (above == above.root_path() || above.empty()) return 0;
  }
}

struct NamedInput {
  std::string setting;
  std::filesystem::path path;
};

std::vector<NamedInput> run_inputs(const Config& config, const std::optional<std::filesystem::path>& resume) {
  std::vector<NamedInput> inputs;
  const std::vector<std::string> swept = config.sweep_keys();
  for (const ConfigKey& key : config.schema().keys())
    if (key.kind == ValueKind::path && config.has(key.path) &&
        std::find(swept.begin(), swept.end(), key.path) == swept.end())
      inputs.push_back({key.path, config.file_path(key.path)});
  if (resume) inputs.push_back({"--resume", *resume});
  return inputs;
}

}  // namespace

void check_out_spares_inputs(const std::filesystem::path& out, bool overwrite, const Config& config,
                             const std::optional<std::filesystem::path>& resume) {
  std::error_code error;
  if (!std::filesystem::is_directory(out, error)) return;  // a new folder holds nothing yet
  const bool replaced_whole = is_run_folder(out);
  // A folder of the user's files without --overwrite is refused by the claim itself.
  if (!replaced_whole && !overwrite) return;
  const bool sweep = !config.sweep_keys().empty();
  for (const NamedInput& input : run_inputs(config, resume)) {
    const int depth = depth_below(input.path, out);
    if (depth == 0) continue;
    const std::string where =
        "--out " + out.string() + " holds " + input.setting + " (" + input.path.string() + "), an input of this run: ";
    if (replaced_whole)
      throw UsageError(where +
                       "the folder is an earlier run's, which the new run replaces as a whole when it finishes, this "
                       "input with it; give another --out, or move the input out of the folder first");
    if ((depth == 1 && is_run_file(input.path.filename().string())) || (depth > 1 && sweep))
      throw UsageError(where + "the run would write its own " +
                       (depth == 1 ? input.path.filename().string() : "point folders") +
                       " over it; give another --out, or move the input out of the folder first");
  }
}

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
  // The write counts no work; in a batch job it says it still runs, as every stage does.
  const StageHeartbeat beat("write", progress_display(log.quiet()), settings.progress_seconds,
                            [&log](const std::string& line) { log.line(line); });
  name_points_by_input_row(report);
  io::write_text_file(folder / "config.yaml", config.to_yaml());
  report.stage_seconds.emplace_back("write", 0.0);
  // The text files and results.h5 read the same lists and write different files, so they are
  // written at once: HDF5 writes from one thread, and the text is formatted on the others (250 MB
  // of each on a tie-heavy file).
  const RunReport& written = report;
  tbb::parallel_invoke(
      [&] {
        if (!settings.text_outputs) return;
        write_clusters_text(folder / "subspaces.txt", written.core.subspaces);
        if (written.consolidated) {
          write_clusters_text(folder / "clusters.txt", written.consolidated->clusters);
          write_clusters_text(folder / "clusters_raw.txt", written.merge->clusters);
        } else if (written.merge) {
          write_clusters_text(folder / "clusters.txt", written.merge->clusters);
        }
        write_memberships_csv(folder / "memberships.csv", written);
      },
      [&] { write_results_hdf5(folder / "results.h5", written, settings.gzip_level); });
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
