#pragma once
// What `run` and `plan` take first: a YAML config, or a data file that stands for a config holding
// only `input.path: DATA` (every parameter auto), so that a first look at one's own data needs no file.
#include <filesystem>
#include <string>
#include <vector>

#include "pipeline/settings/config.hpp"

namespace subscale::pipeline {

// Loads `positional` as a config when it is one (a .yaml/.yml file, or another file holding a YAML
// mapping), else as data when input.format: auto would read it (HDF5, CSV, ARFF), with `overrides`
// applied either way. A file that is neither is a UsageError that shows both forms of `command`.
Config load_run_config(const std::filesystem::path& positional, const std::vector<std::string>& overrides,
                       const std::string& command);

}  // namespace subscale::pipeline
