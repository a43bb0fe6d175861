#pragma once
// `subscale hash CONFIG [key=value...]` (docs/stages.md §2): hashes every row of an HDF5 table (or of a
// seeded generated table) with one function, writes the hashes to HDF5, prints a quality table
// and writes the figures as JSON. Both files are written atomically.
#include <filesystem>
#include <ostream>

#include "pipeline/settings/config.hpp"

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

// Registers `hash CONFIG [key=value...]` on the command line (pipeline/commands/config_subcommand.hpp:
// it runs from its own callback and exits with the documented codes). A flagged quality
// measure is a finding, not a failure: the exit code is 0.
void add_hash_command(CLI::App& app);

}  // namespace subscale::pipeline
