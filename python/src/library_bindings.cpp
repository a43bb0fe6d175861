#include "python/src/library_bindings.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "common/error.hpp"
#include "io/cluster_list_hdf5.hpp"
#include "io/ground_truth.hpp"
#include "io/hdf5_file.hpp"
#include "pipeline/settings/core_schema.hpp"
#include "python/src/array_input.hpp"
#include "python/src/cluster_arrays.hpp"
#include "stages/evaluate/class_labels.hpp"
#include "stages/evaluate/cluster_text.hpp"
#include "stages/evaluate/quality_measures.hpp"
#include "stages/load/load.hpp"
#include "stages/load/matrix_view.hpp"
#include "stages/load/normalize.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/marginals.hpp"
#include "stages/significance/selection.hpp"
#include "stages/significance/weak_dimensions.hpp"

namespace subscale::python {
namespace {

// Every key of the command line's config, as plain dicts: the estimator's keywords come from here.
py::list config_keys() {
  py::list keys;
  const pipeline::ConfigSchema schema = pipeline::core_config_schema();
  for (const auto& key : schema.keys()) {
    py::dict entry;
    entry["path"] = key.path;
    entry["kind"] = pipeline::value_kind_word(key.kind);
    entry["default"] = key.default_value;
    entry["help"] = key.help;
    entry["choices"] = key.choices;
    entry["allow_auto"] = key.allow_auto;
    entry["required"] = key.required;
    entry["minimum"] = key.minimum;
    entry["maximum"] = key.maximum;
    keys.append(entry);
  }
  return keys;
}

py::dict load(const std::string& path, const std::string& format, const std::string& dataset,
              const std::string& label_column) {
  load::LoadOptions options;
  options.path = path;
  options.format = io::parse_input_format(format, "format");
  options.dataset_path = dataset;
  options.label_column = label_column;
  Dataset data = without_gil([&] { return load::load_dataset(options); });
  py::dict out;
  out["values"] = to_array(std::move(data.values));
  out["column_names"] = data.column_names;
  out["labels"] =
      data.labels.empty()
          ? py::object(py::none())
          : py::object(py::array_t<std::int64_t>(static_cast<py::ssize_t>(data.labels.size()), data.labels.data()));
  out["ids"] = data.ids.empty()
                   ? py::object(py::none())
                   : py::object(py::array_t<std::uint64_t>(static_cast<py::ssize_t>(data.ids.size()), data.ids.data()));
  out["source"] = data.source.empty() ? path : data.source;
  return out;
}

py::array_t<double> normalized(const py::array& values, const std::string& normalization, const std::string& source,
                               const std::vector<std::string>& column_names) {
  const AnyMatrixView view = view_of(values);
  const load::Normalization how = load::parse_normalization(normalization);
  Matrix out = without_gil([&] {
    return std::visit([&](const auto& v) { return load::normalized_matrix(v, how, source, column_names); }, view);
  });
  return to_array(std::move(out));
}

py::dict evaluate(const py::handle& found, const py::handle& hidden, std::size_t points, std::size_t dimensions) {
  const std::vector<SubspaceCluster> found_clusters = from_python(found, "found");
  const std::vector<SubspaceCluster> hidden_clusters = from_python(hidden, "truth");
  evaluate::QualityMeasures q =
      without_gil([&] { return evaluate::evaluate(found_clusters, hidden_clusters, points, dimensions); });
  py::dict out;
  out["f1"] = q.f1;
  out["f1_recall"] = q.f1_recall;
  out["e4sc"] = q.e4sc;
  out["rnia"] = q.rnia;
  out["ce"] = q.ce;
  out["coverage"] = q.coverage;
  out["found_clusters"] = q.found_clusters;
  out["hidden_clusters"] = q.hidden_clusters;
  return out;
}

py::list read_cluster_text(const std::filesystem::path& path) {
  std::vector<SubspaceCluster> clusters = without_gil([&] { return evaluate::read_cluster_text(path); });
  return to_python(std::move(clusters));
}

// What `read` takes from a run's results.h5 at `path`, read without the GIL; nullopt where the
// file holds no such path.
template <class F>
auto read_present(const std::string& file, const std::string& path, F&& read)
    -> std::optional<decltype(read(std::declval<const io::Hdf5File&>(), path))> {
  py::gil_scoped_release release;
  const io::Hdf5File h5(file, io::Hdf5File::Mode::read);
  if (!h5.exists(path)) return std::nullopt;
  return read(h5, path);
}

// A cluster list of results.h5 (group "clusters", "raw_clusters" or "subspaces"); None when the
// file has no such group.
py::object read_cluster_list(const std::string& file, const std::string& group) {
  return to_python_or_none(read_present(file, "/" + group, io::read_cluster_list));
}

// The significance scores results.h5 holds beside a cluster list (/clusters/score); None when
// the run did not test significance.
py::object read_scores(const std::string& file, const std::string& group) {
  return array_or_none(read_present(file, "/" + group + "/score", [](const io::Hdf5File& h5, const std::string& path) {
    return h5.read<double>(path).data;
  }));
}

// F1 and E4SC against class labels (one per point, -1: no class), each class a hidden cluster in
// every dimension.
py::dict evaluate_classes(const py::handle& found, const py::array_t<std::int64_t, py::array::forcecast>& labels,
                          std::size_t dimensions) {
  const std::vector<SubspaceCluster> found_clusters = from_python(found, "found");
  const std::vector<std::int64_t> codes(labels.data(), labels.data() + labels.size());
  evaluate::ClassMeasures q =
      without_gil([&] { return evaluate::evaluate_against_classes(found_clusters, codes, dimensions); });
  py::dict out;
  out["f1"] = q.f1;
  out["e4sc"] = q.e4sc;
  out["found_clusters"] = q.found_clusters;
  out["classes"] = q.classes;
  out["labelled_points"] = q.labelled_points;
  return out;
}

// /points/input_row of a run's results.h5 (the input rows clustered); None when every row was.
py::object read_input_rows(const std::string& file) {
  return array_or_none(read_present(file, "/points/input_row", [](const io::Hdf5File& h5, const std::string& path) {
    return h5.read<std::uint64_t>(path).data;
  }));
}

// The input's column names a run's results.h5 keeps: the string dataset /input/column_names, or,
// in files written before it, the attribute of that name with a name a line; empty without names.
std::vector<std::string> read_column_names(const std::string& file) {
  py::gil_scoped_release release;
  const io::Hdf5File h5(file, io::Hdf5File::Mode::read);
  if (h5.exists("/input/column_names")) return h5.read_strings("/input/column_names");
  std::vector<std::string> names;
  if (!h5.exists("/input")) return names;
  try {
    std::istringstream lines(h5.read_string_attribute("/input", "column_names"));
    for (std::string name; std::getline(lines, name);) names.push_back(name);
  } catch (const Error&) {
    names.clear();
  }
  return names;
}

py::tuple read_ground_truth(const std::filesystem::path& path, std::optional<std::size_t> dimensions,
                            std::optional<std::size_t> points) {
  io::GroundTruth truth = without_gil([&] { return io::read_ground_truth(path, {dimensions, points}); });
  return py::make_tuple(truth.dimensions, to_python(std::move(truth.clusters)));
}

// Each given cluster's score under the test a run applies to the clusters it finds, on the
// marginals of `values` (docs/significance.md §2-3). The masses of a box are shares of points, so
// the score is the same on the values as given and as a run normalises them.
py::dict significance_scores(const py::array& values, const py::handle& clusters, double alpha,
                             const std::string& correction, double background_share) {
  if (!(alpha > 0 && alpha < 1)) throw UsageError("alpha = " + std::to_string(alpha) + ": give a level in (0, 1)");
  if (!(background_share > 0 && background_share <= 1))
    throw UsageError("background_share = " + std::to_string(background_share) + ": give a share in (0, 1]");
  significance::TestParams params;
  params.alpha = alpha;
  params.correction = significance::parse_correction(correction);
  params.background_share = background_share;
  const AnyMatrixView view = view_of(values);
  const std::vector<SubspaceCluster> list = from_python(clusters, "clusters");
  std::vector<significance::ClusterScore> scores;
  std::vector<std::uint32_t> gathering(list.size());
  without_gil([&] {
    const Matrix matrix =
        std::visit([](const auto& v) { return load::normalized_matrix(v, load::Normalization::none, "X"); }, view);
    for (std::size_t c = 0; c < list.size(); ++c) {
      const auto& cluster = list[c];
      if (cluster.dimensions.empty() || cluster.points.empty())
        throw UsageError("clusters[" + std::to_string(c) + "] has no dimension or no point: give both");
      if (cluster.dimensions.back() >= matrix.cols() || cluster.points.back() >= matrix.rows())
        throw UsageError("clusters[" + std::to_string(c) + "] names dimension " +
                         std::to_string(cluster.dimensions.back()) + " or point " +
                         std::to_string(cluster.points.back()) + ", but X has " + std::to_string(matrix.rows()) +
                         " points in " + std::to_string(matrix.cols()) + " dimensions");
    }
    const auto marginals = significance::Marginals::of(matrix);
    scores = significance::score_clusters(matrix, marginals, list, significance::Shapes::boxes_and_turned);
    // As the run's test does: a cluster gathering in fewer than two dimensions never passes.
    for (std::size_t c = 0; c < list.size(); ++c) {
      gathering[c] = significance::gathering_dimensions(matrix, marginals, list[c], background_share);
      if (gathering[c] < 2) scores[c].score = 0, scores[c].log10_p = 0;
    }
    return 0;
  });
  const std::vector<bool> passes = significance::significant(scores, params);
  std::vector<std::uint32_t> points;
  std::vector<double> log10_p0, log10_p, log10_search, score;
  std::vector<bool> turned;
  for (const auto& s : scores) {
    points.push_back(s.points);
    log10_p0.push_back(s.log10_p0);
    log10_p.push_back(s.log10_p);
    log10_search.push_back(s.log10_search);
    score.push_back(s.score);
    turned.push_back(s.turned);
  }
  py::dict out;
  out["points"] = to_array(std::move(points));
  out["log10_p0"] = to_array(std::move(log10_p0));
  out["log10_p"] = to_array(std::move(log10_p));
  out["log10_search"] = to_array(std::move(log10_search));
  out["score"] = to_array(std::move(score));
  out["gathering_dimensions"] = to_array(std::move(gathering));
  out["turned"] = std::move(turned);
  out["significant"] = std::vector<bool>(passes.begin(), passes.end());
  return out;
}

}  // namespace

void bind_library(py::module_& m) {
  m.def("config_keys", &config_keys, "Every config key of the command line (path, kind, default, help, ...).");
  m.def("load", &load, py::arg("path"), py::arg("format") = "auto", py::arg("dataset") = "/data",
        py::arg("label_column") = "", "Reads a data file as the command line does.");
  m.def("normalized", &normalized, py::arg("values"), py::arg("normalization") = "minmax", py::arg("source") = "X",
        py::arg("column_names") = std::vector<std::string>{},
        "The values a run holds for this array: checked and normalised, column-major float64.");
  m.def("evaluate", &evaluate, py::arg("found"), py::arg("truth"), py::arg("points"), py::arg("dimensions"));
  m.def("read_cluster_text", &read_cluster_text, py::arg("path"));
  m.def("read_cluster_list", &read_cluster_list, py::arg("file"), py::arg("group"));
  m.def("read_scores", &read_scores, py::arg("file"), py::arg("group"));
  m.def("evaluate_classes", &evaluate_classes, py::arg("found"), py::arg("labels"), py::arg("dimensions"));
  m.def("read_input_rows", &read_input_rows, py::arg("file"));
  m.def("read_column_names", &read_column_names, py::arg("file"));
  m.def("read_ground_truth", &read_ground_truth, py::arg("path"), py::arg("dimensions") = py::none(),
        py::arg("points") = py::none());
  m.def("significance_scores", &significance_scores, py::arg("values"), py::arg("clusters"), py::arg("alpha"),
        py::arg("correction"), py::arg("background_share"));
}

}  // namespace subscale::python
