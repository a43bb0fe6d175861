#include "pipeline/steps/library_run.hpp"

#include <sys/resource.h>
#include <tbb/task_arena.h>

#include <chrono>

#include "common/phase_timer.hpp"
#include "distributed/communicator.hpp"
#include "pipeline/log/memory_advice.hpp"
#include "pipeline/log/run_log.hpp"
#include "pipeline/log/workload_warnings.hpp"
#include "pipeline/output/results_writer.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/core_schema.hpp"
#include "pipeline/settings/parameter_advice.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "pipeline/steps/input_loading.hpp"
#include "pipeline/steps/run_stages.hpp"
#include "pipeline/steps/sampling.hpp"
#include "stages/dense_units/direct/direct_memory_plan.hpp"
#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/dense_units/table/partition_plan.hpp"

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
  constexpr const char* refused[] = {"input.path",    "input.format", "input.dataset", "input.label_column",
                                     "input.header",  "join.",        "filter.",       "checkpoint.",
                                     "ground_truth.", "output.",      "report",        "progress."};
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
  // The overrides are a caller's parameters (the Python estimator's keywords), not a command line:
  // their messages begin with the key, without a word for where they came from.
  Config config =
      Config::from_text("input:\n  path: '" + input.name + "'\n", overrides, core_config_schema(), ".", input.name, "");
  if (!config.sweep_keys().empty())
    throw UsageError(config.sweep_keys()[0] + " is a list (a sweep); a run takes one value: run once per value");
  return config;
}

// The sections that read or write files are refused above as keys; their settings stay unset.
HeldValues hold_input(const MemoryInput& input, const RunSettings& settings) {
  Matrix values = std::visit(
      [&](const auto& view) {
        return load::normalized_matrix(view, settings.normalization, input.name, input.column_names);
      },
      input.values);
  return HeldValues::hold(std::move(values), settings.precision, input.name);
}

// What the command line does once the input is read: "auto" parameters chosen from the data (and
// written into the config, so config_ repeats the run), then the core's parameters checked.
void choose_from_data(LoadedInput& input, RunSettings& settings, Config& config, RunLog& log, BudgetLimit& budget) {
  for (const auto& line : resolve_sample_and_parameters(input, settings, config, budget)) log.line(line);
  validate_run_params(settings, input.discovery().points());
}

std::uint64_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

// run_one's settings and stages, on the matrix in memory instead of a file and without a folder.
RunReport run_in_memory(Config& config, const MemoryInput& source, const RunObserver& observer, RunLog& log,
                        std::vector<std::string>& warnings) {
  RunSettings settings = read_settings(config);
  RunReport report;
  report.config_source = config.source_name();
  report.input_path = source.name;
  report.seed = settings.core.units.seed;
  report.threads = settings.threads;
  for (const auto& note : settings.memory_notes) log.line(note);
  tbb::task_arena arena(settings.threads);
  arena.execute([&] {
    LoadedInput input;
    observer.stage("normalize");
    const auto start = std::chrono::steady_clock::now();
    input.held = hold_input(source, settings);
    report.stage_seconds.emplace_back("normalize", seconds_since(start));
    choose_from_data(input, settings, config, log, report.budget);
    report.points = input.held.points();
    report.dimensions = input.held.dimensions();
    if (source.truth) input.truth = io::GroundTruth{input.held.dimensions(), {}, *source.truth};
    warnings = workload_warnings(input.discovery(), settings.significance.enabled);
    if (report.budget.limited) warnings.push_back(report.budget.note);
    for (const auto& warning : warnings) log.warning(warning);
    with_parameter_advice(
        [&] { return run_stages(settings, input, log, report, distributed::Communicator::world(), observer); });
  });
  report.peak_memory_bytes = peak_resident_bytes();
  return report;
}

// plan_command's steps (density1d, the unit plan, the memory check, the walk's estimate or the
// partitions), returned as values instead of printed.
LibraryPlan plan_in_memory(Config& config, const MemoryInput& source) {
  RunSettings settings = read_settings(config);
  LibraryPlan out;
  tbb::task_arena arena(settings.threads);
  arena.execute([&] {
    LoadedInput input;
    input.held = hold_input(source, settings);
    RunLog log(true, true);
    BudgetLimit budget;
    choose_from_data(input, settings, config, log, budget);
    out.points = input.held.points();
    out.dimensions = input.held.dimensions();
    out.held_bytes = input.held.bytes();
    if (input.sample) {
      out.sample_points = input.sample->rows.size();
      out.sample_reason = input.sample->reason;
    }
    const HeldValues& held = input.discovery();
    const Density1dResult density = held.visit([&](const auto& values) {
      return run_density1d(values, {settings.core.epsilon, settings.core.min_points});
    });
    const UnitPlan plan(density, settings.core.min_points);
    check_memory_budget(settings, plan.total_units(),
                        plan.largest_window() ? plan.binomials()(plan.largest_window() - 1, plan.min_points() - 1) : 0);
    out.mode = to_string(settings.core.units.mode);
    out.total_units = plan.total_units();
    for (std::uint32_t j = 0; j < plan.dimensions(); ++j) out.units_per_dimension.push_back(plan.units_in_dimension(j));
    out.largest_window = plan.largest_window();
    if (settings.core.units.mode == TableMode::direct) {
      held.visit([&](const auto& values) {
        const DirectSpace space(values, plan, density, settings.core.epsilon);
        const DirectWalkEstimate estimate = estimate_direct_walk(space, plan);
        const DirectMemoryPlan memory = plan_direct_memory(space, estimate);
        out.walk_exact = estimate.exact;
        out.walk_nodes = estimate.nodes;
        out.multi_units = estimate.multi_units;
        out.subspaces_at_least = memory.subspaces_at_least;
        out.table_bytes_at_least = memory.table_bytes_at_least();
      });
      return;
    }
    const SignatureKeys keys = make_signature_keys(plan.points(), settings.core.units.keys, settings.core.units.seed);
    out.partitions =
        plan_partitions(plan, density, keys, fit_partitions_to_host_bytes(settings.core.units, plan.total_units()))
            .count();
    out.false_match_probability = false_match_probability(plan.total_units(), settings.core.units.signature_bits,
                                                          settings.core.units.keys, settings.core.min_points);
  });
  return out;
}

}  // namespace

LibraryRun run_library(const std::vector<std::string>& overrides, const MemoryInput& input, RunControl& control) {
  Config config = memory_config(overrides, input);
  RunObserver observer;
  observer.on_stage = [&control](const std::string& stage, std::uint64_t total) { control.enter(stage, total); };
  observer.on_units = [&control](std::uint64_t done) { control.advance(done); };
  RunLog log(true, true);  // kept, not printed: the caller shows the warnings its own way
  LibraryRun run;
  run.report = run_in_memory(config, input, observer, log, run.warnings);
  control.throw_if_cancelled();
  run.config_yaml = config.to_yaml();
  run.summary_json = summary_json(run.report);
  run.log = log.text();
  return run;
}

LibraryPlan plan_library(const std::vector<std::string>& overrides, const MemoryInput& input) {
  Config config = memory_config(overrides, input);
  return plan_in_memory(config, input);
}

}  // namespace subscale::pipeline
