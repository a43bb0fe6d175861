#pragma once
// What the subcommands share: `NAME CONFIG [key=value ...]` registration, and the mapping of an
// escaped error to its message on stderr and the documented exit code (2 usage, 3 input,
// 4 resource, 1 anything else).
#include <functional>
#include <string>

#include "pipeline/settings/config.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace subscale::pipeline {

// Prints the exception in flight as "subscale: error: ..." and returns its exit code. Call it
// from a catch (...) block; `out_of_memory_hint` completes the message for std::bad_alloc.
int report_current_exception(const char* out_of_memory_hint);

// A count option (--points, --processes): a whole number of at least 1, refused otherwise with a
// message that says so (CLI11's own names a range up to the largest double).
void require_count(CLI::Option* option);

// Registers `name CONFIG [key=value ...]`, validated against `schema` plus `threads` (auto or a
// count, the oneTBB arena the action runs in; whose keys --help lists).
// The subcommand runs `action` from its own CLI11 callback, so the command line (command_line.cpp)
// needs no dispatch branch; since a callback runs inside app.parse(), an error is reported and the
// process exits with its code there, instead of escaping parse().
void add_config_subcommand(CLI::App& app, const std::string& name, const std::string& description,
                           const std::string& example_config, const std::string& example_overrides,
                           const ConfigSchema& schema, std::function<void(const Config&)> action,
                           const char* out_of_memory_hint);

}  // namespace subscale::pipeline
