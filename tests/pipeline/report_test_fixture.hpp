#pragma once
// What the report tests share: the quickstart run with `report: true` and extra overrides.
#include <filesystem>
#include <string>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace subscale::testing {

class ReportTest : public CliTest {
 protected:
  // Significance off: these tests check the page against merge's and consolidation's own lists
  // (one of them writes its own /clusters/score).
  std::filesystem::path run_quickstart(const std::string& extra) {
    const std::filesystem::path out = folder_ / "run";
    const auto outcome = run("run " + (source_root() / "configs" / "quickstart.yaml").string() +
                                 " report=true significance.enabled=false " + extra + " --out " + out.string() + " -q",
                             "run.log");
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    return out;
  }
};

}  // namespace subscale::testing
