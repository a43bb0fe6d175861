#pragma once
// `subscale join CONFIG [key=value...]` (docs/stages.md §3): joins two HDF5 tables on their key columns
// (or two seeded generated key columns) and writes either the matching (R row, S row) pairs or
// S's rows with R's columns attached, as an HDF5 file the pipeline can load (/data, /ids and,
// when S has them, /labels), plus a JSON summary with the timings. Both files are written
// atomically.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "pipeline/settings/config.hpp"
#include "stages/join/column_join.hpp"

namespace CLI {
class App;
}

namespace subscale::pipeline {

// The keys the join command accepts (r.*, s.*, generate.*, join.*, output.*).
ConfigSchema join_command_schema();

struct JoinCommandResult {
  std::filesystem::path output_file;
  std::filesystem::path json_file;
  std::uint64_t rows = 0;  // pairs (mode pairs) or output rows (mode attach)
};

JoinCommandResult run_join_command(const Config& config, std::ostream& out);

// Registers `join CONFIG [key=value...]` (pipeline/commands/config_subcommand.hpp).
void add_join_command(CLI::App& app);

}  // namespace subscale::pipeline
