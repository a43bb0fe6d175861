// srun without an MPI plugin starts every task as a job of one process: P copies that would each
// run the whole job into the same folder. A process that Slurm's environment places in a step of
// several tasks while MPI sees one process refuses with exit 2 and names srun --mpi=pmix; a plain
// run inside a batch script (SLURM_NTASKS of the allocation, no srun step) still runs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "tests/pipeline/cli_test_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::testing::source_root;

class SlurmLaunch : public subscale::testing::CliTest {
 protected:
  void TearDown() override {
    for (const char* name : {"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS", "SLURM_STEP_ID"}) unsetenv(name);
    CliTest::TearDown();
  }
  subscale::testing::CliOutcome run_with(const std::map<std::string, std::string>& environment) {
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    return run("run " + (source_root() / "configs" / "quickstart.yaml").string() + " -q threads=1 --out " +
               (folder_ / "run").string());
  }
};

TEST_F(SlurmLaunch, StepOfSeveralTasksWithoutMpiIsRefused) {
  const auto outcome = run_with({{"SLURM_STEP_NUM_TASKS", "4"}, {"SLURM_STEP_ID", "0"}, {"SLURM_NTASKS", "4"}});
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("srun --mpi=pmix"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("SLURM_STEP_NUM_TASKS=4"), std::string::npos) << outcome.output;
  EXPECT_FALSE(fs::exists(folder_ / "run"));
}

TEST_F(SlurmLaunch, NtasksOfAStepCountsToo) {
  const auto outcome = run_with({{"SLURM_NTASKS", "3"}, {"SLURM_STEP_ID", "0"}});
  EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("SLURM_NTASKS=3"), std::string::npos) << outcome.output;
}

TEST_F(SlurmLaunch, OneTaskOrABatchScriptRuns) {
  EXPECT_EQ(run_with({{"SLURM_STEP_NUM_TASKS", "1"}, {"SLURM_STEP_ID", "0"}}).exit_code, 0);
  unsetenv("SLURM_STEP_NUM_TASKS");
  unsetenv("SLURM_STEP_ID");
  const auto batch = run_with({{"SLURM_NTASKS", "4"}});
  EXPECT_EQ(batch.exit_code, 0) << batch.output;
  EXPECT_TRUE(fs::exists(folder_ / "run" / "summary.json"));
}

}  // namespace
