#pragma once
// The config keys of `subscale run` and `subscale plan` (docs/method.md).
#include "pipeline/settings/config.hpp"

namespace subscale::pipeline {

ConfigSchema core_config_schema();

}  // namespace subscale::pipeline
