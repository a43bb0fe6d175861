// The command line: every subcommand's options registered on one CLI::App, the chosen one run, and
// its errors mapped to the documented exit codes.
#include "pipeline/commands/command_line.hpp"

#include <hdf5.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/text_distance.hpp"
#include "distributed/communicator.hpp"
#include "distributed/mpi_session.hpp"
#include "pipeline/commands/config_subcommand.hpp"
#include "pipeline/commands/evaluate_command.hpp"
#include "pipeline/commands/filter_command.hpp"
#include "pipeline/commands/hash_command.hpp"
#include "pipeline/commands/join_command.hpp"
#include "pipeline/commands/plan_command.hpp"
#include "pipeline/commands/report_command.hpp"
#include "pipeline/commands/run_command.hpp"
#include "pipeline/settings/core_schema.hpp"

namespace subscale::pipeline {

namespace {

std::string config_help() {
  return "Config keys (YAML, or key=value overrides with dotted paths):\n" + core_config_schema().describe();
}

// `run` and `plan` share their arguments: CONFIG [key=value ...] or DATA [key=value ...].
CLI::App* add_config_command(CLI::App& app, const std::string& name, const std::string& description,
                             RunOptions& options) {
  CLI::App* command = app.add_subcommand(name, description);
  command
      ->add_option("config", options.config_file,
                   "YAML experiment config (.yaml), or a data file (.h5/.hdf5, .csv, .arff) to " + name +
                       " as a config holding only input.path: DATA")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("overrides", options.overrides, "key=value overrides, e.g. epsilon=0.01 merge.min_points=5");
  command->add_flag("-q,--quiet", options.quiet, "no progress bar and no stage lines on stderr");
  command->footer(config_help());
  return command;
}

// A failure in a job of several processes: an error every process holds (agreed) is printed once,
// by the root, and the job ends in order; any other ends the whole job from here.
int report_failure(const distributed::MpiSession& session) {
  const distributed::Communicator comm = distributed::Communicator::world();
  if (!session.active() || !comm.distributed())
    return report_current_exception("lower memory.host_bytes or set partitions.count");
  try {
    throw;
  } catch (const std::exception& error) {
    if (distributed::error_was_agreed(error)) {
      if (!comm.is_root()) {
        const auto* known = dynamic_cast<const Error*>(&error);
        return known ? static_cast<int>(known->code()) : 1;
      }
      return report_current_exception("lower memory.host_bytes or set partitions.count");
    }
  } catch (...) {
  }
  std::fprintf(stderr, "subscale: process %d of %d failed:\n", comm.rank(), comm.size());
  const int code = report_current_exception("lower memory.host_bytes or set partitions.count");
  std::fflush(stderr);
  distributed::MpiSession::abort_job(code);
  return code;
}

}  // namespace

int command_line_main(int argc, char** argv) {
  // Past a file size limit (ulimit -f) a write should fail with EFBIG and be reported with its
  // path, like a full disk, instead of the signal killing the process part-way.
  std::signal(SIGXFSZ, SIG_IGN);
  // Every HDF5 file is closed where it is used; a close that failed (a full disk) leaves libhdf5
  // 1.10 with a half-closed file that its exit handler then crashes on, after the error was reported.
  H5dont_atexit();
  // Started before anything else: under mpirun or srun it also gives each process of a node its
  // own GPU, which must happen before CUDA starts.
  distributed::MpiSession session(argc, argv);
  if (!session.launch_problem().empty()) {
    std::fprintf(stderr, "subscale: error: %s\n", session.launch_problem().c_str());
    return static_cast<int>(ExitCode::usage);
  }
  CLI::App app{
      "subscale: density-based subspace clustering (SUBSCALE) for high-dimensional data.\n"
      "Finds every subspace in which groups of points are dense, then the clusters in each."};
  app.require_subcommand(1);
  app.set_version_flag("--version", SUBSCALE_VERSION);

  RunOptions run_options;
  std::string out;
  CLI::App* run =
      add_config_command(app, "run",
                         "Run the pipeline and write a run folder:\n"
                         "  subscale run CONFIG.yaml [key=value ...]\n"
                         "  subscale run DATA.csv [key=value ...]   (or .h5/.hdf5, .arff: every parameter auto)",
                         run_options);
  run->add_option("-o,--out", out,
                  "run folder (default: runs/<config>-<time>); a new or empty folder, or an earlier run's (replaced "
                  "as a whole at the end)");
  run->add_flag("--overwrite", run_options.overwrite,
                "write into an --out folder that holds files no run wrote (files of the same names are replaced)");
  run->add_flag("--force", run_options.force,
                "run even when the core's measured rate projects more than a day of work (refused otherwise)");
  run->add_flag("--check", run_options.check,
                "check the config and the overrides (keys, values, every sweep point, the input files, --out) and "
                "exit: nothing is run or written (the Slurm scripts check so at submission)");
  std::string resume;
  run->add_option("--resume", resume,
                  "continue the checkpoint in this folder: the work units it records as finished are read back, "
                  "the others walked; refused when it was made for another config, input or version");

  RunOptions plan_options;
  CLI::App* plan = add_config_command(app, "plan",
                                      "Print what a run will cost (dense units, partitions, memory):\n"
                                      "  subscale plan CONFIG.yaml [key=value ...]\n"
                                      "  subscale plan DATA.csv [key=value ...]",
                                      plan_options);
  require_count(plan->add_option("--processes", plan_options.processes,
                                 "plan a cluster run of this many processes (default: the processes of this job, 1 "
                                 "without mpirun/srun)"));
  add_hash_command(app);      // runs from its own callback
  add_join_command(app);      // runs from its own callback
  add_evaluate_command(app);  // runs from its own callback
  add_filter_command(app);    // runs from its own callback
  add_report_command(app);    // runs from its own callback

  // CLI11 takes an unknown first word for an argument and says only that a subcommand is required.
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands({})) names.push_back(command->get_name());
  if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end()) {
    const std::string nearest = nearest_word(argv[1], names);
    std::string list;
    for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
    std::fprintf(stderr, "subscale: error: unknown subcommand '%s'%s; the subcommands are %s (subscale --help)\n",
                 argv[1], nearest.empty() ? "" : ("; did you mean '" + nearest + "'?").c_str(), list.c_str());
    return static_cast<int>(ExitCode::usage);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : static_cast<int>(ExitCode::usage);
  }
  try {
    if (*run) {
      if (!out.empty()) run_options.out = out;
      if (!resume.empty()) run_options.resume = resume;
      run_options.placement = session.placement();
      if (run_options.check)
        check_run_command(run_options);
      else
        run_command(run_options);
    } else if (*plan) {
      plan_command(plan_options);
    }
    return 0;
  } catch (...) {
    return report_failure(session);
  }
}

}  // namespace subscale::pipeline
