#include "pipeline/commands/plan_command.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include "common/error.hpp"
#include "common/phase_timer.hpp"
#include "distributed/communicator.hpp"
#include "distributed/distributed_core.hpp"
#include "distributed/work_split.hpp"
#include "io/host_memory.hpp"
#include "pipeline/commands/run_input.hpp"
#include "pipeline/log/log_format.hpp"
#include "pipeline/log/memory_advice.hpp"
#include "pipeline/log/post_core_plan.hpp"
#include "pipeline/log/run_log.hpp"
#include "pipeline/log/significance_reach.hpp"
#include "pipeline/log/workload_warnings.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/core_schema.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "pipeline/steps/input_loading.hpp"
#include "pipeline/steps/sampling.hpp"
#include "pipeline/steps/significance_steps.hpp"
#include "stages/core/core.hpp"
#include "stages/dense_units/direct/direct_memory_plan.hpp"
#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/dense_units/table/partition_plan.hpp"
#include "stages/significance/pooled_pairs.hpp"

namespace subscale::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

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
  const TimeEstimate time =
      estimate_time(static_cast<double>(plan.total_units()), static_cast<double>(estimate.sampled_units), seconds);
  std::printf("mode: direct (the units above bound the work; the walk skips subtrees of one dimension)\n");
  std::printf("walk %s: %s nodes, %s units in >= 2 dimensions (%s units sampled in %.2f s)\n",
              estimate.exact ? "counted" : "estimated",
              format_count(static_cast<std::uint64_t>(estimate.nodes)).c_str(),
              format_count(static_cast<std::uint64_t>(estimate.multi_units)).c_str(),
              format_count(estimate.sampled_units).c_str(), seconds);
  const DirectMemoryPlan memory = plan_direct_memory(space, estimate);
  std::printf(
      "host memory: %s of values and orders, plus at most %llu bytes per subspace found (its points as a "
      "bitmap; one of a few points takes less), twice while the threads' tables merge: %s subspaces %s (%s)",
      format_bytes(static_cast<double>(memory.values_bytes)).c_str(),
      static_cast<unsigned long long>(memory.bytes_per_subspace), format_count(memory.subspaces_at_least).c_str(),
      memory.exact ? "in all" : "found in the sample", io::describe_bytes(memory.table_bytes_at_least()).c_str());
  if (!memory.exact)
    std::printf(", at most %s (%s)", format_count(memory.subspaces_at_most).c_str(),
                io::describe_bytes(memory.table_bytes_at_most()).c_str());
  std::printf("\n");
  if (const std::string note = direct_memory_note(settings, memory); !note.empty()) std::printf("%s\n", note.c_str());
  std::printf("%s\n", time.text.c_str());
  std::printf("%s", post_core_plan_text({.points = plan.points(),
                                         .min_points = settings.core.min_points,
                                         .merge_min_points = settings.merge_min_points,
                                         .subspaces_at_least = memory.subspaces_at_least,
                                         .subspaces_at_most = memory.subspaces_at_most,
                                         .multi_units = estimate.multi_units,
                                         .exact = memory.exact,
                                         .merge = settings.merge,
                                         .consolidate = settings.consolidate,
                                         .significance = settings.significance.enabled,
                                         .chance_dimensions = significance::chance_dimensions(
                                             static_cast<double>(plan.total_units()),
                                             static_cast<std::uint32_t>(plan.points()), settings.core.min_points),
                                         .dimensions = static_cast<std::uint32_t>(plan.dimensions()),
                                         .pooling_budget = settings.significance.pooling_budget})
                        .c_str());
}

// How a cluster run (or a checkpointed one) would cut the work, and what each process holds.
void print_cluster_plan(const UnitPlan& plan, const RunSettings& settings, int processes, std::size_t partitions) {
  const auto p = static_cast<std::uint64_t>(processes);
  const std::uint64_t total = plan.total_units();
  const std::uint64_t n = plan.points(), d = plan.dimensions();
  const bool checkpoint = settings.checkpoint.has_value();
  std::uint64_t units =
      checkpoint ? (settings.checkpoint->units > 0 ? settings.checkpoint->units : distributed::kUnitsPerProcess * p)
                 : p;
  std::printf("cluster: %d process(es)%s\n", processes,
              checkpoint ? (", checkpoint in " + settings.checkpoint->folder.string()).c_str() : "");
  // Each process holds the matrix (and direct mode a row-major copy), density1d's orders and windows,
  // and its share's subspaces.
  const double value_bytes = settings.precision == Precision::float32 ? 4 : 8;
  const double inputs = static_cast<double>(n * d) * (2 * value_bytes + 4 + 4);
  const double per_subspace = static_cast<double>((d + 63) / 64 + (n + 63) / 64) * 8;
  if (settings.core.units.mode == TableMode::direct) {
    const distributed::WorkSplit split = distributed::direct_split(total, static_cast<std::uint32_t>(units));
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

// The values the core reads: with the significance test, a copy without background ties where some
// dimension has them (pipeline/steps/significance_steps.hpp); otherwise the held values themselves.
template <class T>
std::optional<ColumnMatrix<T>> core_copy_for_plan(const ColumnMatrix<T>& values, const RunSettings& settings) {
  if (!settings.significance.enabled) return std::nullopt;
  SignificanceReport report;
  auto copy = core_values(values, settings.core.epsilon, settings.significance, report);
  if (report.background_dimensions > 0)
    std::printf(
        "significance %llu values in %u dimensions share a value with more than half of the points: kept "
        "out of the core's work\n",
        static_cast<unsigned long long>(report.background_values), report.background_dimensions);
  return copy;
}

void plan_command(const RunOptions& options) {
  Config config = load_run_config(options.config_file, options.overrides, "plan");
  if (!config.sweep_keys().empty())
    throw UsageError("plan takes one configuration; the config has sweep lists (" + config.sweep_keys()[0] +
                     "); pick one value with an override, e.g. " + config.sweep_keys()[0] + "=...");
  const distributed::Communicator comm = distributed::Communicator::world();
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
    for (const auto& line : resolve_sample_and_parameters(input, settings, config, report.budget))
      std::printf("%s\n", line.c_str());
    core::validate_core_params(settings.core, input.discovery().points());
    for (const auto& warning : workload_warnings(input.discovery(), settings.significance.enabled))
      std::printf("%s\n", warning.c_str());
    if (report.budget.limited) std::printf("warning: %s\n", report.budget.note.c_str());
    // The test scores every point, a sample's run too: the whole input decides what can pass.
    if (settings.significance.enabled)
      for (const auto& line : significance_reach_lines(
               static_cast<std::uint32_t>(input.held.points()), static_cast<std::uint32_t>(input.held.dimensions()),
               median_distinct_values(input.held), settings.significance.test.alpha))
        std::printf("%s\n", line.c_str());
    std::optional<UnitPlan> unit_plan;
    std::optional<Density1dResult> densities;
    input.discovery().visit([&](const auto& held) {
      const auto copy = core_copy_for_plan(held, settings);
      const auto& values = copy ? *copy : held;
      densities = run_density1d(values, {settings.core.epsilon, settings.core.min_points});
      unit_plan.emplace(*densities, settings.core.min_points);
      check_memory_budget(settings, unit_plan->total_units(), core::largest_window_units(*unit_plan));
      print_units_per_dimension(*unit_plan);
      if (settings.core.units.mode == TableMode::direct) print_direct_plan(values, *unit_plan, *densities, settings);
    });
    const UnitPlan& plan = *unit_plan;
    const Density1dResult& density = *densities;
    if (settings.core.units.mode == TableMode::direct) {
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
