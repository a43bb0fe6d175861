#include "pipeline/commands/report_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "io/atomic_output.hpp"
#include "io/same_file.hpp"
#include "pipeline/commands/config_subcommand.hpp"
#include "pipeline/output/output_paths.hpp"
#include "pipeline/report/report_html.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/core_schema.hpp"

namespace subscale::pipeline {
namespace {

// What the report reads: the run folder's files, and the data files its config.yaml names (read
// again for the scatters). A config.yaml that cannot be read names no data files; the report then
// draws no scatter either.
std::vector<NamedPath> report_inputs(const std::filesystem::path& folder) {
  std::vector<NamedPath> inputs;
  for (const char* name : {"summary.json", "results.h5", "config.yaml"})
    inputs.push_back({folder / name, std::string("the run's ") + name});
  try {
    std::ifstream in(folder / "config.yaml");
    std::stringstream text;
    text << in.rdbuf();
    const Config config = Config::from_text(text.str(), {}, core_config_schema(), folder, "config.yaml");
    for (const char* key : {"input.path", "join.path", "ground_truth.path"})
      if (config.has(key)) inputs.push_back({config.file_path(key), std::string("the run's ") + key});
  } catch (const std::exception&) {
  }
  return inputs;
}

}  // namespace

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
  command->add_option("-o,--out", args->out,
                      "where to write the HTML (default: RUN_DIR/report.html); not a file of a run nor the run's "
                      "input");
  command->callback([args] {
    try {
      const std::filesystem::path own = args->folder / "report.html";
      const std::filesystem::path out = args->out.empty() ? own : args->out;
      // The report's own report.html is the one file of a run folder it may write.
      check_output_paths({{out, args->out.empty() ? "the report" : "-o", io::same_file(out, own)}},
                         report_inputs(args->folder));
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
