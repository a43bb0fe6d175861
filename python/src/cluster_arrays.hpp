#pragma once
// Values between C++ and Python. Lists of subspace clusters: each cluster is a tuple (dimensions,
// point ids) of uint32 numpy arrays. Going out, the library's vectors and matrices are moved into
// the arrays (no copy); coming in, any pair of integer sequences is accepted and checked.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::python {

namespace py = pybind11;

// f() run with the interpreter's lock released (the library's work, which reads no Python object).
template <class F>
auto without_gil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

// The vector's storage becomes the array's (freed when the array is).
template <class T>
py::array_t<T> to_array(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({static_cast<py::ssize_t>(owned->size())}, {static_cast<py::ssize_t>(sizeof(T))}, owned->data(),
                        owner);
}

// The matrix's storage becomes a 2-D array's, in Fortran order (freed when the array is).
template <class T>
py::array_t<T> to_array(ColumnMatrix<T>&& matrix) {
  auto* owned = new ColumnMatrix<T>(std::move(matrix));
  py::capsule owner(owned, [](void* p) { delete static_cast<ColumnMatrix<T>*>(p); });
  const auto rows = static_cast<py::ssize_t>(owned->rows());
  const auto item = static_cast<py::ssize_t>(sizeof(T));
  return py::array_t<T>({rows, static_cast<py::ssize_t>(owned->cols())}, {item, rows * item}, owned->data(), owner);
}

// An array of the values, or None where there are none to give (a list the run did not make, a
// dataset a file does not hold).
template <class T>
py::object array_or_none(std::optional<std::vector<T>>&& values) {
  if (!values) return py::none();
  return to_array(std::move(*values));
}

// list of (dimensions, points); the clusters' vectors are moved out.
py::list to_python(std::vector<SubspaceCluster>&& clusters);

// The list, or None where there is none.
py::object to_python_or_none(std::optional<std::vector<SubspaceCluster>>&& clusters);

// Reads [(dimensions, points), ...]; sorts each side and refuses repeats and negative ids,
// naming `what` and the cluster's index.
std::vector<SubspaceCluster> from_python(const py::handle& clusters, const std::string& what);

}  // namespace subscale::python
