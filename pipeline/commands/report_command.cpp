#include "pipeline/commands/report_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "io/atomic_output.hpp"
#include "pipeline/commands/config_subcommand.hpp"
#include "pipeline/report/report_html.hpp"

namespace subscale::pipeline {

void add_report_command(CLI::App& app) {
  struct Arguments {
    std::filesystem::path folder;
    std::filesystem::path out;
  };
  auto args = std::make_shared<Arguments>();
  CLI::App* command = app.add_subcommand(
      "report",
      "Write a run's report: one self-contained HTML file with the clusters (a table, the dimensions they live in, "
      "scatters "
      "of the strongest), charts of the stage times, dense units per dimension, "
      "partition fills, subspace sizes and dimensionalities, clusters per subspace and the quality measures");
  command->add_option("run_dir", args->folder, "the folder of a finished run (it holds summary.json and results.h5)")
      ->required()
      ->check(CLI::ExistingDirectory);
  command->add_option("-o,--out", args->out, "where to write the HTML (default: RUN_DIR/report.html)");
  command->callback([args] {
    try {
      std::filesystem::path written;
      if (args->out.empty()) {
        written = write_report_html(args->folder);
      } else {
        io::write_text_file(args->out, report_html(args->folder));
        written = args->out;
      }
      std::printf("wrote %s\n", written.string().c_str());
      std::fflush(stdout);
    } catch (...) {
      std::exit(report_current_exception("the run's lists are too large to summarise in memory"));
    }
  });
}

}  // namespace subscale::pipeline
