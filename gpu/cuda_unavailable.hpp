#pragma once
// What every *_cuda_unavailable.cpp does in a build without CUDA: each GPU entry point of a stage
// is defined and throws a ResourceError (exit code 4) that names the stage and the setting that
// keeps it on the CPU, so callers and tests need no #ifdef.
#include <string>

namespace subscale::gpu {

// what: the stage ("density1d"); cpu_setting: the setting to use instead ("backend: cpu").
[[noreturn]] void throw_cuda_unavailable(const std::string& what, const std::string& cpu_setting);

}  // namespace subscale::gpu
