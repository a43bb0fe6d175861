#pragma once
// `subscale evaluate RUN --labels FILE` and `--label-column NAME` (docs/output.md §6): a run's
// clusters scored against class labels, each class a hidden cluster in every dimension
// (stages/evaluate/class_labels.hpp). Labels belong to the rows of the run's input; where the run
// clustered only some rows (filter.where, join.unmatched: drop), the classes are those rows'
// labels, matched by /points/input_row of results.h5, and the found clusters' ids (input rows)
// are matched to them the same way.
#include <filesystem>
#include <optional>
#include <ostream>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "pipeline/commands/evaluate_command.hpp"

namespace subscale::pipeline {

// What --found named, read: the clusters (ids are input rows) and merge's beside them.
struct FoundLists {
  std::vector<SubspaceCluster> found, raw;
  std::filesystem::path found_path;
  std::optional<std::filesystem::path> raw_path;
  std::optional<std::filesystem::path> run_folder;  // when --found named a finished run's folder
};

// Reads the labels (--labels, or --label-column of the run's input), scores, prints to `out` and,
// with --json, writes the measures. Errors are subscale::Error (3 for bad input, 2 for a missing
// option).
void evaluate_against_class_labels(const FoundLists& lists, const EvaluateCommandOptions& options, std::ostream& out);

// One label per line (a text column, as `numpy.savetxt` or `pandas.Series.to_csv(index=False,
// header=False)` writes it): the line's text, trimmed and unquoted; an empty line or `?` is a
// point of no class, and lines starting with '#' are comments. Integers are the classes
// themselves (-1: no class); other text is coded by first appearance.
std::vector<std::int64_t> read_label_file(const std::filesystem::path& path);

}  // namespace subscale::pipeline
