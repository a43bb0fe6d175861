#include "pipeline/run/sweep.hpp"

#include <cstdio>
#include <iomanip>
#include <map>
#include <sstream>

#include "common/error.hpp"
#include "io/atomic_output.hpp"
#include "pipeline/log/log_format.hpp"
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

// One point's values as compared: numbers by value (0.004 and 4e-3 are one point), the rest as
// written.
std::string point_value(const Config& config, const std::string& key) {
  const ConfigKey* schema_key = config.schema().find(key);
  if (config.is_auto(key) || !schema_key) return config.string(key);
  std::ostringstream value;
  switch (schema_key->kind) {
    case ValueKind::number:
    case ValueKind::integer:
      value << std::setprecision(17) << config.number(key);
      return value.str();
    case ValueKind::bytes:
      return std::to_string(config.bytes(key));
    default:
      return config.string(key);
  }
}

// A point given twice would run into the folder of its first run; refused before any run starts.
void refuse_repeated_points(const Config& config, const std::vector<Config>& combinations,
                            const std::vector<std::string>& keys) {
  std::map<std::vector<std::string>, std::size_t> values_seen;
  std::map<std::string, std::size_t> names_seen;
  for (std::size_t i = 0; i < combinations.size(); ++i) {
    std::vector<std::string> values;
    for (const auto& key : keys) values.push_back(point_value(combinations[i], key));
    const std::string name = sweep_folder_name(combinations[i], keys);
    const auto [value_at, new_values] = values_seen.emplace(values, i);
    const auto [name_at, new_name] = names_seen.emplace(name, i);
    if (new_values && new_name) continue;
    const std::string which = " (points " + std::to_string((new_values ? name_at->second : value_at->second) + 1) +
                              " and " + std::to_string(i + 1) + " of " + std::to_string(combinations.size()) + ")";
    const std::string swept = keys.size() == 1 ? keys.front() : "the swept keys";
    if (new_values)
      throw UsageError(config.source_name() + ": two points of the sweep" + which + " would both run into the folder " +
                       name + "; write the values of " + swept + " so that they differ as text; nothing was run");
    throw UsageError(config.source_name() + ": the sweep has the point " + name + " twice" + which +
                     "; give each value of " + swept + " once; nothing was run");
  }
}

enum class PointState { pending, running, finished };

struct SweepPoint {
  Config config;
  PointState state = PointState::pending;
  std::optional<SingleRun> run;  // finished: the run, or nothing when it failed (see failure)
  std::string failure;
};

// sweep.csv and sweep.md, rewritten whole at each step: a row per point in the order they run,
// marked pending, running, ok or failed; sweep.md ends by saying whether the sweep finished, so a
// sweep that was killed is recognisably unfinished.
void write_sweep_tables(const std::filesystem::path& folder, const std::vector<std::string>& keys,
                        const std::vector<SweepPoint>& points) {
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
  std::size_t ok = 0, failed = 0, unfinished = 0;
  for (const SweepPoint& point : points) {
    std::vector<std::string> cells;
    for (const auto& key : keys) cells.push_back(point.config.string(key));
    auto number = [](double v) {
      std::ostringstream out;
      out << std::setprecision(4) << v;
      return out.str();
    };
    if (point.state != PointState::finished) {
      ++unfinished;
      cells.insert(cells.end(), columns.size() - 1, "");
      cells.push_back(point.state == PointState::running ? "running" : "pending");
    } else if (point.run) {
      ++ok;
      const SweepRow& row = point.run->row;
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
      ++failed;
      cells.insert(cells.end(), columns.size() - 1, "");
      std::string why = point.failure;
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
  if (unfinished == 0)
    md << "\nThe sweep finished: " << counted(points.size(), "point") << ", " << ok << " ok, " << failed
       << " failed.\n";
  else
    md << "\nThe sweep is unfinished: " << unfinished << " of " << counted(points.size(), "point")
       << (unfinished == 1 ? " is" : " are") << " pending or running (a sweep stopped part-way leaves them so).\n";
  io::write_text_file(folder / "sweep.csv", csv.str());
  io::write_text_file(folder / "sweep.md", md.str());
}

}  // namespace

std::filesystem::path run_sweep(const Config& config, const RunDestination& destination, const RunOptions& options,
                                const distributed::Communicator& comm) {
  const std::filesystem::path folder = destination.shown();
  const std::vector<std::string> sweep_keys = config.sweep_keys();
  const std::vector<Config> combinations = config.expand_sweeps();
  refuse_repeated_points(config, combinations, sweep_keys);
  const bool quiet = options.quiet || !comm.is_root();
  if (!quiet)
    std::fprintf(stderr, "sweep: %s over %s into %s\n", counted(combinations.size(), "run").c_str(),
                 counted(sweep_keys.size(), "key").c_str(), folder.string().c_str());
  std::vector<SweepPoint> points;
  for (const Config& combination : combinations) points.push_back({combination});
  const auto write_tables = [&] {
    if (comm.is_root() && destination.claimed->begun())
      write_sweep_tables(destination.claimed->work_path(), sweep_keys, points);
  };
  std::optional<Error> first_failure;
  for (std::size_t i = 0; i < points.size(); ++i) {
    SweepPoint& point = points[i];
    const std::string name = sweep_folder_name(point.config, sweep_keys);
    if (!quiet) std::fprintf(stderr, "[%zu/%zu] %s\n", i + 1, points.size(), name.c_str());
    point.state = PointState::running;
    // The tables name this point running from the moment its folder exists (for the first point,
    // the moment the sweep's folder does: a sweep over refused input leaves none).
    RunDestination run_destination{destination.claimed, name, write_tables};
    try {
      point.run = run_one(point.config, run_destination, options, comm);
    } catch (const Error& error) {
      // One failed combination must not lose the others: record it and go on.
      if (!quiet) std::fprintf(stderr, "  failed: %s\n", error.what());
      point.failure = error.what();
      if (!first_failure) first_failure = error;
    }
    point.state = PointState::finished;
    write_tables();
  }
  if (comm.is_root() && destination.claimed->begun()) destination.claimed->finish();
  if (first_failure) throw *first_failure;
  return folder;
}

}  // namespace subscale::pipeline
