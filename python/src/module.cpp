// subscale._subscale: the extension module behind the Python package. The library's errors
// become Python's: usage and input errors ValueError (the message names the key, or the file,
// row and column), resource errors MemoryError, anything else RuntimeError.
#include <pybind11/pybind11.h>

#include "common/error.hpp"
#include "python/src/library_bindings.hpp"
#include "python/src/membership_model.hpp"
#include "python/src/run_bindings.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_subscale, m) {
  m.doc() = "The subscale library (subspace clustering), bound for the Python package `subscale`.";
  m.attr("__version__") = SUBSCALE_PYTHON_VERSION;
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const subscale::Error& e) {
      switch (e.code()) {
        case subscale::ExitCode::usage:
        case subscale::ExitCode::input:
          PyErr_SetString(PyExc_ValueError, e.what());
          return;
        case subscale::ExitCode::resource:
          PyErr_SetString(PyExc_MemoryError, e.what());
          return;
        default:
          PyErr_SetString(PyExc_RuntimeError, e.what());
          return;
      }
    }
  });
  subscale::python::bind_library(m);
  subscale::python::bind_run(m);
  subscale::python::bind_membership(m);
}
