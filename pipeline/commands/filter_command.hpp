#pragma once
// `subscale filter CONFIG [key=value...]` (docs/stages.md §4): selects the rows of an HDF5 column table (or
// of a generated lineitem or string table) that satisfy the config's `where:` predicate, with an
// optional aggregate computed in the same pass, and writes the selected row ids (/ids, and with
// output.table the selected rows' columns under /table) plus a JSON summary. Both files are
// written atomically: a failure leaves neither behind.
#include <filesystem>
#include <ostream>

#include "pipeline/settings/config.hpp"

namespace CLI {
class App;
}

namespace subscale::pipeline {

ConfigSchema filter_command_schema();

struct FilterCommandResult {
  std::filesystem::path output_file;
  std::filesystem::path json_file;
  std::uint64_t rows = 0;
  std::uint64_t selected = 0;
};

FilterCommandResult run_filter_command(const Config& config, std::ostream& out);

// Registers `filter CONFIG [key=value...]` (pipeline/commands/config_subcommand.hpp).
void add_filter_command(CLI::App& app);

}  // namespace subscale::pipeline
