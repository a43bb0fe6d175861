#include "python/src/cluster_arrays.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace subscale::python {

py::list to_python(std::vector<SubspaceCluster>&& clusters) {
  py::list out(clusters.size());
  for (std::size_t i = 0; i < clusters.size(); ++i)
    out[i] = py::make_tuple(to_array(std::move(clusters[i].dimensions)), to_array(std::move(clusters[i].points)));
  clusters.clear();
  return out;
}

py::object to_python_or_none(std::optional<std::vector<SubspaceCluster>>&& clusters) {
  if (!clusters) return py::none();
  return to_python(std::move(*clusters));
}

namespace {

std::vector<std::uint32_t> sorted_ids(const py::handle& values, const std::string& what, std::size_t index,
                                      const char* side) {
  const std::string where = what + "[" + std::to_string(index) + "]'s " + side;
  py::array_t<std::int64_t, py::array::c_style | py::array::forcecast> array;
  try {
    array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(values);
  } catch (const py::error_already_set&) {
  }
  if (!array || array.ndim() != 1) throw UsageError(where + " must be a 1-D sequence of non-negative integers");
  std::vector<std::uint32_t> ids;
  ids.reserve(static_cast<std::size_t>(array.size()));
  const std::int64_t* data = array.data();
  for (py::ssize_t k = 0; k < array.size(); ++k) {
    const std::int64_t id = data[k];
    if (id < 0 || id > 0xffffffffLL) throw UsageError(where + " holds " + std::to_string(id) + ", outside 0..2^32 - 1");
    ids.push_back(static_cast<std::uint32_t>(id));
  }
  std::sort(ids.begin(), ids.end());
  if (const auto repeat = std::adjacent_find(ids.begin(), ids.end()); repeat != ids.end())
    throw UsageError(where + " holds " + std::to_string(*repeat) + " twice");
  return ids;
}

}  // namespace

std::vector<SubspaceCluster> from_python(const py::handle& clusters, const std::string& what) {
  std::vector<SubspaceCluster> out;
  std::size_t index = 0;
  for (const py::handle item : clusters) {
    const py::sequence pair = py::reinterpret_borrow<py::sequence>(item);
    if (!py::isinstance<py::sequence>(item) || py::len(pair) != 2)
      throw UsageError(what + "[" + std::to_string(index) + "] must be a pair (dimensions, point ids)");
    out.push_back({sorted_ids(pair[0], what, index, "dimensions"), sorted_ids(pair[1], what, index, "point ids")});
    ++index;
  }
  return out;
}

}  // namespace subscale::python
