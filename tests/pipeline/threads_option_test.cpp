// `threads` on the filter, join and hash subcommands, like run's: a count or auto, the oneTBB arena
// the command works in (its JSON says how many), and 0 refused as a config error.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

using subscale::testing::read_text;
using subscale::testing::source_root;

class ThreadsOption : public subscale::testing::CliTest {
 protected:
  // Runs `command` on its shipped example config, small, on the CPU; returns the JSON's threads.
  int threads_used(const std::string& command, const std::string& settings) {
    const auto outcome = run(command + " " + config(command) + " " + settings + " " + small(command) +
                             " output.file=" + (folder_ / (command + ".h5")).string() +
                             " output.json=" + (folder_ / (command + ".json")).string());
    EXPECT_EQ(outcome.exit_code, 0) << outcome.output;
    const auto json = nlohmann::json::parse(read_text(folder_ / (command + ".json")), nullptr, false);
    return json.is_discarded() || !json.contains("threads") ? -1 : json["threads"].get<int>();
  }
  static std::string config(const std::string& command) {
    const std::string name = command == "filter" ? "filter_q6.yaml" : command + "_quickstart.yaml";
    return (source_root() / "configs" / name).string();
  }
  static std::string small(const std::string& command) {
    if (command == "filter") return "generate.scale_factor=0.001 filter.backend=cpu";
    if (command == "join") return "generate.r_rows=2000 generate.s_rows=2000 join.backend=cpu";
    return "input.rows=2000 hash.backend=cpu quality.enabled=false";
  }
};

TEST_F(ThreadsOption, FilterJoinAndHashRunInTheirArena) {
  for (const std::string command : {"filter", "join", "hash"}) {
    EXPECT_EQ(threads_used(command, "threads=1"), 1) << command;
    EXPECT_GE(threads_used(command, "threads=auto"), 1) << command;
    const auto refused = run(command + " " + config(command) + " threads=0 " + small(command) + " output.file=" +
                             (folder_ / "x.h5").string() + " output.json=" + (folder_ / "x.json").string());
    EXPECT_EQ(refused.exit_code, 2) << command << ": " << refused.output;
    EXPECT_NE(refused.output.find("threads"), std::string::npos) << refused.output;
  }
}

}  // namespace
