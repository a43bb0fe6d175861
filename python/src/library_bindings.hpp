#pragma once
// The library's pieces that need no run: the config schema, the file readers, the quality
// measures and the in-memory input's normalisation, bound for the Python package.
#include <pybind11/pybind11.h>

namespace subscale::python {

void bind_library(pybind11::module_& module);

}  // namespace subscale::python
