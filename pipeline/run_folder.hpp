#pragma once
// The run folder: its default name, its creation, and everything written into it.
#include <filesystem>

#include "pipeline/config.hpp"
#include "pipeline/run_log.hpp"
#include "pipeline/run_report.hpp"
#include "pipeline/run_settings.hpp"

namespace subscale::pipeline {

// runs/<config>-<time>, numbered when it exists.
std::filesystem::path default_run_folder(const std::filesystem::path& config_file);
void create_folder(const std::filesystem::path& folder);
void write_run_folder(const std::filesystem::path& folder, const Config& config, const RunSettings& settings,
                      RunReport& report, RunLog& log);

}  // namespace subscale::pipeline
