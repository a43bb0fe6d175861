#pragma once
// run() and plan(): the library's run on a numpy array, with the GIL released while it works.
#include <pybind11/pybind11.h>

namespace subscale::python {

void bind_run(pybind11::module_& module);

}  // namespace subscale::python
