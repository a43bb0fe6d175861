#include "python/src/membership_model.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <optional>
#include <type_traits>

#include "common/backend.hpp"
#include "common/error.hpp"
#include "io/data_validation.hpp"
#include "python/src/cluster_arrays.hpp"
#include "stages/sample/sample.hpp"

namespace subscale::python {
namespace {

// A double as the held type. Values beyond float32's range, which a fit refuses
// (common/held_values.hpp) but a new point far outside the fitted data may reach, become +-Inf:
// such a point belongs to no cluster that reads the column.
template <class T>
T held(double x) {
  if constexpr (std::is_same_v<T, float>)
    if (std::abs(x) > static_cast<double>(std::numeric_limits<float>::max()))
      return x < 0 ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  return static_cast<T>(x);
}

// The fit's map from input values to the searched ones (pipeline::SearchSpace), per input column:
// normalised as normalize() does with the fitted data's minimum and maximum, held in T, and
// scaled by the column's levels factor as significance::scaled() scales.
struct SearchMap {
  bool normalised = true;
  std::vector<double> low, high, factors;

  std::size_t columns() const noexcept { return low.size(); }

  template <class T, class S>
  ColumnMatrix<T> apply(const load::MatrixView<S>& view, const std::vector<std::uint32_t>* rows,
                        const std::vector<std::uint32_t>& columns) const {
    const std::size_t n = rows ? rows->size() : view.rows;
    ColumnMatrix<T> out(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(columns.size()));
    for (std::size_t t = 0; t < columns.size(); ++t) {
      const std::uint32_t j = columns[t];
      const load::ColumnScale scale(normalised ? low[j] : 0.0, normalised ? high[j] : 0.0);
      const double factor = factors[j];
      for (std::size_t i = 0; i < n; ++i) {
        const double x = static_cast<double>(view.at(rows ? (*rows)[i] : i, j));
        const T value = held<T>(normalised ? scale(x) : x);
        out(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(t)) =
            factor == 1.0 ? value : held<T>(static_cast<double>(value) * factor);
      }
    }
    return out;
  }
};

// Per column the smallest and largest value (the fitted data are finite: the run refused others).
template <class S>
void column_ranges(const load::MatrixView<S>& view, std::vector<double>& low, std::vector<double>& high) {
  low.assign(view.columns, std::numeric_limits<double>::infinity());
  high.assign(view.columns, -std::numeric_limits<double>::infinity());
  const auto take = [&](std::size_t i, std::size_t j) {
    const double x = static_cast<double>(view.at(i, j));
    low[j] = std::min(low[j], x);
    high[j] = std::max(high[j], x);
  };
  if (std::abs(view.column_step) <= std::abs(view.row_step)) {  // along the array's layout
    for (std::size_t i = 0; i < view.rows; ++i)
      for (std::size_t j = 0; j < view.columns; ++j) take(i, j);
  } else {
    for (std::size_t j = 0; j < view.columns; ++j)
      for (std::size_t i = 0; i < view.rows; ++i) take(i, j);
  }
}

// The matrix's distinct rows (in lexicographic order): a point that repeats another in the
// cluster's columns decides no membership the other does not.
template <class T>
ColumnMatrix<T> distinct_rows(const ColumnMatrix<T>& values) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(values.rows()));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  const auto less = [&](Eigen::Index a, Eigen::Index b) {
    for (Eigen::Index t = 0; t < values.cols(); ++t)
      if (values(a, t) != values(b, t)) return values(a, t) < values(b, t);
    return false;
  };
  std::sort(order.begin(), order.end(), less);
  order.erase(std::unique(order.begin(), order.end(), [&](auto a, auto b) { return !less(a, b) && !less(b, a); }),
              order.end());
  ColumnMatrix<T> out(static_cast<Eigen::Index>(order.size()), values.cols());
  for (std::size_t r = 0; r < order.size(); ++r) out.row(static_cast<Eigen::Index>(r)) = values.row(order[r]);
  return out;
}

// The fit's clusters: consolidation's, else merge's, else none.
const std::vector<SubspaceCluster>* run_clusters(const pipeline::RunReport& report) {
  if (report.consolidated) return &report.consolidated->clusters;
  return report.merge ? &report.merge->clusters : nullptr;
}

template <class T, class S>
py::dict model_of(const load::MatrixView<S>& fitted, const pipeline::RunReport& report) {
  const pipeline::SearchSpace& space = report.search;
  SearchMap map;
  map.normalised = space.normalization == load::Normalization::minmax;
  map.factors.assign(fitted.columns, 1.0);
  for (std::size_t k = 0; k < space.scales.size(); ++k) map.factors[space.columns[k]] = space.scales[k];
  const std::vector<SubspaceCluster>* clusters = run_clusters(report);
  const std::size_t count = clusters ? clusters->size() : 0;
  std::vector<std::vector<std::uint32_t>> columns(count);
  std::vector<ColumnMatrix<T>> references(count);
  {
    py::gil_scoped_release release;
    column_ranges(fitted, map.low, map.high);
    for (std::size_t c = 0; c < count; ++c) {
      // A folded dimension is searched in its group's first column, the one of space.columns.
      const auto& dims = (*clusters)[c].dimensions;
      std::set_intersection(dims.begin(), dims.end(), space.columns.begin(), space.columns.end(),
                            std::back_inserter(columns[c]));
      const auto& rows = report.sample ? report.sample->found_points.at(c) : (*clusters)[c].points;
      references[c] = distinct_rows(map.apply<T>(fitted, &rows, columns[c]));
    }
  }
  py::dict model;
  model["normalize"] = load::to_string(space.normalization);
  model["precision"] = to_string(space.precision);
  model["radius"] = space.radius;
  model["backend"] = backend_name(report.core.backend_used);
  model["low"] = to_array(std::move(map.low));
  model["high"] = to_array(std::move(map.high));
  model["factors"] = to_array(std::move(map.factors));
  py::list column_lists, reference_list;
  for (std::size_t c = 0; c < count; ++c) {
    column_lists.append(to_array(std::move(columns[c])));
    reference_list.append(to_array(std::move(references[c])));
  }
  model["columns"] = column_lists;
  model["references"] = reference_list;
  return model;
}

// Refuses the first NaN or Inf in row order as a fit does ("X, row 6 (index 5), column 3 (name):
// the value is NaN; ..."), reading along the array's layout.
template <class S>
void refuse_non_finite(const load::MatrixView<S>& view, const std::vector<std::string>& names) {
  std::size_t bad_row = view.rows, bad_column = 0;
  if (std::abs(view.column_step) <= std::abs(view.row_step)) {
    for (std::size_t i = 0; i < view.rows && bad_row == view.rows; ++i)
      for (std::size_t j = 0; j < view.columns; ++j)
        if (!std::isfinite(static_cast<double>(view.at(i, j)))) {
          bad_row = i, bad_column = j;
          break;
        }
  } else {
    for (std::size_t j = 0; j < view.columns; ++j)
      for (std::size_t i = 0; i < bad_row; ++i)
        if (!std::isfinite(static_cast<double>(view.at(i, j)))) {
          bad_row = i, bad_column = j;
          break;
        }
  }
  if (bad_row == view.rows) return;
  io::check_finite(static_cast<double>(view.at(bad_row, bad_column)), "X",
                   {io::CellLocation::RowKind::row,
                    bad_row + 1,
                    bad_column + 1,
                    names.size() == view.columns ? names[bad_column] : std::string(),
                    {}});
}

std::vector<double> doubles(const py::dict& model, const char* key) {
  const auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(model[key]);
  if (!array || array.ndim() != 1)
    throw UsageError(std::string("the model's ") + key + " is not a 1-D array of numbers");
  return {array.data(), array.data() + array.size()};
}

// Per cluster of the model, the rows of `view` that belong to it.
template <class T, class S>
std::vector<std::vector<std::uint32_t>> members_of(const load::MatrixView<S>& view, const py::dict& model, bool cuda,
                                                   int threads) {
  SearchMap map;
  map.normalised = load::parse_normalization(model["normalize"].cast<std::string>()) == load::Normalization::minmax;
  map.low = doubles(model, "low");
  map.high = doubles(model, "high");
  map.factors = doubles(model, "factors");
  if (map.high.size() != map.columns() || map.factors.size() != map.columns())
    throw UsageError("the model's low, high and factors differ in length: not a model a fit made");
  const sample::MembershipParams params{model["radius"].cast<double>()};
  std::vector<std::vector<std::uint32_t>> columns;
  std::vector<ColumnMatrix<T>> references;
  const py::list column_lists = model["columns"], reference_list = model["references"];
  for (std::size_t c = 0; c < py::len(column_lists); ++c) {
    columns.push_back(column_lists[c].cast<std::vector<std::uint32_t>>());
    const auto reference = py::array_t<T, py::array::f_style | py::array::forcecast>::ensure(reference_list[c]);
    if (!reference || reference.ndim() != 2 || static_cast<std::size_t>(reference.shape(1)) != columns[c].size())
      throw UsageError("the model's reference " + std::to_string(c) + " does not match its columns");
    references.emplace_back(
        Eigen::Map<const ColumnMatrix<T>>(reference.data(), reference.shape(0), reference.shape(1)));
    for (const auto j : columns[c])
      if (j >= map.columns()) throw UsageError("the model's columns reach beyond its low and high");
  }
  py::gil_scoped_release release;
  std::vector<std::vector<std::uint32_t>> out(columns.size());
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  arena.execute([&] {
    // Blocks small enough to keep every thread busy on one cluster at a time.
    const auto spread = static_cast<std::size_t>(4 * tbb::this_task_arena::max_concurrency());
    sample::MembershipParams block = params;
    block.block_points = std::clamp<std::size_t>(view.rows / spread + 1, 1024, params.block_points);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (columns[c].empty() || references[c].rows() == 0) continue;
      // The cluster alone, in its searched columns: the points' columns 0..w-1 are the reference's.
      const ColumnMatrix<T> points = map.apply<T>(view, nullptr, columns[c]);
      std::vector<SubspaceCluster> cluster(1);
      cluster[0].dimensions.resize(columns[c].size());
      std::iota(cluster[0].dimensions.begin(), cluster[0].dimensions.end(), 0U);
      cluster[0].points.resize(static_cast<std::size_t>(references[c].rows()));
      std::iota(cluster[0].points.begin(), cluster[0].points.end(), 0U);
      auto found = cuda ? sample::members_near_cuda(points, references[c], cluster, block)
                        : sample::members_near(points, references[c], cluster, block);
      out[c] = std::move(found[0]);
    }
  });
  return out;
}

py::list members(const py::array& values, const py::dict& model, const std::string& backend, int threads,
                 const std::vector<std::string>& column_names) {
  const AnyMatrixView view = view_of(values);
  const std::size_t expected = py::len(model["low"]);
  const std::size_t columns = std::visit([](const auto& v) { return v.columns; }, view);
  if (columns != expected)
    throw UsageError("X has " + std::to_string(columns) + " features, but the model is expecting " +
                     std::to_string(expected) + " features as input");
  const std::optional<Backend> where = parse_backend_name(backend);
  if (!where || *where == Backend::automatic) throw UsageError("members: backend is cpu or cuda, not " + backend);
  const bool float32 =
      parse_precision(model["precision"].cast<std::string>(), "the model's precision") == Precision::float32;
  std::vector<std::vector<std::uint32_t>> found = std::visit(
      [&](const auto& v) {
        {
          py::gil_scoped_release release;
          refuse_non_finite(v, column_names);
        }
        return float32 ? members_of<float>(v, model, *where == Backend::cuda, threads)
                       : members_of<double>(v, model, *where == Backend::cuda, threads);
      },
      view);
  py::list out;
  for (auto& rows : found) out.append(to_array(std::move(rows)));
  return out;
}

}  // namespace

py::dict membership_model(const AnyMatrixView& fitted, const pipeline::RunReport& report) {
  return std::visit(
      [&](const auto& view) {
        return report.search.precision == Precision::float32 ? model_of<float>(view, report)
                                                             : model_of<double>(view, report);
      },
      fitted);
}

void bind_membership(py::module_& m) {
  m.def("members", &members, py::arg("values"), py::arg("model"), py::arg("backend") = "cpu", py::arg("threads") = 0,
        py::arg("column_names") = std::vector<std::string>{},
        "Per cluster of a fit's membership model, the rows of values within its radius of the points it was "
        "found with, in its subspace (the rule of a sampled run).");
}

}  // namespace subscale::python
