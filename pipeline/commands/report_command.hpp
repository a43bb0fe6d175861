#pragma once
// `subscale report RUN_DIR [-o FILE]`: writes the run's HTML report (report_html.hpp), by default
// to RUN_DIR/report.html, and prints where it went.
namespace CLI {
class App;
}

namespace subscale::pipeline {

// Registers `report`; it runs from its own CLI11 callback and maps its errors to the documented
// exit codes itself.
void add_report_command(CLI::App& app);

}  // namespace subscale::pipeline
