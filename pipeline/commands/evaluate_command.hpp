#pragma once
// `subscale evaluate [--found] CLUSTERS|RUN (--truth file.true | --labels FILE | --label-column NAME)
// [--raw clusters_raw.txt] [--points N] [--dims D] [--json F]` (docs/method.md §11, docs/output.md
// §6): scores clusters in the SUBSCALE text form ({d1, d2}-[p1, p2], one a line, as a run writes
// clusters.txt) against OpenSubspace ground truth, or against class labels (evaluate_classes.hpp),
// prints the table of measures and, with --json, writes them as JSON (atomically). With --raw (or
// --found naming a run folder that holds clusters_raw.txt, merge's output before consolidation)
// both are scored and shown side by side.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include "stages/evaluate/quality_measures.hpp"

namespace CLI {
class App;
}

namespace subscale::pipeline {

struct EvaluateCommandOptions {
  std::filesystem::path found;               // a clusters file, or a run folder (its clusters.txt)
  std::optional<std::filesystem::path> raw;  // merge's raw clusters, scored beside `found`
  std::filesystem::path truth;               // hidden clusters; or, when empty, one of:
  std::filesystem::path labels;              // one class label per input row
  std::string label_column;                  // the column of the run's input naming each row's class
  std::optional<std::size_t> points;         // the data's n; default: the largest id + 1
  std::optional<std::size_t> dimensions;     // needed when the .true file has a title line, not DIM=
  std::filesystem::path json;                // empty: no JSON
};

// Reads the files, evaluates, prints to `out`. Errors are subscale::Error (3 for bad input, 2 for
// options that do not fit together).
void run_evaluate_command(const EvaluateCommandOptions& options, std::ostream& out);

// Registers `evaluate`; like `hash`, it runs from its own CLI11 callback and maps its errors to
// the documented exit codes itself.
void add_evaluate_command(CLI::App& app);

}  // namespace subscale::pipeline
