# The Python package (python/): a pybind11 extension over the same libraries as the command line.
# It is built when pybind11 and the interpreter's headers are found; its static libraries are then
# compiled as position-independent code, which a shared module needs (subscale_library does that).
# The interpreter: Python_EXECUTABLE when given, else Debian's /usr/bin/python3 (whose numpy and
# pandas the tests use), else the first python3 on PATH.
option(SUBSCALE_BUILD_PYTHON "Build the Python package (pybind11) when pybind11 and Python's headers are found" ON)
set(SUBSCALE_WITH_PYTHON OFF)
if(SUBSCALE_BUILD_PYTHON AND NOT SUBSCALE_FUZZ)
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python 3.9 QUIET COMPONENTS Interpreter Development.Module)
  if(Python_FOUND)
    find_package(pybind11 2.10 CONFIG QUIET)
  endif()
  if(Python_FOUND AND pybind11_FOUND)
    set(SUBSCALE_WITH_PYTHON ON)
  endif()
endif()
message(STATUS "subscale: Python package ${SUBSCALE_WITH_PYTHON} (${Python_EXECUTABLE})")
