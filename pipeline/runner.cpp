#include "pipeline/runner.hpp"

#include <sys/resource.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iomanip>
#include <random>
#include <sstream>

#include "cluster/cluster_core.hpp"
#include "cluster/cluster_merge.hpp"
#include "cluster/communicator.hpp"
#include "common/error.hpp"
#include "common/held_values.hpp"
#include "common/parallel_release.hpp"
#include "common/phase_timer.hpp"
#include "gpu/device_info.hpp"
#include "io/atomic_output.hpp"
#include "io/ground_truth.hpp"
#include "io/host_memory.hpp"
#include "pipeline/automatic_parameters.hpp"
#include "pipeline/config.hpp"
#include "pipeline/core_schema.hpp"
#include "pipeline/filter_section.hpp"
#include "pipeline/join_table_reader.hpp"
#include "pipeline/progress.hpp"
#include "pipeline/report_html.hpp"
#include "pipeline/results_writer.hpp"
#include "pipeline/significance_steps.hpp"
#include "pipeline/run_log.hpp"
#include "stages/dense_units/direct_memory_plan.hpp"
#include "stages/dense_units/direct_units.hpp"
#include "stages/join/attach_columns.hpp"
#include "stages/load/load.hpp"
#include "stages/load/normalize.hpp"

namespace subscale::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

std::string format_count(std::uint64_t value) {
  std::ostringstream out;
  if (value >= 1'000'000'000)
    out << std::fixed << std::setprecision(2) << value / 1e9 << " G";
  else if (value >= 1'000'000)
    out << std::fixed << std::setprecision(2) << value / 1e6 << " M";
  else
    out << value;
  return out.str();
}

std::string format_bytes(double bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1);
  if (bytes >= 1 << 30)
    out << bytes / (1 << 30) << " GiB";
  else
    out << bytes / (1 << 20) << " MiB";
  return out.str();
}

std::uint64_t physical_memory_bytes() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
}

std::uint64_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

// The config's join section, resolved: a second table whose columns are attached to the input
// rows by id, after load and before normalize.
struct JoinSection {
  std::filesystem::path path;
  std::string dataset;
  std::string ids;
  std::optional<std::size_t> key_column;  // empty: the input's ids are the key
  join::UnmatchedRows unmatched = join::UnmatchedRows::error;
  join::Backend backend = join::Backend::cpu;
};

// What a run reads from its config, resolved (autos filled in) and checked before any work.
struct RunSettings {
  load::LoadOptions load;
  std::optional<JoinSection> join;
  std::optional<FilterSection> filter;
  load::Normalization normalization = load::Normalization::minmax;
  Precision precision = Precision::float64;
  CoreParams core;
  int threads = 0;
  bool epsilon_auto = false, min_points_auto = false;  // resolved from the data after load
  bool merge_epsilon_auto = false, merge_min_points_auto = false;
  bool merge = true;
  double merge_epsilon = 0;
  std::uint32_t merge_min_points = 0;
  bool consolidate = true;
  consolidate::ConsolidateParams consolidate_params;
  SignificanceSettings significance;
  std::optional<std::filesystem::path> ground_truth;
  bool text_outputs = true;
  int gzip_level = 0;
  bool html_report = false;
  double progress_seconds = 10;
  std::optional<cluster::CheckpointOptions> checkpoint;
  std::vector<std::string> memory_notes;  // what the memory plan adapted, said before the run starts
};

// What a checkpoint must agree on with the run that resumes it: the program, and every setting
// that changes the core's result (the input data are compared by a hash of the matrix).
cluster::CheckpointIdentity checkpoint_identity(const Config& config, TableMode mode) {
  cluster::CheckpointIdentity identity = {{"subscale version", SUBSCALE_VERSION},
                                          {"mode", to_string(mode)},
                                          {"epsilon", config.string("epsilon")},
                                          {"min_points", config.string("min_points")}};
  if (mode != TableMode::direct)
    for (const char* key : {"signature.bits", "signature.keys", "signature.seed"})
      identity.emplace_back(key, config.string(key));
  return identity;
}

std::optional<cluster::CheckpointOptions> read_checkpoint_section(const Config& config, TableMode mode,
                                                                  const std::optional<std::filesystem::path>& resume) {
  if (!resume && !config.has("checkpoint.dir")) return std::nullopt;
  cluster::CheckpointOptions options;
  options.folder = resume ? *resume : config.file_path("checkpoint.dir");
  options.resume = resume.has_value();
  options.units =
      config.is_auto("checkpoint.units") ? 0 : static_cast<std::uint32_t>(config.integer("checkpoint.units"));
  options.identity = checkpoint_identity(config, mode);
  return options;
}

// join.key: "ids" or a 0-based column number (checked against the input's width after load).
std::optional<std::size_t> parse_join_key(const std::string& text) {
  if (text == "ids") return std::nullopt;
  const bool digits = !text.empty() && text.size() <= 9 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits)
    throw UsageError("join.key = '" + text +
                     "': use ids (the input's ids), or the 0-based number of the input column holding the ids");
  return static_cast<std::size_t>(std::stoul(text));
}

std::optional<JoinSection> read_join_section(const Config& config) {
  if (!config.has("join.path")) return std::nullopt;
  JoinSection j;
  j.path = config.file_path("join.path");
  j.dataset = config.string("join.dataset");
  j.ids = config.string("join.ids");
  if (j.dataset.empty()) throw UsageError("join.dataset is empty: give the HDF5 path of the second table's columns");
  if (j.ids.empty()) throw UsageError("join.ids is empty: give the HDF5 path of the second table's ids");
  j.key_column = parse_join_key(config.string("join.key"));
  j.unmatched = join::parse_unmatched_rows(config.string("join.unmatched"));
  const std::string backend = config.string("join.backend");
  if (backend == "auto")
    j.backend = gpu::cuda_backend_built() && gpu::query_device().available ? join::Backend::cuda : join::Backend::cpu;
  else
    j.backend = join::parse_backend(backend);
  return j;
}

// processes_on_node: the processes of a cluster run that share this node's cores.
RunSettings read_settings(Config& config, const std::optional<std::filesystem::path>& resume = std::nullopt,
                          int processes_on_node = 1) {
  RunSettings s;
  s.load.path = config.file_path("input.path").string();
  s.load.format = io::parse_input_format(config.string("input.format"));
  s.load.dataset_path = config.string("input.dataset");
  if (config.has("input.label_column")) s.load.label_column = config.string("input.label_column");
  s.join = read_join_section(config);
  s.filter = read_filter_section(config);
  s.normalization = load::parse_normalization(config.string("normalize"));
  s.precision = parse_precision(config.string("input.precision"), "input.precision");
  s.epsilon_auto = config.is_auto("epsilon");
  s.min_points_auto = config.is_auto("min_points");
  s.core.epsilon = s.epsilon_auto ? 0.0 : config.number("epsilon");
  s.core.min_points = s.min_points_auto ? 0 : static_cast<std::uint32_t>(config.integer("min_points"));
  // auto: direct mode, which the measurements favour everywhere (bench/RESULTS.md).
  const std::string mode = config.string("mode");
  s.core.units.mode = mode == "auto" ? TableMode::direct : parse_table_mode(mode);
  s.core.units.signature_bits = static_cast<std::uint32_t>(config.integer("signature.bits"));
  s.core.units.keys = parse_key_scheme(config.string("signature.keys"));
  if (config.is_auto("signature.seed")) {
    // Drawn once and written back, so config.yaml repeats the run exactly.
    config.set("signature.seed", std::to_string(std::random_device{}() >> 1));
  }
  s.core.units.seed = static_cast<std::uint64_t>(config.integer("signature.seed"));
  s.core.units.scheme = parse_partition_scheme(config.string("partitions.scheme"));
  s.core.units.partitions =
      config.is_auto("partitions.count") ? 0 : static_cast<std::size_t>(config.integer("partitions.count"));
  s.core.units.host_bytes =
      config.is_auto("memory.host_bytes") ? physical_memory_bytes() / 2 : config.bytes("memory.host_bytes");
  // A table planned for more memory than the machine has left would get the run killed part-way:
  // plan it for what is there, which takes more partitions.
  if (s.core.units.mode != TableMode::direct) {
    const std::uint64_t available = io::available_host_memory();
    if (s.core.units.host_bytes > available) {
      s.memory_notes.push_back("memory      memory.host_bytes = " + io::describe_bytes(s.core.units.host_bytes) +
                               " is more than the " + io::describe_bytes(available) +
                               " of memory available now; the table is planned for that (more partitions)");
      s.core.units.host_bytes = available;
    }
  }
  s.core.units.device_bytes = config.is_auto("memory.device_bytes") ? 0 : config.bytes("memory.device_bytes");
  const std::string backend = config.string("backend");
  s.core.backend = backend == "cpu" ? Backend::cpu : backend == "cuda" ? Backend::cuda : Backend::automatic;
  // auto: the node's cores, shared out among the processes of a cluster run on it.
  s.threads = config.is_auto("threads")
                  ? std::max(1, tbb::this_task_arena::max_concurrency() / std::max(1, processes_on_node))
                  : static_cast<int>(config.integer("threads"));
  s.merge = config.boolean("merge.enabled");
  s.merge_epsilon_auto = config.is_auto("merge.epsilon");
  s.merge_min_points_auto = config.is_auto("merge.min_points");
  s.merge_epsilon = s.merge_epsilon_auto ? s.core.epsilon : config.number("merge.epsilon");
  s.merge_min_points =
      s.merge_min_points_auto ? s.core.min_points : static_cast<std::uint32_t>(config.integer("merge.min_points"));
  s.consolidate = config.boolean("consolidate.enabled");
  s.consolidate_params.overlap = config.number("consolidate.overlap");
  s.consolidate_params.span_fraction = config.number("consolidate.span_fraction");
  s.consolidate_params.span_tolerance = config.number("consolidate.span_tolerance");
  s.consolidate_params.extend_dimensions = config.boolean("consolidate.extend");
  s.consolidate_params.coverage = config.number("consolidate.coverage");
  s.consolidate_params.top_k = static_cast<std::size_t>(config.integer("consolidate.top_k"));
  s.significance.enabled = config.boolean("significance.enabled");
  s.consolidate_params.level_gap_floor = s.significance.enabled;
  s.significance.test.alpha = config.number("significance.alpha");
  s.significance.test.correction =
      config.boolean("significance.fdr") ? significance::Correction::fdr : significance::Correction::bonferroni;
  if (config.has("ground_truth.path")) s.ground_truth = config.file_path("ground_truth.path");
  if (s.join && s.join->key_column && s.ground_truth)
    throw UsageError("join.key = " + std::to_string(*s.join->key_column) + " takes that column out of the matrix, " +
                     "which renumbers the dimensions ground_truth.path refers to; store the ids as HDF5 `ids` " +
                     "beside the data (join.key: ids), or run without ground_truth.path");
  s.text_outputs = config.boolean("output.text");
  s.gzip_level = static_cast<int>(config.integer("output.gzip"));
  s.html_report = config.boolean("report");
  s.progress_seconds = config.number("progress.interval");
  s.checkpoint = read_checkpoint_section(config, s.core.units.mode, resume);
  return s;
}

// A budget is refused before any work when it cannot hold even the units of the fullest window
// (plus the partition's fixed bookkeeping), or when it would need more partitions than allowed;
// the message gives the smallest budget that would do.
void check_memory_budget(const RunSettings& settings, std::uint64_t total_units, std::uint64_t largest_window_units) {
  if (settings.core.units.mode == TableMode::direct) return;  // no signature table to hold
  const std::uint64_t budget = settings.core.units.host_bytes;
  constexpr std::uint64_t bookkeeping = std::uint64_t{64} << 20;
  const std::uint64_t one_window = largest_window_units * kHostBytesPerUnit + bookkeeping;
  if (budget < one_window)
    throw ResourceError("memory.host_bytes = " + std::to_string(budget) +
                        " is too small for even one window: the fullest window has " +
                        format_count(largest_window_units) + " dense units; raise memory.host_bytes to at least " +
                        std::to_string(one_window) + " (" + format_bytes(static_cast<double>(one_window)) + ")");
  if (settings.core.units.partitions != 0) return;
  const std::uint64_t needed = total_units * kHostBytesPerUnit;
  constexpr std::uint64_t max_partitions = 65536;
  if (needed / budget >= max_partitions)
    throw ResourceError("memory.host_bytes = " + std::to_string(budget) +
                        " is too small: " + format_count(total_units) + " dense units need " +
                        format_bytes(static_cast<double>(needed)) + " of table, more than " +
                        std::to_string(max_partitions) + " partitions; raise memory.host_bytes to at least " +
                        std::to_string(needed / max_partitions + 1));
}

// The note for an explicit partitions.count whose tables would not fit the budget (the CPU path
// takes more partitions; dense_units.hpp), or "" when it fits.
std::string partition_memory_note(const RunSettings& settings, std::uint64_t total_units) {
  const DenseUnitsParams& units = settings.core.units;
  if (units.mode == TableMode::direct || units.partitions == 0) return {};
  const std::size_t needed = fit_partitions_to_host_bytes(units, total_units).partitions;
  if (needed == units.partitions) return {};
  return "memory      partitions.count = " + std::to_string(units.partitions) + " would put " +
         io::describe_bytes(total_units * kHostBytesPerUnit / units.partitions) +
         " of table in each partition, more than memory.host_bytes = " + io::describe_bytes(units.host_bytes) +
         "; taking " + std::to_string(needed) + " partitions";
}

// Direct mode's warning when the subspace tables that certainly exist (found by the plan's sample
// of the walk) need more than memory.host_bytes or the memory available now, or "" when they fit.
// A warning, not a refusal: the count is a lower bound, and the run may still fit in swap.
std::string direct_memory_note(const RunSettings& settings, const DirectMemoryPlan& plan) {
  const std::uint64_t available = io::available_host_memory();
  const std::uint64_t budget = settings.core.units.host_bytes;
  const std::uint64_t limit = std::min(budget, available);
  const std::uint64_t needed = plan.table_bytes_at_least();
  if (needed <= limit) return {};
  const std::string against = budget <= available ? "memory.host_bytes = " + io::describe_bytes(budget)
                                                  : "the " + io::describe_bytes(available) + " of memory available now";
  return "memory      warning: direct mode's subspace tables need at least " + io::describe_bytes(needed) + " (" +
         format_count(plan.subspaces_at_least) + " subspaces " +
         (plan.exact ? "in all" : "found in a sample of the walk") + ", " + std::to_string(plan.bytes_per_subspace) +
         " bytes each, held twice while the threads' tables merge), more than " + against +
         "; the run may be killed part-way: use a machine with more memory, or find fewer subspaces (a larger " +
         "min_points or a smaller epsilon)";
}

std::filesystem::path default_run_folder(const std::filesystem::path& config_file) {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::filesystem::path base = std::filesystem::path("runs") / (config_file.stem().string() + "-" + stamp);
  std::filesystem::path folder = base;
  for (int i = 2; std::filesystem::exists(folder); ++i) folder = base.string() + "-" + std::to_string(i);
  return folder;
}

void create_folder(const std::filesystem::path& folder) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw Error(ExitCode::other, folder.string() + ": cannot create the run folder: " + error.message());
}

struct LoadedInput {
  Dataset data;     // ids, labels and names; its values moved into `held` after normalisation
  HeldValues held;  // what the stages read, in the held precision
  std::optional<io::GroundTruth> truth;
};

// join.key = a column: that column's values become the rows' ids and the column leaves the matrix
// (an id is a label, not a feature to cluster on).
void take_key_column(Dataset& data, std::size_t column) {
  const std::size_t d = data.dimensions();
  if (column >= d)
    throw UsageError("join.key = " + std::to_string(column) + ", but " + data.source + " has " + std::to_string(d) +
                     " columns (0-based: 0.." + std::to_string(d - 1) + ")");
  constexpr double max_exact = 9007199254740992.0;  // 2^53: larger doubles skip integers
  std::vector<std::uint64_t> ids(data.points());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const double v = data.values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(column));
    if (!(v >= 0 && v <= max_exact && v == std::floor(v))) {
      std::ostringstream value;
      value << std::setprecision(17) << v;
      throw InputError(data.source + ", data row " + std::to_string(i + 1) + ", column " + std::to_string(column + 1) +
                       " (join.key = " + std::to_string(column) + "): id " + value.str() +
                       " is not a whole number in 0..2^53; point join.key at the column that holds the ids");
    }
    ids[i] = static_cast<std::uint64_t>(v);
  }
  const auto n = data.values.rows();
  const auto k = static_cast<Eigen::Index>(column);
  const auto after = static_cast<Eigen::Index>(d - 1 - column);
  Matrix rest(n, static_cast<Eigen::Index>(d - 1));
  rest.leftCols(k) = data.values.leftCols(k);
  rest.rightCols(after) = data.values.rightCols(after);
  data.values = std::move(rest);
  if (data.column_names.size() == d) data.column_names.erase(data.column_names.begin() + k);
  data.ids = std::move(ids);
}

// The join section on the loaded input; returns the log line. Throws before any output exists.
std::string apply_join(const RunSettings& settings, Dataset& data) {
  const JoinSection& section = *settings.join;
  if (data.source.empty()) data.source = settings.load.path;
  const join::ColumnTable table = read_join_table({.path = section.path,
                                                   .key_dataset = section.ids,
                                                   .data_dataset = section.dataset,
                                                   .path_setting = "join.path",
                                                   .key_setting = "join.ids",
                                                   .data_setting = "join.dataset",
                                                   .for_clustering = true,
                                                   .column_prefix = section.path.stem().string() + "."});
  if (section.key_column) {
    take_key_column(data, *section.key_column);
  } else if (data.ids.size() != data.points()) {
    throw InputError(data.source + " has no ids (HDF5 input keeps them in `ids` beside input.dataset; CSV and " +
                     "ARFF inputs have none); set join.key to the 0-based number of the column holding the ids");
  }
  const std::size_t before = data.points();
  join::JoinOptions options;
  options.backend = section.backend;
  join::attach_columns(data, table.keys, table.names, table.columns, section.unmatched, options);
  const std::size_t kept = data.points();
  if (kept == 0)
    throw InputError("join: none of the " + std::to_string(before) + " rows of " + data.source + " has its id in " +
                     section.path.string() + ":" + section.ids + "; check join.key and join.ids");
  if (kept < before && settings.ground_truth)
    throw UsageError("join.unmatched = drop dropped " + std::to_string(before - kept) + " of " +
                     std::to_string(before) + " rows, but ground_truth.path is set: its point ids are rows of " +
                     "the input as loaded, which no longer line up; complete " + section.path.string() +
                     " so that every row matches, or run without ground_truth.path");
  return "join        attached " + std::to_string(table.columns.size()) + " columns from " + section.path.string() +
         ", " + std::to_string(kept) + " rows matched, " + std::to_string(before - kept) + " dropped";
}

// Reads and checks everything the run needs before anything is written.
LoadedInput load_input(const RunSettings& settings, RunLog& log, RunReport& report) {
  LoadedInput input;
  auto start = Clock::now();
  input.data = load::load_dataset(settings.load);
  report.stage_seconds.emplace_back("load", seconds_since(start));
  log.line("load        " + std::to_string(input.data.points()) + " points x " +
           std::to_string(input.data.dimensions()) + " dimensions from " + settings.load.path);
  if (settings.join) {
    start = Clock::now();
    const std::string line = apply_join(settings, input.data);
    report.stage_seconds.emplace_back("join", seconds_since(start));
    log.line(line);
  }
  if (settings.filter) {
    start = Clock::now();
    const std::string line = apply_filter(*settings.filter, settings.ground_truth.has_value(), input.data);
    report.stage_seconds.emplace_back("filter", seconds_since(start));
    log.line(line);
  }
  start = Clock::now();
  load::normalize(input.data, settings.normalization);
  input.held = HeldValues::hold(std::move(input.data.values), settings.precision,
                                input.data.source.empty() ? settings.load.path : input.data.source);
  report.stage_seconds.emplace_back("normalize", seconds_since(start));
  if (settings.precision == Precision::float32)
    log.line("normalize   values held as float32 (" + io::describe_bytes(input.held.bytes()) + ")");
  if (!settings.epsilon_auto && !settings.min_points_auto) validate_core_params(settings.core, input.held.points());
  if (settings.ground_truth) {
    io::GroundTruthOptions options;
    options.dimensions = input.held.dimensions();
    options.points = input.held.points();
    input.truth = io::read_ground_truth(*settings.ground_truth, options);
  }
  return input;
}

// epsilon, min_points and merge's parameters given as auto, chosen from the held values
// (pipeline/automatic_parameters.hpp) and written back into the config, so config.yaml repeats the run.
void resolve_automatic_parameters(const HeldValues& held, RunSettings& settings, Config& config, RunLog& log) {
  AutomaticInput in{settings.epsilon_auto, settings.min_points_auto, settings.merge_epsilon_auto,
                    settings.merge_min_points_auto, settings.significance};
  in.epsilon = settings.core.epsilon;
  in.min_points = settings.core.min_points;
  in.merge_epsilon = settings.merge_epsilon;
  in.merge_min_points = settings.merge_min_points;
  const AutomaticParameters chosen = held.visit([&](const auto& values) { return choose_parameters(values, in); });
  settings.core.epsilon = chosen.epsilon;
  settings.core.min_points = chosen.min_points;
  settings.merge_epsilon = chosen.merge_epsilon;
  settings.merge_min_points = chosen.merge_min_points;
  for (const auto& [key, value] : chosen.resolved) config.set(key, value);
  for (const auto& line : chosen.log_lines) log.line(line);
}

// Runs the stages after load; with several processes (or a checkpoint) the core goes through the
// cluster executor and merge is spread over the processes. Returns false on the processes that
// only helped (everything after merge is the root's).
template <class T>
bool run_held_stages(const ColumnMatrix<T>& values, const RunSettings& settings, const LoadedInput& input, RunLog& log,
                     RunReport& report, const cluster::Communicator& comm) {
  cluster::ClusterCoreReport cluster_report;
  const bool use_cluster = comm.distributed() || settings.checkpoint.has_value();
  std::optional<ProgressBar> bar;
  std::uint64_t planned_units = 0;
  // Each step's listener call closes the previous step: its time, its one-line summary. The
  // memory budget is checked as soon as the plan knows the count, before the expensive stages.
  const auto& sig = settings.significance;
  std::optional<significance::Marginals> marginals;
  std::optional<ColumnMatrix<T>> core_copy;
  if (sig.enabled) {
    report.significance.emplace();
    const auto sig_start = Clock::now();
    marginals = significance::Marginals::of(values);
    report.significance->seconds += seconds_since(sig_start);
    report.significance->seconds_prepare += seconds_since(sig_start);
    core_copy = core_values(values, settings.core.epsilon, sig, *report.significance);
  }
  auto start = Clock::now();
  report.core = run_core(
      core_copy ? *core_copy : values, settings.core,
      [&](const std::string& step, const CoreResult& so_far) {
        const double elapsed = seconds_since(start);
        if (step == "plan") {
          report.stage_seconds.emplace_back("density1d", elapsed);
          std::uint64_t clusters = 0;
          for (const auto& d : so_far.density.dimensions) clusters += d.clusters;
          log.line("density1d   " + std::to_string(clusters) + " 1-D clusters over " + std::to_string(values.cols()) +
                   " dimensions" + (so_far.density1d_on_gpu ? " (on the GPU)" : ""));
        } else if (step == "dense_units") {
          report.stage_seconds.emplace_back("plan", elapsed);
          planned_units = so_far.total_units;
          check_memory_budget(settings, planned_units, so_far.largest_window_units);
          log.line("plan        " + format_count(planned_units) + " dense units");
          if (so_far.direct_memory)
            if (const std::string note = direct_memory_note(settings, *so_far.direct_memory); !note.empty())
              log.line(note);
          if (const std::string note = partition_memory_note(settings, planned_units); !note.empty()) log.line(note);
          const ProgressDisplay display = log.quiet()            ? ProgressDisplay::none
                                          : stderr_is_terminal() ? ProgressDisplay::bar
                                                                 : ProgressDisplay::lines;
          bar.emplace("dense_units", planned_units, display, settings.progress_seconds,
                      [&log](const std::string& line) { log.line(line); });
        } else if (step == "subspaces") {
          bar.reset();
          report.stage_seconds.emplace_back("dense_units", elapsed);
          const auto& du = so_far.dense_units;
          if (settings.core.units.mode == TableMode::direct)
            log.line("dense_units " + format_count(du.distinct_multi_units) + " units in >= 2 dimensions (direct), " +
                     format_count(du.walk_nodes) + " nodes walked for " + format_count(planned_units) + " units, " +
                     format_count(static_cast<std::uint64_t>(static_cast<double>(du.distinct_multi_units) /
                                                             std::max(elapsed, 1e-9))) +
                     " multi-dimension units/s on " + to_string(so_far.backend_used));
          else
            log.line(
                "dense_units " + format_count(du.distinct_multi_units) + " units in >= 2 dimensions, " +
                std::to_string(du.partitions.size()) + " partition(s) (" + to_string(du.scheme) + "), " +
                format_count(static_cast<std::uint64_t>(static_cast<double>(planned_units) / std::max(elapsed, 1e-9))) +
                " units/s on " + to_string(so_far.backend_used));
          if (du.partition_splits > 0)
            log.line("dense_units " + std::to_string(du.partition_splits) +
                     " partition(s) overflowed the device table and were split and redone");
          for (const auto& note : du.notes) log.line("dense_units " + note);
        }
        start = Clock::now();
      },
      [&](std::uint64_t done) {
        if (bar) bar->advance(done);
      },
      use_cluster ? cluster::cluster_core_executor(comm, settings.checkpoint, cluster_report) : CoreExecutor{});
  report.stage_seconds.emplace_back("subspaces", seconds_since(start));
  for (const auto& line : cluster_report.log_lines) log.line(line);
  // Units stream into the subspace accumulator while dense_units runs: the core's own timings
  // split that time correctly, the listener's intervals cannot.
  for (auto& [stage, seconds] : report.stage_seconds) {
    if (stage == "dense_units") seconds = report.core.timings.dense_units_seconds;
    if (stage == "subspaces") seconds = report.core.timings.subspaces_seconds;
  }
  report.backend = to_string(report.core.backend_used);
  log.line("subspaces   " + std::to_string(report.core.subspaces.size()) + " subspaces");
  core_copy.reset();
  std::optional<std::vector<SubspaceCluster>> to_merge;
  if (sig.enabled && settings.merge && !comm.distributed())
    to_merge = subspaces_to_merge(*marginals, report.core.subspaces,
                                  std::max<std::uint32_t>(settings.merge_min_points, 2), sig, *report.significance);

  if (settings.merge) {
    start = Clock::now();
    const merge::MergeParams params{settings.merge_epsilon, settings.merge_min_points};
    if (comm.distributed())
      report.merge = cluster::merge_across_processes(comm, values, cluster_report.owned, params);
    else
      report.merge = merge::merge_subspaces(values, to_merge ? *to_merge : report.core.subspaces, params);
    report.stage_seconds.emplace_back("merge", seconds_since(start));
    if (!comm.is_root()) return false;
    log.line("merge       " + std::to_string(report.merge->clusters.size()) + " clusters" +
             (comm.distributed() ? " (subspaces spread over " + std::to_string(comm.size()) + " processes)" : ""));
    if (sig.enabled) keep_significant_merge(values, *marginals, *report.merge, sig, *report.significance);
  } else {
    if (!comm.is_root()) return false;
    log.line("merge       skipped (merge.enabled: false)");
  }
  if (report.merge && settings.consolidate) {
    start = Clock::now();
    report.consolidated =
        consolidate::consolidate_clusters(values, report.merge->clusters, settings.consolidate_params);
    report.stage_seconds.emplace_back("consolidate", seconds_since(start));
    if (sig.enabled) keep_significant_consolidated(values, *marginals, *report.consolidated, sig, *report.significance);
    const auto& c = report.consolidated->stats;
    log.line("consolidate " + std::to_string(c.clusters) + " clusters from " + std::to_string(c.input_clusters) + " (" +
             std::to_string(c.joins) + " joins, " + std::to_string(c.rejected_joins) + " refused by the span test, " +
             std::to_string(c.extended_dimensions) + " dimensions added, " + std::to_string(c.redundant) +
             " redundant" + (c.over_top_k ? ", " + std::to_string(c.over_top_k) + " over top_k" : std::string()) + ")");
  }
  if (report.significance) {
    report.stage_seconds.emplace_back("significance", report.significance->seconds);
    for (const auto& line : significance_log_lines(*report.significance, sig)) log.line(line);
  }
  if (input.truth) {
    start = Clock::now();
    const auto& found = report.consolidated ? report.consolidated->clusters
                        : report.merge      ? report.merge->clusters
                                            : report.core.subspaces;
    report.quality = evaluate::evaluate(found, input.truth->clusters, input.held.points(), input.held.dimensions());
    if (report.consolidated)
      report.raw_quality = evaluate::evaluate(report.merge->clusters, input.truth->clusters, input.held.points(),
                                              input.held.dimensions());
    report.stage_seconds.emplace_back("evaluate", seconds_since(start));
    std::ostringstream line;
    line << std::setprecision(3) << "evaluate    F1 " << report.quality->f1 << ", E4SC " << report.quality->e4sc
         << ", RNIA " << report.quality->rnia << ", CE " << report.quality->ce << ", coverage "
         << report.quality->coverage;
    if (report.raw_quality)
      line << " (merge's raw clusters: F1 " << report.raw_quality->f1 << ", E4SC " << report.raw_quality->e4sc << ")";
    log.line(line.str());
  }
  return true;
}

bool run_stages(const RunSettings& settings, const LoadedInput& input, RunLog& log, RunReport& report,
                const cluster::Communicator& comm) {
  return input.held.visit(
      [&](const auto& values) { return run_held_stages(values, settings, input, log, report, comm); });
}

void write_run_folder(const std::filesystem::path& folder, const Config& config, const RunSettings& settings,
                      RunReport& report, RunLog& log) {
  const auto start = Clock::now();
  io::write_text_file(folder / "config.yaml", config.to_yaml());
  if (settings.text_outputs) {
    write_clusters_text(folder / "subspaces.txt", report.core.subspaces);
    if (report.consolidated) {
      write_clusters_text(folder / "clusters.txt", report.consolidated->clusters);
      write_clusters_text(folder / "clusters_raw.txt", report.merge->clusters);
    } else if (report.merge) {
      write_clusters_text(folder / "clusters.txt", report.merge->clusters);
    }
  }
  report.stage_seconds.emplace_back("write", 0.0);
  write_results_hdf5(folder / "results.h5", report, settings.gzip_level);
  report.stage_seconds.back().second = seconds_since(start);
  report.peak_memory_bytes = peak_resident_bytes();
  io::write_text_file(folder / "summary.json", summary_json(report));
  if (settings.html_report) write_report_html(folder);
  log.line("wrote       " + folder.string());
}

// What a sweep's table needs of one run; the run's lists are released once its folder is written,
// so a sweep holds one run's results at a time.
struct SweepRow {
  std::uint64_t dense_units = 0, subspaces = 0;
  std::optional<std::size_t> clusters, raw_clusters;  // raw_clusters: merge's, when consolidate ran
  std::optional<evaluate::QualityMeasures> quality, raw_quality;
  double seconds = 0;
};

SweepRow sweep_row(const RunReport& report) {
  SweepRow row;
  row.dense_units = report.core.total_units;
  row.subspaces = report.core.subspaces.size();
  if (report.consolidated) {
    row.clusters = report.consolidated->clusters.size();
    row.raw_clusters = report.merge->clusters.size();
  } else if (report.merge) {
    row.clusters = report.merge->clusters.size();
  }
  row.quality = report.quality;
  row.raw_quality = report.raw_quality;
  for (const auto& [stage, seconds] : report.stage_seconds) row.seconds += seconds;
  return row;
}

void release_lists(RunReport& report) {
  release_in_parallel(report.core.subspaces);
  if (report.merge) release_in_parallel(report.merge->clusters);
  if (report.consolidated) release_in_parallel(report.consolidated->clusters);
}

struct SingleRun {
  SweepRow row;
  std::filesystem::path folder;
};

// Every process loads the input (errors agreed, so all leave together); only the root creates the
// run folder and writes it.
SingleRun run_one(Config config, const std::filesystem::path& folder, const CommandOptions& options,
                  const cluster::Communicator& comm) {
  RunLog log(options.quiet || !comm.is_root());
  RunSettings settings;
  std::optional<LoadedInput> input;
  RunReport report;
  std::optional<tbb::task_arena> arena;
  auto agreed = [&](auto&& step) {
    std::exception_ptr failure;
    try {
      step();
    } catch (...) {
      failure = std::current_exception();
    }
    comm.agree(failure);
  };
  agreed([&] {
    settings = read_settings(config, options.resume, comm.local_size());
    arena.emplace(settings.threads);
  });
  // signature.seed: auto is drawn by each process; the root's draw is the job's, or the processes'
  // signatures (and so their partitions) would not agree.
  if (comm.distributed()) {
    std::uint64_t seed = settings.core.units.seed;
    const cluster::Bytes bytes = comm.broadcast(
        cluster::Bytes(reinterpret_cast<const std::uint8_t*>(&seed), reinterpret_cast<const std::uint8_t*>(&seed + 1)));
    std::memcpy(&seed, bytes.data(), sizeof seed);
    settings.core.units.seed = seed;
    config.set("signature.seed", std::to_string(seed));
    if (settings.checkpoint) settings.checkpoint->identity = checkpoint_identity(config, settings.core.units.mode);
  }
  report.config_source = config.source_name();
  report.input_path = settings.load.path;
  report.seed = settings.core.units.seed;
  report.threads = settings.threads;
  for (const auto& note : settings.memory_notes) log.line(note);
  if (comm.distributed()) {
    const std::vector<cluster::Bytes> placements =
        comm.gather(cluster::Bytes(options.placement.begin(), options.placement.end()));
    for (const auto& placement : placements) log.line("cluster     " + std::string(placement.begin(), placement.end()));
  }
  arena->execute([&] {
    agreed([&] {
      input = load_input(settings, log, report);
      resolve_automatic_parameters(input->held, settings, config, log);
      validate_core_params(settings.core, input->held.points());
      report.points = input->held.points();
      report.dimensions = input->held.dimensions();
      if (comm.is_root()) create_folder(folder);  // only now: refused input leaves nothing behind
    });
    try {
      if (run_stages(settings, *input, log, report, comm)) write_run_folder(folder, config, settings, report, log);
    } catch (const std::exception& error) {
      if (comm.is_root()) {
        log.line(std::string("error: ") + error.what());
        try {
          io::write_text_file(folder / "log.txt", log.text());
        } catch (const std::exception&) {
          // A full disk fails this too; the first error is the one to report.
        }
      }
      throw;
    }
  });
  if (comm.is_root()) io::write_text_file(folder / "log.txt", log.text());
  SingleRun run{sweep_row(report), folder};
  arena->execute([&] { release_lists(report); });
  return run;
}

std::string sweep_folder_name(const Config& config, const std::vector<std::string>& keys) {
  std::string name;
  for (const auto& key : keys) {
    std::string value = config.string(key);
    name += (name.empty() ? "" : "_") + key + "=" + value;
  }
  return name;
}

void write_sweep_tables(const std::filesystem::path& folder, const std::vector<std::string>& keys,
                        const std::vector<std::pair<Config, std::optional<SingleRun>>>& runs,
                        const std::vector<std::string>& failures) {
  std::ostringstream csv, md;
  // The raw_* columns score merge's clusters when consolidate ran (empty otherwise).
  const std::vector<std::string> columns = {
      "dense_units",  "subspaces", "clusters", "f1",       "e4sc",   "rnia",         "ce",      "coverage",
      "raw_clusters", "raw_f1",    "raw_e4sc", "raw_rnia", "raw_ce", "raw_coverage", "seconds", "status"};
  for (const auto& key : keys) csv << key << ",";
  md << "|";
  for (const auto& key : keys) md << " " << key << " |";
  for (std::size_t c = 0; c < columns.size(); ++c) csv << columns[c] << (c + 1 < columns.size() ? "," : "\n");
  for (const auto& column : columns) md << " " << column << " |";
  md << "\n|";
  for (std::size_t c = 0; c < keys.size() + columns.size(); ++c) md << "---|";
  md << "\n";
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto& [config, run] = runs[r];
    std::vector<std::string> cells;
    for (const auto& key : keys) cells.push_back(config.string(key));
    auto number = [](double v) {
      std::ostringstream out;
      out << std::setprecision(4) << v;
      return out.str();
    };
    if (run) {
      const SweepRow& row = run->row;
      cells.push_back(std::to_string(row.dense_units));
      cells.push_back(std::to_string(row.subspaces));
      const auto measures = [&](const std::optional<evaluate::QualityMeasures>& q) {
        if (!q) return cells.insert(cells.end(), 5, ""), void();
        for (double v : {q->f1, q->e4sc, q->rnia, q->ce, q->coverage}) cells.push_back(number(v));
      };
      const auto count = [](const std::optional<std::size_t>& n) { return n ? std::to_string(*n) : std::string(); };
      cells.push_back(count(row.clusters));
      measures(row.quality);
      cells.push_back(count(row.raw_clusters));
      measures(row.raw_quality);
      cells.push_back(number(row.seconds));
      cells.push_back("ok");
    } else {
      cells.insert(cells.end(), columns.size() - 1, "");
      std::string why = failures[r];
      for (auto& ch : why)
        if (ch == ',' || ch == '|' || ch == '\n') ch = ' ';
      cells.push_back("failed: " + why);
    }
    md << "|";
    for (std::size_t c = 0; c < cells.size(); ++c) {
      csv << cells[c] << (c + 1 < cells.size() ? "," : "\n");
      md << " " << cells[c] << " |";
    }
    md << "\n";
  }
  io::write_text_file(folder / "sweep.csv", csv.str());
  io::write_text_file(folder / "sweep.md", md.str());
}

}  // namespace

std::filesystem::path run_command(const CommandOptions& options) {
  const cluster::Communicator comm = cluster::Communicator::world();
  std::optional<Config> loaded;
  std::filesystem::path folder;
  std::exception_ptr failure;
  try {
    loaded = Config::load_file(options.config_file, options.overrides, core_config_schema());
    // The root names the folder (a default name carries the root's clock).
    folder = options.out ? *options.out : default_run_folder(options.config_file);
    if (!loaded->sweep_keys().empty() && (options.resume || loaded->has("checkpoint.dir")))
      throw UsageError("checkpoints are for single runs; the config has sweep lists (" + loaded->sweep_keys()[0] +
                       "); run each point as its own job (scripts/slurm/sweep-array.sbatch) to checkpoint it");
  } catch (...) {
    failure = std::current_exception();
  }
  comm.agree(failure);
  const std::string folder_name = folder.string();
  const cluster::Bytes name = comm.broadcast(cluster::Bytes(folder_name.begin(), folder_name.end()));
  folder = std::string(name.begin(), name.end());
  const Config& config = *loaded;
  const std::vector<std::string> sweep_keys = config.sweep_keys();
  if (sweep_keys.empty()) return run_one(config, folder, options, comm).folder;

  const std::vector<Config> combinations = config.expand_sweeps();
  const bool quiet = options.quiet || !comm.is_root();
  if (!quiet)
    std::fprintf(stderr, "sweep: %zu runs over %zu key(s) into %s\n", combinations.size(), sweep_keys.size(),
                 folder.string().c_str());
  std::vector<std::pair<Config, std::optional<SingleRun>>> runs;
  std::vector<std::string> failures;
  std::optional<Error> first_failure;
  for (std::size_t i = 0; i < combinations.size(); ++i) {
    const Config& combination = combinations[i];
    const std::string name = sweep_folder_name(combination, sweep_keys);
    if (!quiet) std::fprintf(stderr, "[%zu/%zu] %s\n", i + 1, combinations.size(), name.c_str());
    try {
      runs.emplace_back(combination, run_one(combination, folder / name, options, comm));
      failures.emplace_back();
    } catch (const Error& error) {
      // One failed combination must not lose the others: record it and go on.
      if (!quiet) std::fprintf(stderr, "  failed: %s\n", error.what());
      runs.emplace_back(combination, std::nullopt);
      failures.emplace_back(error.what());
      if (!first_failure) first_failure = error;
    }
    if (!comm.is_root()) continue;
    create_folder(folder);
    write_sweep_tables(folder, sweep_keys, runs, failures);
  }
  if (first_failure) throw *first_failure;
  return folder;
}

namespace {

void print_units_per_dimension(const UnitPlan& plan) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_count;
  for (std::uint32_t j = 0; j < plan.dimensions(); ++j) by_count.emplace_back(plan.units_in_dimension(j), j);
  std::sort(by_count.rbegin(), by_count.rend());
  std::printf("dense units per dimension (largest %zu of %u):\n", std::min<std::size_t>(10, by_count.size()),
              plan.dimensions());
  for (std::size_t i = 0; i < std::min<std::size_t>(10, by_count.size()); ++i)
    std::printf("  dimension %-6u %20llu\n", by_count[i].second, static_cast<unsigned long long>(by_count[i].first));
  std::printf("total dense units: %llu (%s)\n", static_cast<unsigned long long>(plan.total_units()),
              format_count(plan.total_units()).c_str());
  std::printf("largest window: %u points\n", plan.largest_window());
}

// Direct mode has no table: the plan gives the units as an upper bound of the work and the walk's
// nodes and multi-dimension units as estimated from a sample of windows.
template <class T>
void print_direct_plan(const ColumnMatrix<T>& values, const UnitPlan& plan, const Density1dResult& density,
                       const RunSettings& settings) {
  const DirectSpace space(values, plan, density, settings.core.epsilon);
  const auto start = Clock::now();
  const DirectWalkEstimate estimate = estimate_direct_walk(space, plan);
  const double seconds = seconds_since(start);
  std::printf("mode: direct (the units above bound the work; the walk skips subtrees of one dimension)\n");
  std::printf("walk %s: %s nodes, %s units in >= 2 dimensions (%s units sampled in %.2f s)\n",
              estimate.exact ? "counted" : "estimated",
              format_count(static_cast<std::uint64_t>(estimate.nodes)).c_str(),
              format_count(static_cast<std::uint64_t>(estimate.multi_units)).c_str(),
              format_count(estimate.sampled_units).c_str(), seconds);
  const DirectMemoryPlan memory = plan_direct_memory(space, estimate);
  std::printf(
      "host memory: %s of values and orders, plus %llu bytes per subspace found, twice while the threads' "
      "tables merge: %s subspaces %s (%s)",
      format_bytes(static_cast<double>(memory.values_bytes)).c_str(),
      static_cast<unsigned long long>(memory.bytes_per_subspace), format_count(memory.subspaces_at_least).c_str(),
      memory.exact ? "in all" : "found in the sample", io::describe_bytes(memory.table_bytes_at_least()).c_str());
  if (!memory.exact)
    std::printf(", at most %s (%s)", format_count(memory.subspaces_at_most).c_str(),
                io::describe_bytes(memory.table_bytes_at_most()).c_str());
  std::printf("\n");
  if (const std::string note = direct_memory_note(settings, memory); !note.empty()) std::printf("%s\n", note.c_str());
}

// How a cluster run (or a checkpointed one) would cut the work, and what each process holds.
void print_cluster_plan(const UnitPlan& plan, const RunSettings& settings, int processes, std::size_t partitions) {
  const auto p = static_cast<std::uint64_t>(processes);
  const std::uint64_t total = plan.total_units();
  const std::uint64_t n = plan.points(), d = plan.dimensions();
  const bool checkpoint = settings.checkpoint.has_value();
  std::uint64_t units =
      checkpoint ? (settings.checkpoint->units > 0 ? settings.checkpoint->units : cluster::kUnitsPerProcess * p) : p;
  std::printf("cluster: %d process(es)%s\n", processes,
              checkpoint ? (", checkpoint in " + settings.checkpoint->folder.string()).c_str() : "");
  // Each process holds the matrix (and direct mode a row-major copy), density1d's orders and windows,
  // and its share's subspaces.
  const double value_bytes = settings.precision == Precision::float32 ? 4 : 8;
  const double inputs = static_cast<double>(n * d) * (2 * value_bytes + 4 + 4);
  const double per_subspace = static_cast<double>((d + 63) / 64 + (n + 63) / 64) * 8;
  if (settings.core.units.mode == TableMode::direct) {
    const cluster::WorkSplit split = cluster::direct_split(total, static_cast<std::uint32_t>(units));
    std::printf(
        "  direct walk cut into %u work unit(s) of about %s units (%llu interleaved slices each), "
        "%s unit(s) and about %s units per process\n",
        split.units, format_count(total / split.units).c_str(),
        static_cast<unsigned long long>(split.slices / split.units), std::to_string((split.units + p - 1) / p).c_str(),
        format_count(total / p).c_str());
  } else {
    const std::uint64_t count = std::max<std::uint64_t>(partitions, units);
    std::printf(
        "  %llu partition(s) of the signature space, one work unit each: %llu per process; a process "
        "enumerates every unit once per partition it takes (%s units), keeps about %s each time\n",
        static_cast<unsigned long long>(count), static_cast<unsigned long long>((count + p - 1) / p),
        format_count(total * ((count + p - 1) / p)).c_str(), format_count(total / count).c_str());
    std::printf("  host table per partition: %s\n",
                format_bytes(static_cast<double>(total / count) * kHostBytesPerUnit).c_str());
  }
  std::printf(
      "  memory per process: %s of matrix, orders and windows (on its GPU too when the core runs there), "
      "plus %.0f bytes per subspace it holds (twice while the subspaces are exchanged)\n",
      format_bytes(inputs).c_str(), per_subspace);
}

}  // namespace

void plan_command(const CommandOptions& options) {
  Config config = Config::load_file(options.config_file, options.overrides, core_config_schema());
  if (!config.sweep_keys().empty())
    throw UsageError("plan takes one configuration; the config has sweep lists (" + config.sweep_keys()[0] +
                     "); pick one value with an override, e.g. " + config.sweep_keys()[0] + "=...");
  const cluster::Communicator comm = cluster::Communicator::world();
  if (!comm.is_root()) return;  // one plan is enough; the root prints it for the whole job
  const int processes = options.processes > 0 ? options.processes : comm.size();
  RunSettings settings = read_settings(config);
  RunLog log(options.quiet);
  for (const auto& note : settings.memory_notes) std::printf("%s\n", note.c_str());
  RunReport report;
  tbb::task_arena arena(settings.threads);
  arena.execute([&] {
    LoadedInput input = load_input(settings, log, report);
    std::printf("values: %zu points x %zu dimensions held as %s: %zu bytes (%s)\n", input.held.points(),
                input.held.dimensions(), to_string(input.held.precision()), input.held.bytes(),
                format_bytes(static_cast<double>(input.held.bytes())).c_str());
    const Density1dResult density = input.held.visit([&](const auto& values) {
      return run_density1d(values, {settings.core.epsilon, settings.core.min_points});
    });
    const UnitPlan plan(density, settings.core.min_points);
    check_memory_budget(settings, plan.total_units(),
                        plan.largest_window() ? plan.binomials()(plan.largest_window() - 1, plan.min_points() - 1) : 0);
    print_units_per_dimension(plan);
    if (settings.core.units.mode == TableMode::direct) {
      input.held.visit([&](const auto& values) { print_direct_plan(values, plan, density, settings); });
      if (processes > 1 || settings.checkpoint) print_cluster_plan(plan, settings, processes, 1);
      return;
    }
    const SignatureKeys keys = make_signature_keys(plan.points(), settings.core.units.keys, settings.core.units.seed);
    if (const std::string note = partition_memory_note(settings, plan.total_units()); !note.empty())
      std::printf("%s\n", note.c_str());
    const PartitionPlan partitions =
        plan_partitions(plan, density, keys, fit_partitions_to_host_bytes(settings.core.units, plan.total_units()));
    const double per_partition = static_cast<double>(plan.total_units()) / static_cast<double>(partitions.count());
    std::printf("partitions: %zu (%s), about %s units and %s of host table each (budget %s)\n", partitions.count(),
                to_string(partitions.scheme), format_count(static_cast<std::uint64_t>(per_partition)).c_str(),
                format_bytes(per_partition * kHostBytesPerUnit).c_str(),
                format_bytes(static_cast<double>(settings.core.units.host_bytes)).c_str());
    for (std::size_t p = 0; p < partitions.count() && p < 16; ++p)
      std::printf("  partition %-4zu from signature %llu\n", p, static_cast<unsigned long long>(partitions.lower[p]));
    if (partitions.count() > 16) std::printf("  ... %zu more\n", partitions.count() - 16);
    std::printf("false-match probability (%u-bit signatures): %.3g\n", settings.core.units.signature_bits,
                false_match_probability(plan.total_units(), settings.core.units.signature_bits,
                                        settings.core.units.keys, settings.core.min_points));
    if (processes > 1 || settings.checkpoint) print_cluster_plan(plan, settings, processes, partitions.count());
  });
}

}  // namespace subscale::pipeline
