#include "pipeline/commands/evaluate_classes.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "io/atomic_output.hpp"
#include "io/data_validation.hpp"
#include "io/hdf5_file.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/core_schema.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "pipeline/steps/input_loading.hpp"
#include "stages/evaluate/evaluate.hpp"

namespace subscale::pipeline {
namespace {

// The labels of the run's points, in the order of its positions, and what they came from.
struct PointLabels {
  std::vector<std::int64_t> labels;
  std::vector<std::uint64_t> input_rows;  // the input row of each position; empty: the same
  std::size_t dimensions = 0;
  std::string source;  // for the printout and the JSON
};

struct RunFacts {
  std::size_t input_rows = 0, points = 0, dimensions = 0;
};

RunFacts run_facts(const std::filesystem::path& folder) {
  const auto file = folder / "summary.json";
  std::ifstream in(file);
  const nlohmann::json summary = nlohmann::json::parse(in, nullptr, false);
  RunFacts facts;
  const auto count = [&](const char* key) -> std::size_t {
    if (!summary.is_object() || !summary.contains(key) || !summary[key].is_number_unsigned())
      throw InputError(file.string() + " has no count '" + key +
                       "'; it is not a run's summary: give the folder of a finished run");
    return summary[key].get<std::size_t>();
  };
  facts.points = count("points");
  facts.dimensions = count("dimensions");
  facts.input_rows = summary.contains("input_rows") ? count("input_rows") : facts.points;
  return facts;
}

// /points/input_row of the run's results.h5: present only when the run dropped rows.
std::vector<std::uint64_t> clustered_rows(const std::filesystem::path& folder) {
  const auto results = folder / "results.h5";
  if (!std::filesystem::exists(results)) return {};
  const io::Hdf5File file(results.string(), io::Hdf5File::Mode::read);
  if (!file.exists("/points/input_row")) return {};
  return file.read<std::uint64_t>("/points/input_row").data;
}

PointLabels labels_of_file(const std::filesystem::path& path, const FoundLists& lists,
                           const EvaluateCommandOptions& options) {
  PointLabels result;
  result.source = path.string();
  std::vector<std::int64_t> labels = read_label_file(path);
  if (!lists.run_folder) {
    if (!options.dimensions)
      throw UsageError(
          "--labels with a clusters file needs --dims, the data's number of dimensions: every class is "
          "a cluster in all of them (a run folder says it itself)");
    result.dimensions = *options.dimensions;
    result.labels = std::move(labels);
    return result;
  }
  const RunFacts facts = run_facts(*lists.run_folder);
  if (labels.size() != facts.input_rows)
    throw InputError(path.string() + " holds " + std::to_string(labels.size()) + " labels, but the run's input has " +
                     std::to_string(facts.input_rows) +
                     " rows (summary.json, input_rows); give one label per input row, in the input's order" +
                     (labels.size() == facts.input_rows + 1
                          ? std::string("; if its first line is a header, remove it or start it with #")
                          : std::string()));
  result.dimensions = facts.dimensions;
  result.input_rows = clustered_rows(*lists.run_folder);
  if (result.input_rows.empty()) {
    result.labels = std::move(labels);
    return result;
  }
  for (const std::uint64_t row : result.input_rows) {
    if (row >= labels.size())
      throw InputError(lists.run_folder->string() + "/results.h5: /points/input_row names row " + std::to_string(row) +
                       " of an input of " + std::to_string(labels.size()) + " rows; the run folder is damaged");
    result.labels.push_back(labels[row]);
  }
  return result;
}

// The run's input read again through its config.yaml, with `column` as its label column: the
// labels of the points the run clustered, after its join and filter, in their order.
PointLabels labels_of_run_input(const std::string& column, const FoundLists& lists) {
  if (!lists.run_folder)
    throw UsageError(
        "--label-column names a column of a run's input: give the run's folder as --found (or use "
        "--labels with a file of one label per row)");
  const auto config_file = *lists.run_folder / "config.yaml";
  std::ifstream in(config_file);
  if (!in) throw InputError(config_file.string() + " cannot be read: the run's input is not known");
  std::stringstream text;
  text << in.rdbuf();
  Config config = Config::from_text(text.str(), {}, core_config_schema(), ".", config_file.string());
  RunSettings settings = read_settings(config);
  settings.load.label_column = column;
  settings.ground_truth.reset();  // scored against the classes only
  RunLog log(true);
  RunReport ignored;
  LoadedInput input = load_input(settings, log, ignored);
  PointLabels result;
  result.source = settings.load.path + ", label column " + column;
  result.labels = std::move(input.data.labels);
  result.input_rows = std::move(input.data.input_rows);
  result.dimensions = input.held.dimensions();
  return result;
}

// The clusters with their ids (input rows) as positions of `input_rows`, which the labels follow.
std::vector<SubspaceCluster> at_positions(std::vector<SubspaceCluster> clusters,
                                          const std::vector<std::uint64_t>& input_rows, const std::string& which) {
  if (input_rows.empty()) return clusters;
  for (std::size_t c = 0; c < clusters.size(); ++c)
    for (auto& point : clusters[c].points) {
      const auto at = std::lower_bound(input_rows.begin(), input_rows.end(), std::uint64_t{point});
      if (at == input_rows.end() || *at != point)
        throw InputError(
            which + " cluster #" + std::to_string(c) + " holds input row " + std::to_string(point) +
            ", which the run did not cluster (its join or filter dropped it); are the clusters this run's?");
      point = static_cast<std::uint32_t>(at - input_rows.begin());
    }
  return clusters;
}

nlohmann::json class_json(const evaluate::ClassMeasures& m) {
  return {{"f1", m.f1},
          {"e4sc", m.e4sc},
          {"found_clusters", m.found_clusters},
          {"classes", m.classes},
          {"labelled_points", m.labelled_points}};
}

void print_side_by_side(std::ostream& out, const evaluate::ClassMeasures& found, const evaluate::ClassMeasures& raw) {
  char line[128];
  out << "quality against " << found.classes << " classes (" << found.labelled_points
      << " labelled points, each class a cluster in every dimension)\n";
  std::snprintf(line, sizeof line, "  %-9s %12s %12s   %s\n", "measure", "found", "raw", "best");
  out << line;
  std::snprintf(line, sizeof line, "  %-9s %12zu %12zu\n", "clusters", found.found_clusters, raw.found_clusters);
  out << line;
  std::snprintf(line, sizeof line, "  %-9s %12.4f %12.4f   1\n", "F1", found.f1, raw.f1);
  out << line;
  std::snprintf(line, sizeof line, "  %-9s %12.4f %12.4f   1\n", "E4SC", found.e4sc, raw.e4sc);
  out << line;
}

std::string trimmed(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
  return std::string(text);
}

}  // namespace

std::vector<std::int64_t> read_label_file(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path))
    throw InputError(path.string() + ": not found or not a regular file; give a file of one label per input row");
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> cells;
  for (std::string line; std::getline(in, line);) {
    if (cells.empty() && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a UTF-8 byte-order mark
    if (!line.empty() && line[0] == '#') continue;
    cells.push_back(trimmed(line));
  }
  if (in.bad()) throw InputError(path.string() + ": cannot be read");
  if (cells.empty()) throw InputError(path.string() + ": holds no labels; give one label per input row");
  return io::encode_labels(cells);
}

void evaluate_against_class_labels(const FoundLists& lists, const EvaluateCommandOptions& options, std::ostream& out) {
  const PointLabels labels = options.label_column.empty() ? labels_of_file(options.labels, lists, options)
                                                          : labels_of_run_input(options.label_column, lists);
  const auto found = at_positions(lists.found, labels.input_rows, "found");
  const evaluate::ClassMeasures m = evaluate::evaluate_against_classes(found, labels.labels, labels.dimensions);
  std::optional<evaluate::ClassMeasures> raw;
  if (lists.raw_path)
    raw = evaluate::evaluate_against_classes(at_positions(lists.raw, labels.input_rows, "raw"), labels.labels,
                                             labels.dimensions);
  out << "found:   " << lists.found_path.string() << " (" << lists.found.size() << " clusters)\n";
  if (raw) out << "raw:     " << lists.raw_path->string() << " (" << lists.raw.size() << " clusters)\n";
  out << "classes: " << labels.source << " (" << m.classes << " classes, " << m.labelled_points << " of "
      << labels.labels.size() << " points labelled)\n";
  if (raw)
    print_side_by_side(out, m, *raw);
  else
    evaluate::print_class_table(out, m);
  if (options.json.empty()) return;
  nlohmann::json json{{"found", lists.found_path.string()},
                      {"classes_from", labels.source},
                      {"points", labels.labels.size()},
                      {"dimensions", labels.dimensions}};
  json.update(class_json(m));
  if (raw) {
    json["raw"] = class_json(*raw);
    json["raw"]["file"] = lists.raw_path->string();
  }
  io::write_text_file(options.json, json.dump(2) + "\n");
}

}  // namespace subscale::pipeline
