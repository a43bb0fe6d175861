#include "pipeline/run/single_run.hpp"

#include <tbb/task_arena.h>

#include <cstring>

#include "common/parallel_release.hpp"
#include "pipeline/log/run_log.hpp"
#include "pipeline/log/workload_warnings.hpp"
#include "pipeline/output/checkpoint_precheck.hpp"
#include "pipeline/run/run_folder.hpp"
#include "pipeline/settings/parameter_advice.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "pipeline/steps/input_loading.hpp"
#include "pipeline/steps/run_stages.hpp"
#include "pipeline/steps/sampling.hpp"

namespace subscale::pipeline {
namespace {

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

}  // namespace

SingleRun run_one(Config config, const RunDestination& destination, const RunOptions& options,
                  const distributed::Communicator& comm) {
  RunLog log(options.quiet, !comm.is_root());
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
    settings.refuse_long_core = !options.force;
    arena.emplace(settings.threads);
    if (comm.is_root() && settings.checkpoint) precheck_checkpoint(*settings.checkpoint);
  });
  // signature.seed: auto is drawn by each process; the root's draw is the job's, or the processes'
  // signatures (and so their partitions) would not agree.
  if (comm.distributed()) {
    std::uint64_t seed = settings.core.units.seed;
    const distributed::Bytes bytes = comm.broadcast(distributed::Bytes(
        reinterpret_cast<const std::uint8_t*>(&seed), reinterpret_cast<const std::uint8_t*>(&seed + 1)));
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
    const std::vector<distributed::Bytes> placements =
        comm.gather(distributed::Bytes(options.placement.begin(), options.placement.end()));
    for (const auto& placement : placements) log.line("cluster     " + std::string(placement.begin(), placement.end()));
  }
  std::filesystem::path folder;  // where the root writes
  arena->execute([&] {
    agreed([&] {
      input = load_input(settings, log, report);
      for (const auto& line : resolve_sample_and_parameters(*input, settings, config, report.budget)) log.line(line);
      validate_run_params(settings, input->discovery().points());
      report.points = input->held.points();
      report.dimensions = input->held.dimensions();
      if (!comm.is_root()) return;
      if (settings.checkpoint && settings.checkpoint->resume) precheck_checkpoint(*settings.checkpoint, &input->held);
      folder = destination.begin();  // only now: refused input leaves nothing behind
      log.write_to(folder / "log.txt");
    });
    for (const auto& warning : workload_warnings(input->discovery(), settings.significance.enabled))
      log.warning(warning);
    if (report.budget.limited) log.warning(report.budget.note);
    try {
      if (with_parameter_advice([&] { return run_stages(settings, *input, log, report, comm); }))
        write_run_folder(folder, destination.shown(), config, settings, report, log);
    } catch (const std::exception& error) {
      // The line reaches log.txt at once (the claimed folder keeps it where the run was new); main
      // prints the error, so it is kept here, not shown a second time.
      if (comm.is_root()) log.keep(std::string("error: ") + error.what());
      throw;
    }
  });
  SingleRun run{sweep_row(report), destination.shown()};
  arena->execute([&] { release_lists(report); });
  return run;
}

}  // namespace subscale::pipeline
