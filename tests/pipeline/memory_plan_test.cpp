// The host memory plan of the signature and exact modes: a budget above the memory available is
// lowered to it, and an explicit partitions.count whose tables would not fit the budget is raised,
// both said before the work starts (plan prints it, run logs it) instead of the run being killed.
// Direct mode's subspace tables (a bitmap of n bits per subspace) are planned from the plan's
// sample of the walk, and a warning says when they cannot fit.
#include <cstdlib>

#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/direct/direct_memory_plan.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"

namespace subscale::testing {
namespace {

TEST(MemoryPlan, PartitionsForHostBytes) {
  EXPECT_EQ(partitions_for_host_bytes(1000, 24000), 1u);
  EXPECT_EQ(partitions_for_host_bytes(1001, 24000), 2u);
  EXPECT_EQ(partitions_for_host_bytes(0, 24000), 1u);
  EXPECT_EQ(partitions_for_host_bytes(10'000'000, 24'000'000), 10u);
  EXPECT_EQ(partitions_for_host_bytes(~std::uint64_t{0}, 1), std::numeric_limits<std::size_t>::max());
}

TEST(MemoryPlan, ExplicitPartitionCountIsRaisedToTheBudget) {
  DenseUnitsParams params;
  params.host_bytes = 24'000'000;  // a million units per partition
  params.partitions = 0;           // auto stays auto (plan_partitions sizes it)
  EXPECT_EQ(fit_partitions_to_host_bytes(params, 5'000'000).partitions, 0u);
  params.partitions = 2;
  EXPECT_EQ(fit_partitions_to_host_bytes(params, 5'000'000).partitions, 5u);
  params.partitions = 8;
  EXPECT_EQ(fit_partitions_to_host_bytes(params, 5'000'000).partitions, 8u);
}

TEST(MemoryPlan, DirectTablesHoldEverySubspaceTwiceAndSaturate) {
  DirectMemoryPlan plan;
  plan.bytes_per_subspace = 152;
  plan.subspaces_at_least = 40;
  plan.subspaces_at_most = 69271;
  EXPECT_EQ(plan.table_bytes_at_least(), 2u * 40 * 152);
  EXPECT_EQ(plan.table_bytes_at_most(), 2u * 69271 * 152);
  plan.subspaces_at_most = ~std::uint64_t{0} / 100;
  EXPECT_EQ(plan.table_bytes_at_most(), ~std::uint64_t{0});
}

class MemoryPlanCli : public CliTest {
 protected:
  void TearDown() override {
    unsetenv("SUBSCALE_AVAILABLE_MEMORY");
    CliTest::TearDown();
  }
  std::string config() const { return (source_root() / "configs" / "quickstart.yaml").string(); }
};

TEST_F(MemoryPlanCli, BudgetAboveAvailableMemoryIsLoweredBeforeTheRun) {
  setenv("SUBSCALE_AVAILABLE_MEMORY", std::to_string(200 << 20).c_str(), 1);
  const CliOutcome plan = run("plan " + config() + " mode=signature memory.host_bytes=1TiB");
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("memory.host_bytes = 1.0 TiB"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find("200.0 MiB of memory available"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find("(budget 200.0 MiB)"), std::string::npos) << plan.output;
  // Direct mode has no table: nothing to lower, nothing said.
  const CliOutcome direct = run("plan " + config() + " mode=direct memory.host_bytes=1TiB");
  EXPECT_EQ(direct.exit_code, 0) << direct.output;
  EXPECT_EQ(direct.output.find("memory.host_bytes"), std::string::npos) << direct.output;
}

TEST_F(MemoryPlanCli, DirectTablesAboveTheBudgetAreSaidBeforeTheWalk) {
  // The quickstart's sample finds 40 subspaces of at most 169 bytes (1000 points, 20 dimensions):
  // at least 13 520 bytes of tables, more than a budget of 8 KiB, less than the default.
  const std::string warning = "warning: direct mode's subspace tables need at least 13520 bytes";
  const CliOutcome plan = run("plan " + config() + " mode=direct memory.host_bytes=8KiB");
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("169 bytes per subspace found"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find(warning), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find("more than memory.host_bytes = 8192 bytes"), std::string::npos) << plan.output;
  const CliOutcome roomy = run("plan " + config() + " mode=direct");
  EXPECT_EQ(roomy.output.find("warning"), std::string::npos) << roomy.output;

  const auto folder = folder_ / "run";
  const CliOutcome outcome = run("run " + config() + " mode=direct memory.host_bytes=8KiB -q --out " + folder.string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;  // a warning: the run goes on
  const std::string log = read_text(folder / "log.txt");
  const std::size_t note = log.find(warning);
  ASSERT_NE(note, std::string::npos) << log;
  EXPECT_LT(note, log.find("dense_units ")) << "said before the walk starts";
}

TEST_F(MemoryPlanCli, TooFewPartitionsAreRaisedAndTheRunSaysSo) {
  // The quickstart has 8.35 M units in signature mode: 191 MiB of table, 2 partitions of 100 MiB.
  const std::string settings = " mode=signature partitions.count=1 memory.host_bytes=100MiB";
  const CliOutcome plan = run("plan " + config() + settings);
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("partitions.count = 1 would put 191.1 MiB"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find("taking 2 partitions"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find("partitions: 2 "), std::string::npos) << plan.output;

  const auto folder = folder_ / "run";
  const CliOutcome outcome = run("run " + config() + settings + " -q --out " + folder.string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  const std::string log = read_text(folder / "log.txt");
  const std::size_t note = log.find("taking 2 partitions");
  EXPECT_NE(note, std::string::npos) << log;
  EXPECT_LT(note, log.find("dense_units ")) << "said before the work starts";
  EXPECT_NE(read_text(folder / "summary.json").find("\"count\": 2"), std::string::npos);
}

}  // namespace
}  // namespace subscale::testing
