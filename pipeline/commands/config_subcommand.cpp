#include "pipeline/commands/config_subcommand.hpp"

#include <tbb/task_arena.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <new>
#include <string>

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

void require_count(CLI::Option* option) {
  option->check(CLI::Validator(
      [](std::string& text) -> std::string {
        std::size_t used = 0;
        unsigned long long value = 0;
        try {
          if (!text.empty() && text.front() != '-') value = std::stoull(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == text.size() && value >= 1) return {};
        return "is " + text + "; give a whole number of at least 1";
      },
      "COUNT >= 1"));
}

namespace {

// Every config subcommand takes `threads`, like run: the oneTBB arena its work runs in.
ConfigSchema with_threads(ConfigSchema schema) {
  if (!schema.find("threads"))
    schema.add(
        automatic(ranged(config_key("threads", ValueKind::integer, "auto", "CPU threads (auto: all cores)"), 1)));
  return schema;
}

}  // namespace

void add_config_subcommand(CLI::App& app, const std::string& name, const std::string& description,
                           const std::string& example_config, const std::string& example_overrides,
                           const ConfigSchema& command_schema, std::function<void(const Config&)> action,
                           const char* out_of_memory_hint) {
  const ConfigSchema schema = with_threads(command_schema);
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
      const Config config = Config::load_file(args->config_file, args->overrides, schema);
      tbb::task_arena arena(config.is_auto("threads") ? tbb::this_task_arena::max_concurrency()
                                                      : static_cast<int>(config.integer("threads")));
      arena.execute([&] { action(config); });
      std::cout.flush();
    } catch (...) {
      const int code = report_current_exception(out_of_memory_hint);
      std::fflush(stdout);
      std::exit(code);
    }
  });
}

}  // namespace subscale::pipeline
