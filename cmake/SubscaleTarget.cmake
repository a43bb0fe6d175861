# Common compile settings for every target of the project: warnings, sanitizers, CUDA flags.
# -Wmissing-field-initializers fires on C++20 designated initializers that rely on default
# member initializers (GCC 12), which the config schema uses on purpose.
set(SUBSCALE_CXX_WARNINGS -Wall -Wextra -Wno-unknown-pragmas -Wno-missing-field-initializers)

function(subscale_configure_target target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${SUBSCALE_CXX_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr --extended-lambda -Xcompiler=-Wall,-Wextra>)
  if(SUBSCALE_WITH_CUDA)
    target_compile_definitions(${target} PUBLIC SUBSCALE_WITH_CUDA=1)
  endif()
  if(SUBSCALE_SANITIZE)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined>)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

# subscale_library(NAME SOURCES ... [CUDA_SOURCES ...] [CUDA_UNAVAILABLE_SOURCES ...] [DEPS ...])
# CUDA_SOURCES are compiled only when the CUDA backend is built, CUDA_UNAVAILABLE_SOURCES (the
# *_cuda_unavailable.cpp stand-ins, see gpu/README.md) only when it is not.
function(subscale_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;CUDA_SOURCES;CUDA_UNAVAILABLE_SOURCES;DEPS" ${ARGN})
  set(srcs ${ARG_SOURCES})
  if(SUBSCALE_WITH_CUDA)
    list(APPEND srcs ${ARG_CUDA_SOURCES})
  else()
    list(APPEND srcs ${ARG_CUDA_UNAVAILABLE_SOURCES})
  endif()
  add_library(${name} STATIC ${srcs})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  if(SUBSCALE_WITH_CUDA AND ARG_CUDA_SOURCES)
    set_target_properties(${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF CUDA_RESOLVE_DEVICE_SYMBOLS ON)
    target_link_libraries(${name} PUBLIC CUDA::cudart_static)
  endif()
  if(SUBSCALE_WITH_PYTHON)
    set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)  # linked into the Python module
  endif()
  subscale_configure_target(${name})
  subscale_unity(${name})
endfunction()

function(subscale_test_definitions target)
  target_compile_definitions(${target} PRIVATE
    SUBSCALE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    SUBSCALE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  # re2's flags bring -pthread (it defines _REENTRANT) to the tests that link the filter, hash and
  # join stages; every test and the precompiled header take it, or GCC refuses the header for those
  # (-Winvalid-pch) and they parse GoogleTest again.
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-pthread>)
  # The tests' own code is not optimised in any build (the product's libraries keep their -O3, or
  # -O1 in the sanitizer build): what is tested is the product, and the tests' sources compile in
  # half the time or less (pipeline_tests' first unity batch on the 2-core machine: 39 s at -O3,
  # 18 s at -O0; in the sanitizer build 69 s at -O1, 31 s at -O0). At -O1, GCC 12 also warned
  # falsely ("may be used uninitialized") inside libstdc++'s <regex>, which the report and filter
  # tests use.
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O0>)
endfunction()

# GoogleTest's and gMock's headers, compiled once into a precompiled header that every test target
# reuses: parsing them took about 1.5 s of every test source's compile, 106 sources, twice in
# scripts/test (the Release and the sanitizer build). The target has the tests' own flags and
# definitions, which reusing requires; a source whose flags differ after all falls back to
# reading the headers (GCC ignores a precompiled header that does not match), so the build stays
# right either way.
function(subscale_test_pch)
  if(TARGET subscale_test_pch)
    return()
  endif()
  add_library(subscale_test_pch OBJECT ${PROJECT_SOURCE_DIR}/cmake/test_pch.cpp)
  target_link_libraries(subscale_test_pch PRIVATE GTest::gtest GTest::gmock)
  subscale_test_definitions(subscale_test_pch)
  subscale_configure_target(subscale_test_pch)
  target_precompile_headers(subscale_test_pch PRIVATE <gtest/gtest.h> <gmock/gmock.h>)
endfunction()

# subscale_unity(TARGET [SOURCES ...]): compile the target's C++ sources in batches of eight (a
# unity build; CUDA sources stay apart). A source spends most of its compile on what it shares with
# the other sources of its target (the stages' headers, TBB, GoogleTest's templates): 18 pipeline
# tests took 182 s apart and 83 s as one source (2 cores), and scripts/test compiles everything
# twice. Of the SOURCES given, those outside tests/ (a product source a test compiles again) keep a
# translation unit of their own. Names in anonymous namespaces must therefore be unique within a
# target's sources. SUBSCALE_UNITY_BUILD=OFF compiles every source apart (a check that each file
# includes what it uses).
function(subscale_unity target)
  if(NOT SUBSCALE_UNITY_BUILD)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  set(tests_dir "${PROJECT_SOURCE_DIR}/tests")
  foreach(source IN LISTS ARGN)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} OUTPUT_VARIABLE path)
    cmake_path(IS_PREFIX tests_dir "${path}" NORMALIZE in_tests)
    if(NOT in_tests)
      set_source_files_properties(${source} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()

# subscale_test(NAME SOURCES ... DEPS ...): one GoogleTest executable registered with CTest.
function(subscale_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  subscale_test_definitions(${name})
  subscale_configure_target(${name})
  subscale_test_pch()
  target_precompile_headers(${name} REUSE_FROM subscale_test_pch)
  subscale_unity(${name} ${ARG_SOURCES})
  # A test that hangs fails after 10 minutes with its name (the slowest takes about 20 s under the
  # sanitizers on 2 cores), where otherwise it would stall the whole suite without saying which.
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600 ENVIRONMENT
                       "SUBSCALE_SHARED_DIR=${PROJECT_SOURCE_DIR}/../shared")
endfunction()

# subscale_program(TARGET): settings for the project's programs (the command line and the
# benchmarks) on top of subscale_configure_target. oneTBB's scalable allocator replaces malloc and
# new in them: the core hands millions of small point lists between threads, which the C library's
# allocator serialises (29.5 M subspaces made into vectors: 8.1 s with glibc's malloc, 2.5 s with
# tbbmalloc, on 2 threads). Sanitizer builds keep the sanitizers' allocator.
function(subscale_program target)
  subscale_configure_target(${target})
  if(NOT SUBSCALE_SANITIZE AND TARGET TBB::tbbmalloc_proxy)
    target_link_libraries(${target} PRIVATE "-Wl,--push-state,--no-as-needed" TBB::tbbmalloc_proxy "-Wl,--pop-state")
  endif()
endfunction()
