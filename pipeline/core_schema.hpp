#pragma once
// The config keys of `subscale run` and `subscale plan` (docs/method.md, issue 2's list).
#include "pipeline/config.hpp"

namespace subscale::pipeline {

ConfigSchema core_config_schema();

}  // namespace subscale::pipeline
