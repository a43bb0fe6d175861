#include "python/src/array_input.hpp"

#include "common/error.hpp"

namespace subscale::python {
namespace {

template <class T>
load::MatrixView<T> typed_view(const py::array& array) {
  const auto step = [&](int axis) {
    const py::ssize_t bytes = array.strides(axis);
    if (bytes % static_cast<py::ssize_t>(sizeof(T)) != 0)
      throw UsageError(
          "the array's strides are not whole elements (a view into a structured array?): pass "
          "np.ascontiguousarray(X)");
    return static_cast<std::ptrdiff_t>(bytes / static_cast<py::ssize_t>(sizeof(T)));
  };
  return {static_cast<const T*>(array.data()), static_cast<std::size_t>(array.shape(0)),
          static_cast<std::size_t>(array.shape(1)), step(0), step(1)};
}

}  // namespace

AnyMatrixView view_of(const py::array& array) {
  if (array.ndim() != 2)
    throw UsageError("expected a 2-D array (points x dimensions), got " + std::to_string(array.ndim()) +
                     "-D: reshape(-1, 1) for a single dimension, reshape(1, -1) for a single point");
  if (py::isinstance<py::array_t<double>>(array)) return typed_view<double>(array);
  if (py::isinstance<py::array_t<float>>(array)) return typed_view<float>(array);
  throw UsageError("expected float64 or float32 values, got " + std::string(py::str(array.dtype())));
}

}  // namespace subscale::python
