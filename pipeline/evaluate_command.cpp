#include "pipeline/evaluate_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/error.hpp"
#include "io/atomic_output.hpp"
#include "io/ground_truth.hpp"
#include "pipeline/config_subcommand.hpp"
#include "stages/evaluate/cluster_text.hpp"

namespace subscale::pipeline {

evaluate::QualityMeasures run_evaluate_command(const EvaluateCommandOptions& options, std::ostream& out) {
  const std::vector<SubspaceCluster> found = evaluate::read_cluster_text(options.found);
  io::GroundTruthOptions read_options;
  read_options.dimensions = options.dimensions;
  read_options.points = options.points;
  const io::GroundTruth truth = io::read_ground_truth(options.truth, read_options);

  std::size_t points = 0;
  if (options.points) {
    points = *options.points;
  } else {
    // Without the data's size, the largest id seen stands in for it (only coverage depends on it).
    for (const auto* list : {&found, &truth.clusters})
      for (const auto& c : *list)
        if (!c.points.empty()) points = std::max<std::size_t>(points, c.points.back() + std::size_t{1});
  }
  for (std::size_t c = 0; c < found.size(); ++c) {
    if (!found[c].dimensions.empty() && found[c].dimensions.back() >= truth.dimensions) {
      throw InputError("cluster file '" + options.found.string() + "': cluster " + std::to_string(c + 1) +
                       " lives in dimension " + std::to_string(found[c].dimensions.back()) + ", but '" +
                       options.truth.string() + "' has " + std::to_string(truth.dimensions) +
                       " dimensions; do the two files belong to the same data set?");
    }
  }
  if (points == 0)
    throw InputError("neither '" + options.found.string() + "' nor '" + options.truth.string() +
                     "' names a point; give --points");

  const evaluate::QualityMeasures m = evaluate::evaluate(found, truth.clusters, points, truth.dimensions);
  out << "found:  " << options.found.string() << " (" << found.size() << " clusters)\n";
  out << "truth:  " << options.truth.string() << " (" << truth.clusters.size() << " hidden clusters, "
      << truth.dimensions << " dimensions)\n";
  out << "points: " << points << (options.points ? "" : " (the largest point id + 1; give --points for the data's n)")
      << "\n";
  evaluate::print_quality_table(out, m);

  if (!options.json.empty()) {
    const nlohmann::json json{{"found", options.found.string()},
                              {"truth", options.truth.string()},
                              {"points", points},
                              {"dimensions", truth.dimensions},
                              {"found_clusters", m.found_clusters},
                              {"hidden_clusters", m.hidden_clusters},
                              {"f1", m.f1},
                              {"f1_recall", m.f1_recall},
                              {"e4sc", m.e4sc},
                              {"rnia", m.rnia},
                              {"ce", m.ce},
                              {"coverage", m.coverage}};
    io::write_text_file(options.json, json.dump(2) + "\n");
  }
  return m;
}

void add_evaluate_command(CLI::App& app) {
  struct Arguments {
    EvaluateCommandOptions options;
    std::size_t points = 0;
    std::size_t dimensions = 0;
  };
  auto args = std::make_shared<Arguments>();
  CLI::App* command = app.add_subcommand(
      "evaluate", "Score found clusters against hidden ones (F1, F1-R, E4SC, RNIA, CE, coverage; SPEC 9)");
  command->add_option("--found", args->options.found, "clusters in the text form {d1, d2}-[p1, p2], one a line")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--truth", args->options.truth, "ground truth in the OpenSubspace .true format")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--points", args->points, "number of points in the data (default: the largest id + 1)")
      ->check(CLI::PositiveNumber);
  command->add_option("--dims", args->dimensions, "number of dimensions, for .true files without a DIM= line")
      ->check(CLI::PositiveNumber);
  command->add_option("--json", args->options.json, "also write the measures to this JSON file");
  command->callback([args, command] {
    if (command->count("--points")) args->options.points = args->points;
    if (command->count("--dims")) args->options.dimensions = args->dimensions;
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
