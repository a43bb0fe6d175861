#include "pipeline/run/sweep.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "common/error.hpp"
#include "io/atomic_output.hpp"
#include "pipeline/run/run_folder.hpp"
#include "pipeline/run/single_run.hpp"

namespace subscale::pipeline {
namespace {

std::string sweep_folder_name(const Config& config, const std::vector<std::string>& keys) {
  std::string name;
  for (const auto& key : keys) {
    std::string value = config.string(key);
    name += (name.empty() ? "" : "_") + key + "=" + value;
  }
  return name;
}

void write_sweep_tables(const std::filesystem::path& folder, const std::vector<std::string>& keys,
                        const std::vector<std::pair<Config, std::optional<SingleRun>>>& runs,
                        const std::vector<std::string>& failures) {
  std::ostringstream csv, md;
  // The raw_* columns score merge's clusters when consolidate ran (empty otherwise).
  const std::vector<std::string> columns = {
      "dense_units",  "subspaces", "clusters", "f1",       "e4sc",   "rnia",         "ce",      "coverage",
      "raw_clusters", "raw_f1",    "raw_e4sc", "raw_rnia", "raw_ce", "raw_coverage", "seconds", "status"};
  for (const auto& key : keys) csv << key << ",";
  md << "|";
  for (const auto& key : keys) md << " " << key << " |";
  for (std::size_t c = 0; c < columns.size(); ++c) csv << columns[c] << (c + 1 < columns.size() ? "," : "\n");
  for (const auto& column : columns) md << " " << column << " |";
  md << "\n|";
  for (std::size_t c = 0; c < keys.size() + columns.size(); ++c) md << "---|";
  md << "\n";
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto& [config, run] = runs[r];
    std::vector<std::string> cells;
    for (const auto& key : keys) cells.push_back(config.string(key));
    auto number = [](double v) {
      std::ostringstream out;
      out << std::setprecision(4) << v;
      return out.str();
    };
    if (run) {
      const SweepRow& row = run->row;
      cells.push_back(std::to_string(row.dense_units));
      cells.push_back(std::to_string(row.subspaces));
      const auto measures = [&](const std::optional<evaluate::QualityMeasures>& q) {
        if (!q) return cells.insert(cells.end(), 5, ""), void();
        for (double v : {q->f1, q->e4sc, q->rnia, q->ce, q->coverage}) cells.push_back(number(v));
      };
      const auto count = [](const std::optional<std::size_t>& n) { return n ? std::to_string(*n) : std::string(); };
      cells.push_back(count(row.clusters));
      measures(row.quality);
      cells.push_back(count(row.raw_clusters));
      measures(row.raw_quality);
      cells.push_back(number(row.seconds));
      cells.push_back("ok");
    } else {
      cells.insert(cells.end(), columns.size() - 1, "");
      std::string why = failures[r];
      for (auto& ch : why)
        if (ch == ',' || ch == '|' || ch == '\n') ch = ' ';
      cells.push_back("failed: " + why);
    }
    md << "|";
    for (std::size_t c = 0; c < cells.size(); ++c) {
      csv << cells[c] << (c + 1 < cells.size() ? "," : "\n");
      md << " " << cells[c] << " |";
    }
    md << "\n";
  }
  io::write_text_file(folder / "sweep.csv", csv.str());
  io::write_text_file(folder / "sweep.md", md.str());
}

}  // namespace

std::filesystem::path run_sweep(const Config& config, const RunDestination& destination, const RunOptions& options,
                                const distributed::Communicator& comm) {
  const std::filesystem::path folder = destination.shown();
  const std::vector<std::string> sweep_keys = config.sweep_keys();
  const std::vector<Config> combinations = config.expand_sweeps();
  const bool quiet = options.quiet || !comm.is_root();
  if (!quiet)
    std::fprintf(stderr, "sweep: %zu runs over %zu key(s) into %s\n", combinations.size(), sweep_keys.size(),
                 folder.string().c_str());
  std::vector<std::pair<Config, std::optional<SingleRun>>> runs;
  std::vector<std::string> failures;
  std::optional<Error> first_failure;
  for (std::size_t i = 0; i < combinations.size(); ++i) {
    const Config& combination = combinations[i];
    const std::string name = sweep_folder_name(combination, sweep_keys);
    if (!quiet) std::fprintf(stderr, "[%zu/%zu] %s\n", i + 1, combinations.size(), name.c_str());
    try {
      runs.emplace_back(combination, run_one(combination, RunDestination{destination.claimed, name}, options, comm));
      failures.emplace_back();
    } catch (const Error& error) {
      // One failed combination must not lose the others: record it and go on.
      if (!quiet) std::fprintf(stderr, "  failed: %s\n", error.what());
      runs.emplace_back(combination, std::nullopt);
      failures.emplace_back(error.what());
      if (!first_failure) first_failure = error;
    }
    // Until a run begins there is no folder: a sweep over refused input leaves none.
    if (!comm.is_root() || !destination.claimed->begun()) continue;
    write_sweep_tables(destination.claimed->work_path(), sweep_keys, runs, failures);
  }
  if (comm.is_root() && destination.claimed->begun()) destination.claimed->finish();
  if (first_failure) throw *first_failure;
  return folder;
}

}  // namespace subscale::pipeline
