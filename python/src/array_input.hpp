#pragma once
// A numpy array as the library's in-memory input: a view of its buffer (float64 or float32, any
// strides), read in place; the Python layer converts other dtypes first (and says so).
#include <pybind11/numpy.h>

#include <variant>

#include "stages/load/matrix_view.hpp"

namespace subscale::python {

namespace py = pybind11;

using AnyMatrixView = std::variant<load::MatrixView<double>, load::MatrixView<float>>;

// Throws ValueError (through UsageError) for anything but a 2-D float64 or float32 array whose
// strides are whole elements. The view is valid while `array` lives and is not resized.
AnyMatrixView view_of(const py::array& array);

}  // namespace subscale::python
