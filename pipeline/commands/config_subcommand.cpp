#include "pipeline/commands/config_subcommand.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <new>

#include "common/error.hpp"

namespace subscale::pipeline {

int report_current_exception(const char* out_of_memory_hint) {
  try {
    throw;
  } catch (const Error& error) {
    std::fprintf(stderr, "subscale: error: %s\n", error.what());
    return static_cast<int>(error.code());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "subscale: error: out of host memory; %s\n", out_of_memory_hint);
    return static_cast<int>(ExitCode::resource);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "subscale: error: %s\n", error.what());
    return static_cast<int>(ExitCode::other);
  }
}

void add_config_subcommand(CLI::App& app, const std::string& name, const std::string& description,
                           const std::string& example_config, const std::string& example_overrides,
                           const ConfigSchema& schema, std::function<void(const Config&)> action,
                           const char* out_of_memory_hint) {
  struct Arguments {
    std::string config_file;
    std::vector<std::string> overrides;
  };
  auto args = std::make_shared<Arguments>();
  CLI::App* command = app.add_subcommand(name, description);
  command->add_option("config", args->config_file, "YAML config (see " + example_config + ")")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("overrides", args->overrides, "key=value overrides, e.g. " + example_overrides);
  command->footer("Config keys (YAML, or key=value overrides with dotted paths):\n" + schema.describe());
  command->callback([args, schema, action = std::move(action), out_of_memory_hint] {
    try {
      action(Config::load_file(args->config_file, args->overrides, schema));
      std::cout.flush();
    } catch (...) {
      const int code = report_current_exception(out_of_memory_hint);
      std::fflush(stdout);
      std::exit(code);
    }
  });
}

}  // namespace subscale::pipeline
