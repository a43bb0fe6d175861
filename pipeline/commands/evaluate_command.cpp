#include "pipeline/commands/evaluate_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "io/atomic_output.hpp"
#include "io/cluster_list_hdf5.hpp"
#include "io/ground_truth.hpp"
#include "io/host_memory.hpp"
#include "pipeline/commands/config_subcommand.hpp"
#include "pipeline/commands/evaluate_classes.hpp"
#include "pipeline/output/output_paths.hpp"
#include "stages/evaluate/evaluate.hpp"

namespace subscale::pipeline {

namespace {

nlohmann::json measures_json(const evaluate::QualityMeasures& m) {
  return {{"found_clusters", m.found_clusters},
          {"hidden_clusters", m.hidden_clusters},
          {"f1", m.f1},
          {"f1_recall", m.f1_recall},
          {"e4sc", m.e4sc},
          {"rnia", m.rnia},
          {"ce", m.ce},
          {"coverage", m.coverage}};
}

void print_side_by_side(std::ostream& out, const evaluate::QualityMeasures& found,
                        const evaluate::QualityMeasures& raw) {
  char line[128];
  out << "quality against " << found.hidden_clusters << " hidden clusters\n";
  std::snprintf(line, sizeof line, "  %-9s %12s %12s   %s\n", "measure", "found", "raw", "best");
  out << line;
  std::snprintf(line, sizeof line, "  %-9s %12zu %12zu\n", "clusters", found.found_clusters, raw.found_clusters);
  out << line;
  const auto row = [&](const char* name, double a, double b, const char* best) {
    std::snprintf(line, sizeof line, "  %-9s %12.4f %12.4f   %s\n", name, a, b, best);
    out << line;
  };
  row("F1", found.f1, raw.f1, "1");
  row("F1-R", found.f1_recall, raw.f1_recall, "1");
  row("E4SC", found.e4sc, raw.e4sc, "1");
  row("RNIA", found.rnia, raw.rnia, "0");
  row("CE", found.ce, raw.ce, "0");
  row("coverage", found.coverage, raw.coverage, "");
}

void check_dimensions(const std::vector<SubspaceCluster>& found, const std::filesystem::path& file,
                      const std::filesystem::path& truth_file, std::size_t truth_dimensions) {
  for (std::size_t c = 0; c < found.size(); ++c) {
    if (!found[c].dimensions.empty() && found[c].dimensions.back() >= truth_dimensions) {
      throw InputError("cluster file '" + file.string() + "': cluster " + std::to_string(c + 1) +
                       " lives in dimension " + std::to_string(found[c].dimensions.back()) + ", but '" +
                       truth_file.string() + "' has " + std::to_string(truth_dimensions) +
                       " dimensions; do the two files belong to the same data set?");
    }
  }
}

// The data's number of points from a finished run's summary.json (nothing when it does not say):
// the rows of its input as loaded, which its point ids number even where join or filter dropped
// some; a folder without summary.json is an unfinished run, refused as `report` refuses it.
std::optional<std::size_t> finished_run_points(const std::filesystem::path& folder) {
  const auto summary_file = folder / "summary.json";
  if (!std::filesystem::exists(summary_file))
    throw InputError("'" + folder.string() +
                     "' has no summary.json: it is not a finished run (it may still be running, or have failed); "
                     "give the folder of a finished run, or its clusters file itself");
  std::ifstream in(summary_file);
  const nlohmann::json summary = nlohmann::json::parse(in, nullptr, false);
  if (!summary.is_object()) return {};
  for (const char* key : {"input_rows", "points"})
    if (summary.contains(key) && summary[key].is_number_unsigned()) return summary[key].get<std::size_t>();
  return {};
}

// Scoring keeps a few counters for every point; an id read from a file decides how many, so the
// memory is checked before it is taken (a one-line file naming point 4294967295 asked for 80 GB).
void check_scoring_memory(std::size_t points, const io::GroundTruth& truth, bool points_given) {
  constexpr std::uint64_t bytes_per_point = 5 * sizeof(std::uint32_t);
  const auto bytes = io::checked_bytes({points}, bytes_per_point);
  const auto flags = io::checked_bytes({truth.clusters.size(), truth.dimensions}, 1);
  const std::optional<std::uint64_t> total =
      bytes && flags && *bytes + *flags >= *bytes ? std::optional(*bytes + *flags) : std::nullopt;
  io::check_host_allocation(total, "scoring clusters of " + std::to_string(points) + " points" +
                                       (points_given ? std::string()
                                                     : " (the largest point id + 1; give --points with the "
                                                       "data's number of points, and ids beyond it are refused)"));
}

// --found, read: a clusters file, or a run folder's clusters (its text files, or results.h5 when
// the run was told not to write them, output.text: false) and merge's raw clusters beside them.
// Only a finished run is scored (it alone has summary.json), and its data's size is the n.
FoundLists read_found(EvaluateCommandOptions& options) {
  FoundLists lists;
  lists.found_path = options.found;
  lists.raw_path = options.raw;
  bool have_found = false, have_raw = false;
  if (std::filesystem::is_directory(options.found)) {
    const std::filesystem::path folder = options.found;
    lists.run_folder = folder;
    const std::optional<std::size_t> run_points = finished_run_points(folder);
    if (!options.points) options.points = run_points;
    lists.found_path = folder / "clusters.txt";
    if (!std::filesystem::exists(lists.found_path) && std::filesystem::exists(folder / "results.h5")) {
      lists.found_path = folder / "results.h5";
      const io::Hdf5File results(lists.found_path.string(), io::Hdf5File::Mode::read);
      if (!results.exists("/clusters"))
        throw InputError("'" + lists.found_path.string() + "' holds no clusters (the run had merge.enabled: false)");
      lists.found = io::read_cluster_list(results, "/clusters");
      have_found = true;
      if (!lists.raw_path && results.exists("/raw_clusters")) {
        lists.raw = io::read_cluster_list(results, "/raw_clusters");
        have_raw = true;
        lists.raw_path = lists.found_path.string() + ":/raw_clusters";
      }
    }
    if (!have_found && !std::filesystem::exists(lists.found_path))
      throw InputError("'" + folder.string() +
                       "' is a folder without clusters.txt or results.h5; give a clusters file or a run folder");
    if (!have_found && !lists.raw_path && std::filesystem::exists(folder / "clusters_raw.txt"))
      lists.raw_path = folder / "clusters_raw.txt";
  }
  if (!have_found) lists.found = evaluate::read_cluster_text(lists.found_path);
  if (lists.raw_path && !have_raw) lists.raw = evaluate::read_cluster_text(*lists.raw_path);
  return lists;
}

void evaluate_against_truth(const FoundLists& lists, const EvaluateCommandOptions& options, std::ostream& out) {
  const auto& found = lists.found;
  const auto& raw = lists.raw;
  io::GroundTruthOptions read_options;
  read_options.dimensions = options.dimensions;
  read_options.points = options.points;
  const io::GroundTruth truth = io::read_ground_truth(options.truth, read_options);

  std::size_t points = 0;
  if (options.points) {
    points = *options.points;
  } else {
    // Without the data's size, the largest id seen stands in for it (only coverage depends on it).
    for (const auto* list : std::initializer_list<const std::vector<SubspaceCluster>*>{&found, &raw, &truth.clusters})
      for (const auto& c : *list)
        if (!c.points.empty()) points = std::max<std::size_t>(points, c.points.back() + std::size_t{1});
  }
  check_dimensions(found, lists.found_path, options.truth, truth.dimensions);
  if (lists.raw_path) check_dimensions(raw, *lists.raw_path, options.truth, truth.dimensions);
  if (points == 0)
    throw InputError("neither '" + lists.found_path.string() + "' nor '" + options.truth.string() +
                     "' names a point; give --points");
  check_scoring_memory(points, truth, options.points.has_value());

  const evaluate::QualityMeasures m = evaluate::evaluate(found, truth.clusters, points, truth.dimensions);
  std::optional<evaluate::QualityMeasures> raw_measures;
  if (lists.raw_path) raw_measures = evaluate::evaluate(raw, truth.clusters, points, truth.dimensions);
  out << "found:  " << lists.found_path.string() << " (" << found.size() << " clusters)\n";
  if (lists.raw_path) out << "raw:    " << lists.raw_path->string() << " (" << raw.size() << " clusters)\n";
  out << "truth:  " << options.truth.string() << " (" << truth.clusters.size() << " hidden clusters, "
      << truth.dimensions << " dimensions)\n";
  out << "points: " << points << (options.points ? "" : " (the largest point id + 1; give --points for the data's n)")
      << "\n";
  if (raw_measures)
    print_side_by_side(out, m, *raw_measures);
  else
    evaluate::print_quality_table(out, m);

  if (!options.json.empty()) {
    nlohmann::json json{{"found", lists.found_path.string()},
                        {"truth", options.truth.string()},
                        {"points", points},
                        {"dimensions", truth.dimensions}};
    json.update(measures_json(m));
    if (raw_measures) {
      json["raw"] = measures_json(*raw_measures);
      json["raw"]["file"] = lists.raw_path->string();
    }
    io::write_text_file(options.json, json.dump(2) + "\n");
  }
}

// Exactly one thing to score against.
void check_reference(const EvaluateCommandOptions& options) {
  const int given = !options.truth.empty() + !options.labels.empty() + !options.label_column.empty();
  if (given == 0)
    throw UsageError(
        "evaluate: give what to score against: --truth FILE (hidden clusters), --labels FILE (one "
        "class label per input row) or --label-column NAME (a column of the run's input)");
  if (given > 1)
    throw UsageError("evaluate: --truth, --labels and --label-column each give what to score against; give one");
}

}  // namespace

void run_evaluate_command(const EvaluateCommandOptions& given, std::ostream& out) {
  EvaluateCommandOptions options = given;
  check_reference(options);
  // Before anything is read: --json is renamed into place, over whatever file it names. A run
  // folder's files (--found a folder) are refused by the run-folder check.
  if (!options.json.empty())
    check_output_paths({{options.json, "--json"}}, {{options.found, "--found"},
                                                    {options.raw.value_or(std::filesystem::path()), "--raw"},
                                                    {options.truth, "--truth"},
                                                    {options.labels, "--labels"}});
  const FoundLists lists = read_found(options);
  if (options.truth.empty())
    evaluate_against_class_labels(lists, options, out);
  else
    evaluate_against_truth(lists, options, out);
}

void add_evaluate_command(CLI::App& app) {
  struct Arguments {
    EvaluateCommandOptions options;
    std::size_t points = 0;
    std::size_t dimensions = 0;
    std::filesystem::path raw;
  };
  auto args = std::make_shared<Arguments>();
  CLI::App* command = app.add_subcommand(
      "evaluate",
      "Score found clusters against hidden ones (F1, F1-R, E4SC, RNIA, CE, coverage) or against class labels (F1, "
      "E4SC; each class a cluster in every dimension)");
  command
      ->add_option("found,--found", args->options.found,
                   "clusters in the text form {d1, d2}-[p1, p2], one a line; or a run folder (its clusters.txt, "
                   "and clusters_raw.txt beside it when present; its results.h5 when the text files are absent)")
      ->required()
      ->check(CLI::ExistingPath);
  command->add_option("--raw", args->raw, "merge's raw clusters (a run's clusters_raw.txt), scored beside --found")
      ->check(CLI::ExistingFile);
  command->add_option("--truth", args->options.truth, "ground truth in the OpenSubspace .true format")
      ->check(CLI::ExistingFile);
  command
      ->add_option("--labels", args->options.labels,
                   "class labels, one a line for every row of the run's input, in its order (empty or ? for none; "
                   "lines starting with # are skipped)")
      ->check(CLI::ExistingFile);
  command->add_option("--label-column", args->options.label_column,
                      "the column of the run's input (CSV name or 1-based number, ARFF attribute, HDF5 dataset) "
                      "that holds each row's class; --found must be the run's folder");
  require_count(
      command->add_option("--points", args->points, "number of points in the data (default: the largest id + 1)"));
  require_count(command->add_option(
      "--dims", args->dimensions,
      "number of dimensions, for .true files without a DIM= line and --labels with a clusters file"));
  command->add_option("--json", args->options.json, "also write the measures to this JSON file");
  command->callback([args, command] {
    if (command->count("--points")) args->options.points = args->points;
    if (command->count("--dims")) args->options.dimensions = args->dimensions;
    if (command->count("--raw")) args->options.raw = args->raw;
    try {
      run_evaluate_command(args->options, std::cout);
      std::cout.flush();
    } catch (...) {
      const int code = report_current_exception("evaluate a smaller clusters file");
      std::fflush(stdout);
      std::exit(code);
    }
  });
}

}  // namespace subscale::pipeline
