#pragma once
// Lists of subspace clusters between C++ and Python: each cluster is a tuple (dimensions, point
// ids) of uint32 numpy arrays. Going out, the library's vectors are moved into the arrays (no copy
// of the ids); coming in, any pair of integer sequences is accepted and checked.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale::python {

namespace py = pybind11;

// The vector's storage becomes the array's (freed when the array is).
py::array_t<std::uint32_t> to_array(std::vector<std::uint32_t>&& values);

// list of (dimensions, points); the clusters' vectors are moved out.
py::list to_python(std::vector<SubspaceCluster>&& clusters);

// Reads [(dimensions, points), ...]; sorts each side and refuses repeats and negative ids,
// naming `what` and the cluster's index.
std::vector<SubspaceCluster> from_python(const py::handle& clusters, const std::string& what);

}  // namespace subscale::python
