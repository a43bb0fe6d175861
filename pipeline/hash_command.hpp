#pragma once
// `subscale hash CONFIG [key=value...]` (SPEC 10): hashes every row of an HDF5 table (or of a
// seeded generated table) with one function, writes the hashes to HDF5, prints a quality table
// and writes the figures as JSON. Both files are written atomically.
#include <filesystem>
#include <ostream>

#include "pipeline/config.hpp"

namespace CLI {
class App;
}

namespace subscale::pipeline {

// The keys the hash command accepts (input.*, hash.*, quality.*, output.*).
ConfigSchema hash_command_schema();

struct HashCommandResult {
  std::filesystem::path hashes_file;
  std::filesystem::path json_file;
  bool quality_pass = true;  // every measure passed (or quality was off)
};

// Runs the command on a loaded config; the report goes to `out`. Errors are subscale::Error
// with the documented exit codes (2 usage, 3 input, 4 resource).
HashCommandResult run_hash_command(const Config& config, std::ostream& out);

// Loads CONFIG with the overrides and runs; returns the process exit code (0; a flagged
// quality measure is a finding, not a failure).
int hash_command_main(const std::filesystem::path& config_file, const std::vector<std::string>& overrides,
                      std::ostream& out);

// Registers `hash CONFIG [key=value...]` on the command line. The subcommand runs from its own
// CLI11 callback, so main.cpp needs this one line and no dispatch branch; because a callback runs
// inside app.parse(), it maps its own errors to the documented exit codes (message on stderr,
// then exit) instead of letting them escape parse().
void add_hash_command(CLI::App& app);

}  // namespace subscale::pipeline
