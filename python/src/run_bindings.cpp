#include "python/src/run_bindings.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <exception>
#include <future>
#include <thread>

#include "common/backend.hpp"
#include "gpu/device_info.hpp"
#include "pipeline/steps/library_run.hpp"
#include "python/src/array_input.hpp"
#include "python/src/cluster_arrays.hpp"
#include "python/src/membership_model.hpp"

namespace subscale::python {
namespace {

using pipeline::LibraryRun;
using pipeline::RunControl;

// How often the calling thread looks for Ctrl-C and reports progress while the run works.
constexpr auto kWatchInterval = std::chrono::milliseconds(100);

pipeline::MemoryInput memory_input(const py::array& values, const std::vector<std::string>& column_names,
                                   const py::object& truth) {
  pipeline::MemoryInput input;
  input.values = view_of(values);
  input.column_names = column_names;
  if (!truth.is_none()) input.truth = from_python(truth, "truth");
  return input;
}

// Runs the library on a thread of its own while this one (which holds the interpreter) checks for
// signals and reports progress: Python runs signal handlers only on its main thread, and only when
// it gets the chance. A KeyboardInterrupt (or an exception from the progress callback) cancels the
// run, waits for it to stop, and is raised here.
LibraryRun run_watched(const std::vector<std::string>& overrides, const pipeline::MemoryInput& input,
                       const py::object& progress) {
  RunControl control;
  std::packaged_task<LibraryRun()> task([&] { return pipeline::run_library(overrides, input, control); });
  std::future<LibraryRun> result = task.get_future();
  std::thread worker(std::move(task));
  std::exception_ptr interruption;
  std::string last_stage;
  std::uint64_t last_done = ~std::uint64_t{0};
  const auto report = [&](const RunControl::Snapshot& now) {
    if (progress.is_none() || (now.stage == last_stage && now.done == last_done)) return;
    last_stage = now.stage;
    last_done = now.done;
    progress(now.stage, now.done, now.total);
  };
  for (;;) {
    bool finished = without_gil([&] { return result.wait_for(kWatchInterval) == std::future_status::ready; });
    if (finished) break;
    if (interruption) continue;  // cancelled: waiting for the run to stop
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      report(control.snapshot());
    } catch (...) {
      interruption = std::current_exception();
      control.cancel();
    }
  }
  worker.join();
  if (interruption) std::rethrow_exception(interruption);
  LibraryRun run = result.get();  // the run's own error, if it failed
  report({"done", 1, 1});
  return run;
}

py::list stage_seconds(const pipeline::RunReport& report) {
  py::list out;
  for (const auto& [stage, seconds] : report.stage_seconds) out.append(py::make_tuple(stage, seconds));
  return out;
}

py::dict core_plan(const pipeline::RunReport& report) {
  const auto& core = report.core;
  py::dict plan;
  plan["total_units"] = core.total_units;
  plan["units_per_dimension"] = core.units_per_dimension;
  plan["largest_window_units"] = core.largest_window_units;
  plan["backend"] = backend_name(core.backend_used);
  plan["walk_nodes"] = core.dense_units.walk_nodes;
  plan["multi_dimension_units"] = core.dense_units.multi_units_counted
                                      ? py::object(py::int_(core.dense_units.distinct_multi_units))
                                      : py::object(py::none());
  return plan;
}

// The significance score of each cluster of a list, in its order, as results.h5 holds it beside
// the list (/clusters/score, /raw_clusters/score); None when the test did not run.
py::object scores_array(const pipeline::RunReport& report, bool raw) {
  std::optional<std::vector<double>> scores;
  if (report.significance) {
    scores.emplace();
    for (const auto& s : raw ? report.significance->raw_scores : report.significance->scores)
      scores->push_back(s.score);
  }
  return array_or_none(std::move(scores));
}

py::dict run(const py::array& values, const std::vector<std::string>& overrides,
             const std::vector<std::string>& column_names, const py::object& truth, const py::object& progress) {
  const pipeline::MemoryInput input = memory_input(values, column_names, truth);
  LibraryRun run = run_watched(overrides, input, progress);
  pipeline::RunReport& report = run.report;
  py::dict out;
  out["timings"] = stage_seconds(report);
  out["plan"] = core_plan(report);
  out["summary"] = run.summary_json;
  out["config"] = run.config_yaml;
  out["log"] = run.log;
  out["warnings"] = run.warnings;
  out["membership"] = membership_model(input.values, report);  // before the clusters are moved out
  out["subspaces"] = to_python(std::move(report.core.subspaces));
  // The lists and their scores as results.h5 pairs them: without consolidation merge's clusters
  // are the run's, with merge's scores.
  if (report.consolidated) {
    out["clusters"] = to_python(std::move(report.consolidated->clusters));
    out["scores"] = scores_array(report, false);
    out["raw_clusters"] = to_python(std::move(report.merge->clusters));
    out["raw_scores"] = scores_array(report, true);
  } else {
    out["clusters"] = report.merge ? to_python(std::move(report.merge->clusters)) : py::list();
    out["scores"] = report.merge ? scores_array(report, true) : py::none();
    out["raw_clusters"] = py::none();
    out["raw_scores"] = py::none();
  }
  return out;
}

py::dict plan(const py::array& values, const std::vector<std::string>& overrides,
              const std::vector<std::string>& column_names) {
  const pipeline::MemoryInput input = memory_input(values, column_names, py::none());
  pipeline::LibraryPlan p = without_gil([&] { return pipeline::plan_library(overrides, input); });
  py::dict out;
  out["points"] = p.points;
  out["dimensions"] = p.dimensions;
  out["mode"] = p.mode;
  out["total_units"] = p.total_units;
  out["units_per_dimension"] = p.units_per_dimension;
  out["largest_window"] = p.largest_window;
  out["held_bytes"] = p.held_bytes;
  if (p.mode == "direct") {
    out["walk_exact"] = p.walk_exact;
    out["walk_nodes"] = p.walk_nodes;
    out["multi_dimension_units"] = p.multi_units;
    out["subspaces_at_least"] = p.subspaces_at_least;
    out["table_bytes_at_least"] = p.table_bytes_at_least;
  } else {
    out["partitions"] = p.partitions;
    out["false_match_probability"] = p.false_match_probability;
  }
  return out;
}

}  // namespace

void bind_run(py::module_& m) {
  m.def("run", &run, py::arg("values"), py::arg("overrides"), py::arg("column_names"), py::arg("truth"),
        py::arg("progress"), "Runs the pipeline on a 2-D float64/float32 array; returns the run's results.");
  m.def(
      "cuda_available", [] { return gpu::cuda_backend_built() && gpu::query_device().available; },
      "True when the CUDA backend is built and a GPU is usable: backend='cuda' can run.");
  m.def("plan", &plan, py::arg("values"), py::arg("overrides"), py::arg("column_names"),
        "What a run on this array would cost (subscale plan).");
}

}  // namespace subscale::python
