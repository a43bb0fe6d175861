#pragma once
// A backend named in a config, resolved: the one place "auto" is read and turned into a backend
// (automatic_backend); any other name goes to the stage's parser, which says which names are valid.
#include <string>

#include "common/backend.hpp"
#include "gpu/device_info.hpp"

namespace subscale::gpu {

template <class StageParse>
Backend choose_backend(const std::string& name, StageParse&& parse_in_stage) {
  return parse_backend_name(name) == Backend::automatic ? automatic_backend() : parse_in_stage(name);
}

}  // namespace subscale::gpu
