#include "pipeline/library_run.hpp"

#include <algorithm>

#include "pipeline/core_schema.hpp"
#include "pipeline/results_writer.hpp"

namespace subscale::pipeline {

void RunControl::enter(const std::string& stage, std::uint64_t total) {
  throw_if_cancelled();
  {
    const std::lock_guard lock(stage_mutex_);
    stage_ = stage;
  }
  done_.store(0, std::memory_order_relaxed);
  total_.store(total, std::memory_order_relaxed);
}

void RunControl::advance(std::uint64_t amount) {
  throw_if_cancelled();
  done_.fetch_add(amount, std::memory_order_relaxed);
}

RunControl::Snapshot RunControl::snapshot() const {
  Snapshot now;
  {
    const std::lock_guard lock(stage_mutex_);
    now.stage = stage_;
  }
  now.done = done_.load(std::memory_order_relaxed);
  now.total = total_.load(std::memory_order_relaxed);
  return now;
}

namespace {

// Keys of the command line that name files or folders (or the display of a terminal): a run in
// memory reads the caller's matrix and writes nothing.
void refuse_file_keys(const std::vector<std::string>& overrides) {
  constexpr const char* refused[] = {"input.path", "input.format", "input.dataset", "input.label_column",
                                     "join.",      "filter.",      "checkpoint.",   "ground_truth.",
                                     "output.",    "report",       "progress."};
  for (const std::string& text : overrides) {
    const std::string key = text.substr(0, text.find('='));
    for (const char* prefix : refused)
      if (key.rfind(prefix, 0) == 0)
        throw UsageError(key +
                         " names a file or a folder; a run on data in memory reads the matrix it is given "
                         "and writes nothing");
  }
}

Config memory_config(const std::vector<std::string>& overrides, const MemoryInput& input) {
  refuse_file_keys(overrides);
  Config config =
      Config::from_text("input:\n  path: '" + input.name + "'\n", overrides, core_config_schema(), ".", input.name);
  if (!config.sweep_keys().empty())
    throw UsageError(config.sweep_keys()[0] + " is a list (a sweep); a run takes one value: run once per value");
  return config;
}

MemorySource memory_source(const MemoryInput& input) {
  MemorySource source;
  source.name = input.name;
  source.truth = input.truth;
  source.normalized_values = [&input](load::Normalization normalization) {
    return std::visit(
        [&](const auto& view) { return load::normalized_matrix(view, normalization, input.name, input.column_names); },
        input.values);
  };
  return source;
}

}  // namespace

LibraryRun run_library(const std::vector<std::string>& overrides, const MemoryInput& input, RunControl& control) {
  Config config = memory_config(overrides, input);
  RunObserver observer;
  observer.on_stage = [&control](const std::string& stage, std::uint64_t total) { control.enter(stage, total); };
  observer.on_units = [&control](std::uint64_t done) { control.advance(done); };
  RunLog log(true);
  LibraryRun run;
  run.report = run_in_memory(config, memory_source(input), observer, log);
  control.throw_if_cancelled();
  run.config_yaml = config.to_yaml();
  run.summary_json = summary_json(run.report);
  run.log = log.text();
  return run;
}

LibraryPlan plan_library(const std::vector<std::string>& overrides, const MemoryInput& input) {
  Config config = memory_config(overrides, input);
  return plan_in_memory(config, memory_source(input));
}

}  // namespace subscale::pipeline
