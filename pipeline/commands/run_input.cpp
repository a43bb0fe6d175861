#include "pipeline/commands/run_input.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "io/dataset_loader.hpp"
#include "pipeline/settings/core_schema.hpp"

namespace subscale::pipeline {
namespace {

std::string lower_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

// A config under another name still reads as a YAML mapping; data (a CSV's lines, binary) does not.
// A file larger than a config may be is not read at all.
bool holds_yaml_mapping(const std::filesystem::path& path) {
  constexpr std::uintmax_t max_config_bytes = std::uintmax_t{16} << 20;
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error || size > max_config_bytes) return false;
  std::ifstream stream(path, std::ios::binary);
  std::stringstream text;
  text << stream.rdbuf();
  if (text.str().find('\0') != std::string::npos) return false;
  try {
    return YAML::Load(text.str()).IsMap();
  } catch (const YAML::Exception&) {
    return false;
  }
}

bool is_data_file(const std::filesystem::path& path) {
  try {
    io::detect_input_format(path.string());
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// The config a data file stands for, as if written beside it: the path is held absolute, like
// every path of a config file, so the run folder's config.yaml repeats the run from anywhere.
Config data_config(const std::filesystem::path& data, const std::vector<std::string>& overrides) {
  const std::filesystem::path absolute = std::filesystem::absolute(data);
  YAML::Emitter yaml;
  yaml << YAML::BeginMap << YAML::Key << "input" << YAML::Value << YAML::BeginMap << YAML::Key << "path" << YAML::Value
       << YAML::DoubleQuoted << absolute.string() << YAML::EndMap << YAML::EndMap;
  if (!yaml.good())
    throw UsageError(data.string() + ": cannot name this data file in a config (" + yaml.GetLastError() +
                     "); write a config with input.path and run that");
  return Config::from_text(yaml.c_str(), overrides, core_config_schema(), absolute.parent_path(), data.string());
}

}  // namespace

Config load_run_config(const std::filesystem::path& positional, const std::vector<std::string>& overrides,
                       const std::string& command) {
  const std::string extension = lower_extension(positional);
  if (extension == ".yaml" || extension == ".yml")
    return Config::load_file(positional, overrides, core_config_schema());
  if (is_data_file(positional)) return data_config(positional, overrides);
  if (holds_yaml_mapping(positional)) return Config::load_file(positional, overrides, core_config_schema());
  throw UsageError(positional.string() +
                   ": neither a YAML config nor a data file that input.format: auto reads (.h5/.hdf5, .csv, .arff, "
                   "or an HDF5 or ARFF file by its first bytes); give one of\n  subscale " +
                   command + " CONFIG.yaml [key=value ...]   (a config naming the data under input.path)\n  subscale " +
                   command + " DATA.csv [key=value ...]      (the data itself, every parameter auto)");
}

}  // namespace subscale::pipeline
