#include "pipeline/steps/run_stages.hpp"

#include <chrono>
#include <exception>
#include <iomanip>
#include <sstream>

#include "common/phase_timer.hpp"
#include "distributed/distributed_core.hpp"
#include "distributed/distributed_merge.hpp"
#include "pipeline/log/log_format.hpp"
#include "pipeline/log/stage_progress_log.hpp"
#include "pipeline/steps/core_log.hpp"
#include "pipeline/steps/evaluate_step.hpp"
#include "pipeline/steps/sample_extension.hpp"
#include "pipeline/steps/search_values.hpp"
#include "pipeline/steps/significance_steps.hpp"
#include "stages/significance/pooled_pairs.hpp"

namespace subscale::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

std::string sample_log_line(const SampleReport& sample) {
  return "membership  " + std::to_string(sample.clusters_found) +
         (sample.clusters_found == 1 ? " cluster" : " clusters") + " found on the sample of " +
         std::to_string(sample.points) + " points extended to all " + std::to_string(sample.of) + " (" +
         std::to_string(sample.memberships) + " memberships); " + std::to_string(sample.clusters_kept) +
         " significant on every point";
}

// The progress a stage reports goes to the log's bar and to the caller's observer: a library run
// shows it (Python's progress callback) and may stop there (Ctrl-C), as in the core.
StageProgress shown_and_observed(StageProgress shown, const RunObserver& observer, const std::string& stage) {
  if (!observer.on_stage && !observer.on_units) return shown;
  return {[shown, &observer, stage](const std::string& phase, std::uint64_t total, const std::string& unit) {
            shown.begin(phase, total, unit);
            observer.stage(stage, total);
          },
          [shown, &observer](std::uint64_t done) {
            shown.advance(done);
            observer.units(done);
          }};
}

// A step whose work has no count says it still runs, every progress.interval in a batch job.
StageHeartbeat heartbeat(const std::string& stage, RunLog& log, const RunSettings& settings) {
  return StageHeartbeat(stage, progress_display(log.quiet()), settings.progress_seconds,
                        [&log](const std::string& line) { log.line(line); });
}

// Runs the stages after load; with several processes (or a checkpoint) the core goes through the
// cluster executor and merge is spread over the processes. Returns false on the processes that
// only helped (everything after merge is the root's).
// The sample's values as the held type (the sample is held in the input's precision).
template <class T>
const ColumnMatrix<T>& sample_values(const LoadedInput& input) {
  return *input.sample->held.visit([](const auto& m) -> const ColumnMatrix<T>* {
    if constexpr (std::is_same_v<std::decay_t<decltype(m)>, ColumnMatrix<T>>)
      return &m;
    else
      throw std::logic_error("the sample is held in another precision than the input");
  });
}

// `every`: the held values of every point. With a sample (sampling.hpp) the stages up to
// consolidation read the sample's values, and its clusters are then extended to every point.
template <class T>
bool run_held_stages(const ColumnMatrix<T>& every, const RunSettings& settings, const LoadedInput& input, RunLog& log,
                     RunReport& report, const distributed::Communicator& comm, const RunObserver& observer) {
  // Repeated columns folded and columns on levels scaled to their reach, where that applies.
  const SearchValues<T> search(every, input.sample ? &sample_values<T>(input) : nullptr, settings);
  for (const auto& line : search.log_lines()) log.line(line);
  report.search = search.space(settings);
  const ColumnMatrix<T>& values = search.discovery();
  distributed::ClusterCoreReport cluster_report;
  const bool use_cluster = comm.distributed() || settings.checkpoint.has_value();
  CoreStepLog core_log(settings, static_cast<std::size_t>(values.cols()), log, report);
  const auto& sig = settings.significance;
  std::optional<significance::Marginals> marginals;
  std::optional<ColumnMatrix<T>> core_copy;
  if (sig.enabled) {
    report.significance.emplace();
    const auto sig_start = Clock::now();
    marginals = significance::Marginals::of(values);
    report.significance->seconds += seconds_since(sig_start);
    report.significance->seconds_prepare += seconds_since(sig_start);
    const auto beat = heartbeat("significance", log, settings);
    core_copy = core_values(search.core(), settings.core.epsilon, sig, *report.significance);
    for (const auto& line : significance_log_lines(*report.significance, sig, SignificancePhase::core)) log.line(line);
  }
  observer.stage("density1d");
  report.core = core::run_core(
      core_copy ? *core_copy : search.core(), settings.core,
      [&](const std::string& step, const CoreResult& so_far) {
        core_log.step(step, so_far);
        observer.stage(step, step == "dense_units" ? so_far.total_units : 0);
      },
      [&](std::uint64_t done) {
        core_log.advance(done);
        observer.units(done);
      },
      use_cluster ? distributed::distributed_core_executor(comm, settings.checkpoint, cluster_report) : CoreExecutor{});
  report.stage_seconds.emplace_back("subspaces", core_log.seconds_in_step());
  for (const auto& line : cluster_report.log_lines) log.line(line);
  report.processes = comm.size();
  report.checkpointed = settings.checkpoint.has_value();
  report.resumed = settings.checkpoint && settings.checkpoint->resume;
  report.work_units = cluster_report.units;
  report.work_units_read_back = cluster_report.resumed;
  // Units stream into the subspace accumulator while dense_units runs: the core's own timings
  // split that time correctly, the listener's intervals cannot.
  for (auto& [stage, seconds] : report.stage_seconds) {
    if (stage == "dense_units") seconds = report.core.timings.dense_units_seconds;
    if (stage == "subspaces") seconds = report.core.timings.subspaces_seconds;
  }
  report.backend = backend_name(report.core.backend_used);
  log.line("subspaces   " + counted(report.core.subspaces.size(), "subspace"));
  core_copy.reset();
  // The subspaces that can hold a significant cluster (pooled into pairs of dimensions where
  // chance fills the units with dimensions): on the root of a cluster run, which holds every
  // subspace, so that the list is the one a single process makes; merge then takes it in shares.
  std::optional<std::vector<SubspaceCluster>> to_merge;
  // On a sample, the subspaces merged and the clusters carried to every point are chosen by what
  // they predict there (TestParams::sample_scale).
  const double sample_scale =
      input.sample ? static_cast<double>(search.every().rows()) / static_cast<double>(values.rows()) : 1.0;
  if (sig.enabled && settings.merge) {
    std::exception_ptr failure;
    if (comm.is_root()) {
      try {
        const auto beat = heartbeat("significance", log, settings);
        to_merge = subspaces_to_merge(
            values, *marginals, report.core.subspaces, std::max<std::uint32_t>(settings.merge_min_points, 2),
            settings.merge_epsilon,
            significance::chance_dimensions(static_cast<double>(report.core.total_units),
                                            static_cast<std::uint32_t>(values.rows()), settings.core.min_points),
            sig, *report.significance, /*by_group=*/false, sample_scale);
      } catch (...) {
        failure = std::current_exception();
      }
    }
    if (comm.distributed())
      comm.agree(failure);
    else if (failure)
      std::rethrow_exception(failure);
    for (const auto& line : significance_log_lines(*report.significance, sig, SignificancePhase::subspaces))
      log.line(line);
  }

  auto start = Clock::now();
  std::vector<SubspaceCluster> parts_aside;
  if (settings.merge) {
    observer.stage("merge");
    const merge::MergeParams params{settings.merge_epsilon, settings.merge_min_points};
    const auto sieve = sig.enabled ? merge_sieve(*marginals, params, sig, sample_scale) : nullptr;
    if (comm.distributed())
      report.merge = distributed::merge_across_processes(
          comm, values,
          sig.enabled ? distributed::deal_out_from_root(comm, to_merge ? *to_merge : std::vector<SubspaceCluster>{})
                      : cluster_report.owned,
          params, sieve.get());
    else
      report.merge = merge::merge_subspaces(
          values, to_merge ? *to_merge : report.core.subspaces, params,
          shown_and_observed(StageProgressLog("merge", log, settings.progress_seconds).progress(), observer, "merge"),
          sieve.get());
    report.stage_seconds.emplace_back("merge", seconds_since(start));
    if (!comm.is_root()) return false;
    const auto& found = report.merge->stats;
    log.line("merge       " + counted(found.clusters, "cluster") +
             (found.clusters_set_aside ? " (" + std::to_string(found.clusters_set_aside) +
                                             " of them too small for the test to keep, by a bound: not assembled)"
                                       : std::string()) +
             (comm.distributed() ? " (subspaces spread over " + std::to_string(comm.size()) + " processes)" : ""));
    if (sig.enabled) {
      {
        const auto beat = heartbeat("significance", log, settings);
        keep_significant_merge(values, *marginals, *report.merge, params, sig, *report.significance, sample_scale,
                               settings.consolidate ? &parts_aside : nullptr);
      }
      for (const auto& line : significance_log_lines(*report.significance, sig, SignificancePhase::merge))
        log.line(line);
    }
  } else {
    if (!comm.is_root()) return false;
    log.line("merge       skipped (merge.enabled: false)");
  }
  if (report.merge && settings.consolidate) {
    observer.stage("consolidate");
    start = Clock::now();
    StageProgressLog progress("consolidate", log, settings.progress_seconds);
    report.consolidated =
        consolidate::consolidate_clusters(values, report.merge->clusters, settings.consolidate_params,
                                          shown_and_observed(progress.progress(), observer, "consolidate"));
    report.stage_seconds.emplace_back("consolidate", seconds_since(start));
    if (sig.enabled) {
      const auto beat = heartbeat("significance", log, settings);
      for (auto& part : parts_aside) {
        report.consolidated->sizes.push_back(part.points.size());
        report.consolidated->sources.push_back(1);
        report.consolidated->clusters.push_back(std::move(part));
      }
      keep_significant_consolidated(values, *marginals, *report.consolidated,
                                    merge::MergeParams{settings.merge_epsilon, settings.merge_min_points}, sig,
                                    *report.significance, sample_scale);
    }
    const auto& c = report.consolidated->stats;
    log.line("consolidate " + counted(c.clusters, "cluster") + " from " + std::to_string(c.input_clusters) + " (" +
             counted(c.joins, "join") + ", " + std::to_string(c.rejected_joins) + " refused by the span test, " +
             counted(c.extended_dimensions, "dimension") + " added, " + std::to_string(c.redundant) + " redundant" +
             (c.over_top_k ? ", " + std::to_string(c.over_top_k) + " over top_k" : std::string()) + ")");
    if (sig.enabled)
      for (const auto& line : significance_log_lines(*report.significance, sig, SignificancePhase::consolidate))
        log.line(line);
  }
  if (input.sample && comm.is_root()) {
    observer.stage("membership");
    start = Clock::now();
    StageProgressLog progress("membership", log, settings.progress_seconds);
    extend_sample_result(search.every(), values, *input.sample, settings, report,
                         shown_and_observed(progress.progress(), observer, "membership"));
    report.stage_seconds.emplace_back("membership", report.sample->seconds_membership);
    log.line(sample_log_line(*report.sample));
  }
  search.unfold(report);
  if (report.significance) {
    report.stage_seconds.emplace_back("significance", report.significance->seconds);
    for (const auto& line : significance_log_lines(*report.significance, sig, SignificancePhase::end)) log.line(line);
  }
  if (has_evaluation(settings, input)) {
    observer.stage("evaluate");
    const auto beat = heartbeat("evaluate", log, settings);
    run_evaluate_step(settings, input, log, report);
  }
  return true;
}

}  // namespace

bool run_stages(const RunSettings& settings, const LoadedInput& input, RunLog& log, RunReport& report,
                const distributed::Communicator& comm, const RunObserver& observer) {
  return input.held.visit(
      [&](const auto& values) { return run_held_stages(values, settings, input, log, report, comm, observer); });
}

}  // namespace subscale::pipeline
