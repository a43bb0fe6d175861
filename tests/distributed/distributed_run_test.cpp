// Cluster runs as a user meets them, on the CPU backend: `mpirun -n 1/2/3 subscale run` writes the
// same subspaces.txt and clusters.txt as a plain run, in direct and signature mode, on generated
// data and the OpenSubspace files; a run killed with SIGKILL and resumed from its checkpoint equals
// an uninterrupted one; damaged or foreign checkpoints are refused; a failing process ends the job
// with its exit code and no results. Skips where Open MPI or mpirun is missing. SUBSCALE_MPIRUN
// names the launcher where it is not on PATH (the GPU bundle).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "distributed/mpi_session.hpp"
#include "tests/pipeline/cli_test_fixture.hpp"
#include "tests/skip_without_gpu.hpp"

namespace {

namespace fs = std::filesystem;
using subscale::testing::read_text;

std::string launcher() {
  const char* named = std::getenv("SUBSCALE_MPIRUN");
  return named ? named : "mpirun";
}

bool launcher_found() { return std::system(("command -v " + launcher() + " > /dev/null 2>&1").c_str()) == 0; }

class ClusterRun : public subscale::testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!subscale::distributed::mpi_built()) GTEST_SKIP() << "this build has no MPI support";
    if (!launcher_found()) GTEST_SKIP() << launcher() << " not found";
    // CI runs as root on two cores: Open MPI refuses both unless told.
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
  }

  // The build's binaries, or those beside SUBSCALE_CLI where the build has moved (the GPU bundle).
  static std::string binary(const std::string& name) {
    const char* cli = std::getenv("SUBSCALE_CLI");
    if (!cli) return std::string(SUBSCALE_BINARY_DIR) + "/" + name;
    return name == "subscale" ? std::string(cli) : (fs::path(cli).parent_path() / name).string();
  }

  subscale::testing::CliOutcome mpirun(int processes, const std::string& arguments, const std::string& log_name) {
    // The sanitizer build: Open MPI keeps allocations (in plugins it unloads) until exit, which
    // LeakSanitizer cannot tell from ours; under mpirun only leak checking is off (the plain runs
    // of the same code paths keep it), the address and undefined-behaviour checks stay on.
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string command = "ASAN_OPTIONS='" + std::string(asan ? asan : "") + ":detect_leaks=0' " + launcher() +
                                " -n " + std::to_string(processes) + " --oversubscribe " + binary("subscale") + " " +
                                arguments + " > " + (folder_ / log_name).string() + " 2>&1";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(folder_ / log_name)};
  }

  // mpirun with its own application contexts ("-n 1 A : -n 1 B"), bounded so a job that hangs
  // fails the test instead of stopping the suite.
  subscale::testing::CliOutcome mpirun_contexts(const std::string& contexts, const std::string& log_name) {
    const std::string command =
        "timeout 300 " + launcher() + " --oversubscribe " + contexts + " > " + (folder_ / log_name).string() + " 2>&1";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(folder_ / log_name)};
  }

  // Generated data with five hidden clusters and its config (CPU backend).
  fs::path generated(const std::string& name, const std::string& generator_arguments, const std::string& settings) {
    const std::string command =
        binary("subscale-generate") + " " + generator_arguments + " -o " + (folder_ / name).string() + " > /dev/null";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return write(name + ".yaml", "input:\n  path: " + name + ".h5\nbackend: cpu\n" + settings);
  }

  void expect_same_outputs(const fs::path& expected, const fs::path& actual, const std::string& what) {
    for (const char* file : {"subspaces.txt", "clusters.txt"}) {
      ASSERT_TRUE(fs::exists(actual / file)) << what << ": " << file << " missing";
      EXPECT_TRUE(read_text(expected / file) == read_text(actual / file)) << what << ": " << file << " differs";
    }
    EXPECT_FALSE(read_text(expected / "subspaces.txt").empty()) << what << ": nothing to compare";
  }
};

TEST_F(ClusterRun, OneTwoThreeProcessesEqualAPlainRunInBothModes) {
  // 800 points (1,200 took 12 s in the sanitizer build over the test's nine runs, signature mode's
  // most): 58 subspaces and 5 clusters to compare.
  const fs::path config =
      generated("gen", "-n 800 -d 10 -c 'random:5:2-5:80-150:0.02-0.04'", "epsilon: 0.005\nmin_points: 4\n");
  for (const char* mode : {"direct", "signature"}) {
    const fs::path plain = folder_ / (std::string("plain-") + mode);
    ASSERT_EQ(run("run " + config.string() + " mode=" + mode + " -q --out " + plain.string()).exit_code, 0);
    for (int processes = 1; processes <= 3; ++processes) {
      const fs::path out = folder_ / (std::string(mode) + "-" + std::to_string(processes));
      const auto outcome =
          mpirun(processes, "run " + config.string() + " mode=" + mode + " --out " + out.string(), "log.txt");
      ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
      if (processes > 1) {
        EXPECT_NE(outcome.output.find("over " + std::to_string(processes) + " process(es)"), std::string::npos)
            << outcome.output;
      }
      expect_same_outputs(plain, out, std::string(mode) + " on " + std::to_string(processes) + " processes");
    }
  }
  // A seed drawn at start (signature.seed: auto) is the root's for every process.
  const fs::path drawn = folder_ / "drawn";
  const auto outcome =
      mpirun(2, "run " + config.string() + " mode=signature signature.seed=auto --out " + drawn.string(), "log.txt");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  expect_same_outputs(folder_ / "plain-signature", drawn, "signature.seed: auto on 2 processes");
}

// Every default (epsilon and min_points chosen from the data, the significance test skipping
// subspaces before merge and pooling them where it must): two, three and four processes give one
// process's subspaces, merge's clusters and the run's clusters, in the text files and in
// results.h5. The file is one on which the skipping decides which clusters consolidation sees.
TEST_F(ClusterRun, EveryDefaultOnTwoThreeFourProcessesEqualsAPlainRun) {
  const fs::path config = generated("defaults", "-n 180 -d 17 -c 'random:9:3-9:10-20:0.03-0.1' -s 1", "");
  const fs::path plain = folder_ / "plain";
  ASSERT_EQ(run("run " + config.string() + " -q --out " + plain.string()).exit_code, 0);
  const auto results = [&](const fs::path& run_folder) {
    const fs::path dump = folder_ / "dump.txt";
    const std::string command = "h5dump -g /clusters -g /raw_clusters -g /subspaces -g /dense_units -g /density1d " +
                                (run_folder / "results.h5").string() + " | tail -n +2 > " + dump.string();
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return read_text(dump);
  };
  const std::string expected = results(plain);
  ASSERT_NE(expected.find("/clusters"), std::string::npos) << expected.substr(0, 200);
  for (int processes = 2; processes <= 4; ++processes) {
    const fs::path out = folder_ / ("spread-" + std::to_string(processes));
    const auto outcome = mpirun(processes, "run " + config.string() + " --out " + out.string(), "log.txt");
    ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
    const std::string what = "every default on " + std::to_string(processes) + " processes";
    expect_same_outputs(plain, out, what);
    EXPECT_TRUE(read_text(plain / "clusters_raw.txt") == read_text(out / "clusters_raw.txt")) << what;
    EXPECT_TRUE(expected == results(out)) << what << ": results.h5 differs";
  }
}

// Discovery on a sample: every process draws the same sample from sample.seed, so two processes
// give one process's subspaces (the sample's), merge's clusters and the clusters extended to
// every point.
TEST_F(ClusterRun, ASampledRunOnTwoProcessesEqualsAPlainOne) {
  const fs::path config = generated("sampled", "-n 3000 -d 10 -c '1,4:300:0.05;0,6,9:200:0.05;2,3,7:150:0.06' -s 4",
                                    "sample:\n  enabled: true\n  points: 1000\n");
  const fs::path plain = folder_ / "plain", spread = folder_ / "spread";
  ASSERT_EQ(run("run " + config.string() + " -q --out " + plain.string()).exit_code, 0);
  ASSERT_NE(read_text(plain / "log.txt").find("sample      1000 of 3000 points"), std::string::npos);
  const auto outcome = mpirun(2, "run " + config.string() + " --out " + spread.string(), "log.txt");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  expect_same_outputs(plain, spread, "a sampled run on 2 processes");
  EXPECT_TRUE(read_text(plain / "clusters_raw.txt") == read_text(spread / "clusters_raw.txt"));
  EXPECT_FALSE(read_text(plain / "clusters.txt").empty());
}

// input.precision: float32 over two processes: the walk, the merge and the checkpoint read the
// float32 values, so the result equals a plain float32 run; a checkpoint made from them is refused
// by a float64 resume (its content hash is of the held values).
TEST_F(ClusterRun, Float32OnTwoProcessesEqualsAPlainFloat32Run) {
  const fs::path config =
      generated("f32", "-n 1200 -d 10 -c 'random:5:2-5:80-150:0.02-0.04'", "epsilon: 0.005\nmin_points: 4\n");
  const fs::path plain = folder_ / "plain", spread = folder_ / "spread", checkpoint = folder_ / "checkpoint";
  const std::string narrow = "run " + config.string() + " input.precision=float32";
  ASSERT_EQ(run(narrow + " -q --out " + plain.string()).exit_code, 0);
  const auto outcome =
      mpirun(2, narrow + " checkpoint.dir=" + checkpoint.string() + " --out " + spread.string(), "log.txt");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
  expect_same_outputs(plain, spread, "float32 on 2 processes");
  const auto wide = run("run " + config.string() + " input.precision=float64 --resume " + checkpoint.string() +
                        " --out " + (folder_ / "wide").string());
  EXPECT_EQ(wide.exit_code, 2) << wide.output;
  EXPECT_NE(wide.output.find("input data is"), std::string::npos) << wide.output;
}

TEST_F(ClusterRun, OpenSubspaceFilesEqualAPlainRun) {
  const char* shared = std::getenv("SUBSCALE_SHARED_DIR");
  const fs::path data = fs::path(shared ? shared : "") / "datasets" / "opensubspace";
  if (!shared || !fs::exists(data)) GTEST_SKIP() << "OpenSubspace files not found under " << data;
  struct Case {
    const char* file;
    const char* mode;
    const char* epsilon;
    int processes;
  };
  for (const Case& c : {Case{"synth_dbsizescale/S1500.arff", "direct", "0.005", 3},
                        Case{"synth_dimscale/D05.arff", "direct", "0.005", 2},
                        Case{"synth_dimscale/D05.arff", "signature", "0.002", 3}}) {
    const fs::path config =
        write("os.yaml", "input:\n  path: " + (data / c.file).string() +
                             "\nbackend: cpu\nmin_points: 4\nepsilon: " + c.epsilon + "\nmode: " + c.mode + "\n");
    const std::string what = std::string(c.file) + " " + c.mode;
    const fs::path plain = folder_ / "plain", spread = folder_ / "spread";
    fs::remove_all(plain);
    fs::remove_all(spread);
    ASSERT_EQ(run("run " + config.string() + " -q --out " + plain.string()).exit_code, 0) << what;
    const auto outcome = mpirun(c.processes, "run " + config.string() + " -q --out " + spread.string(), "log.txt");
    ASSERT_EQ(outcome.exit_code, 0) << what << ": " << outcome.output;
    expect_same_outputs(plain, spread, what);
  }
}

TEST_F(ClusterRun, KilledRunResumesToTheSameResult) {
  const fs::path config = generated("kill", "-n 5000 -d 10 -c 'random:4:2-4:100-200:0.02-0.04'",
                                    "epsilon: 0.01\nmin_points: 3\nthreads: 1\n");
  const fs::path checkpoint = folder_ / "checkpoint";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const std::string cli = binary("subscale");
    execl(cli.c_str(), cli.c_str(), "run", config.c_str(), "-q", ("checkpoint.dir=" + checkpoint.string()).c_str(),
          "checkpoint.units=32", "--out", (folder_ / "killed").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Killed as soon as two units are recorded: well before the end, after some work.
  auto recorded = [&] {
    int units = 0;
    if (fs::exists(checkpoint))
      for (const auto& entry : fs::directory_iterator(checkpoint)) units += entry.path().extension() == ".bin" ? 1 : 0;
    return units;
  };
  int status = 0;
  bool exited = false;
  while (recorded() < 2 && !(exited = waitpid(child, &status, WNOHANG) == child))
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_FALSE(exited) << "the run ended before it could be killed; make its data larger";
  kill(child, SIGKILL);
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  const int before = recorded();
  ASSERT_LT(before, 32) << "every unit was recorded before the kill";
  EXPECT_FALSE(fs::exists(folder_ / "killed" / "subspaces.txt"));

  ASSERT_EQ(run("run " + config.string() + " threads=2 -q --out " + (folder_ / "whole").string()).exit_code, 0);
  const auto resumed = mpirun(
      2, "run " + config.string() + " --resume " + checkpoint.string() + " --out " + (folder_ / "resumed").string(),
      "resume.txt");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(
      resumed.output.find(std::to_string(before) + " unit(s) read back, " + std::to_string(32 - before) + " walked"),
      std::string::npos)
      << resumed.output;
  expect_same_outputs(folder_ / "whole", folder_ / "resumed", "resumed after SIGKILL");
}

TEST_F(ClusterRun, DamagedOrForeignCheckpointIsRefused) {
  const fs::path config =
      generated("ck", "-n 600 -d 8 -c 'random:3:2-4:60-100:0.02-0.04'", "epsilon: 0.01\nmin_points: 4\n");
  const fs::path checkpoint = folder_ / "checkpoint";
  ASSERT_EQ(run("run " + config.string() + " -q checkpoint.dir=" + checkpoint.string() + " --out " +
                (folder_ / "first").string())
                .exit_code,
            0);
  // Another epsilon, other data: refused with exit 2 and what differs; nothing written.
  const auto other_epsilon = mpirun(2,
                                    "run " + config.string() + " epsilon=0.02 --resume " + checkpoint.string() +
                                        " --out " + (folder_ / "r1").string(),
                                    "r1.txt");
  EXPECT_EQ(other_epsilon.exit_code, 2) << other_epsilon.output;
  EXPECT_NE(other_epsilon.output.find("epsilon is 0.01 in the checkpoint and 0.02 here"), std::string::npos)
      << other_epsilon.output;
  EXPECT_FALSE(fs::exists(folder_ / "r1" / "results.h5"));
  generated("other", "-n 600 -d 8 -s 5 -c 'random:3:2-4:60-100:0.02-0.04'", "");
  const auto other_data = run("run " + config.string() + " input.path=" + (folder_ / "other.h5").string() +
                              " --resume " + checkpoint.string() + " --out " + (folder_ / "r2").string());
  EXPECT_EQ(other_data.exit_code, 2) << other_data.output;
  EXPECT_NE(other_data.output.find("input data is"), std::string::npos) << other_data.output;
  // A fresh run into a folder that holds a checkpoint.
  const auto fresh = run("run " + config.string() + " checkpoint.dir=" + checkpoint.string());
  EXPECT_EQ(fresh.exit_code, 2) << fresh.output;
  EXPECT_NE(fresh.output.find("already holds a checkpoint"), std::string::npos) << fresh.output;
  // One byte of a unit file changed: exit 3, the file named.
  {
    std::fstream unit(checkpoint / "unit-3.bin", std::ios::in | std::ios::out | std::ios::binary);
    unit.seekp(80);
    unit.put('\x7f');
  }
  const auto damaged =
      mpirun(3, "run " + config.string() + " --resume " + checkpoint.string() + " --out " + (folder_ / "r3").string(),
             "r3.txt");
  EXPECT_EQ(damaged.exit_code, 3) << damaged.output;
  EXPECT_NE(damaged.output.find("unit-3.bin is damaged"), std::string::npos) << damaged.output;
  EXPECT_FALSE(fs::exists(folder_ / "r3" / "results.h5"));
}

TEST_F(ClusterRun, FailingProcessEndsTheJobWithItsExitCodeAndNoResults) {
  const fs::path config =
      generated("fail", "-n 600 -d 8 -c 'random:3:2-4:60-100:0.02-0.04'", "epsilon: 0.01\nmin_points: 4\n");
  // Process 1 takes work unit 1 and cannot record it: a directory stands where its file goes.
  fs::create_directories(folder_ / "checkpoint" / "unit-1.bin");
  const auto outcome = mpirun(2,
                              "run " + config.string() + " checkpoint.dir=" + (folder_ / "checkpoint").string() +
                                  " --out " + (folder_ / "out").string(),
                              "out.txt");
  EXPECT_EQ(outcome.exit_code, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("process 1 of 2: checkpoint: cannot move into place"), std::string::npos)
      << outcome.output;
  EXPECT_FALSE(fs::exists(folder_ / "out" / "results.h5"));
  EXPECT_FALSE(fs::exists(folder_ / "out" / "subspaces.txt"));
  // Bad input seen by every process: exit 3, said once, no run folder.
  write("bad.csv", "1,2\n3,nan\n");
  const auto bad =
      mpirun(2,
             "run " + write("bad.yaml", "input:\n  path: bad.csv\nepsilon: 0.1\nmin_points: 2\n").string() + " --out " +
                 (folder_ / "bad").string(),
             "bad.txt");
  EXPECT_EQ(bad.exit_code, 3) << bad.output;
  EXPECT_NE(bad.output.find("bad.csv, line 2, column 2"), std::string::npos) << bad.output;
  EXPECT_FALSE(fs::exists(folder_ / "bad"));
}

// A GPU that runs out of memory on one process only (SUBSCALE_FAIL_DEVICE_ALLOC set for process 1:
// every device allocation failing from the first, or from the second on): the whole job ends with
// the resource exit code and no results, and does not hang. Both processes may share one GPU.
TEST_F(ClusterRun, DeviceOutOfMemoryOnOneProcessEndsTheJob) {
  SKIP_WITHOUT_GPU();
  const fs::path config =
      generated("oom", "-n 900 -d 8 -c 'random:3:2-4:60-100:0.02-0.04'", "epsilon: 0.01\nmin_points: 4\n");
  const auto clean =
      mpirun(2, "run " + config.string() + " backend=cuda --out " + (folder_ / "clean").string(), "clean.txt");
  ASSERT_EQ(clean.exit_code, 0) << clean.output;
  for (const char* spec : {"1+", "2+"}) {
    const std::string run = " run " + config.string() + " backend=cuda --out " + (folder_ / "out").string();
    const std::string contexts = "-n 1 " + binary("subscale") + run + " : -n 1 env SUBSCALE_FAIL_DEVICE_ALLOC=" + spec +
                                 " " + binary("subscale") + run;
    const auto outcome = mpirun_contexts(contexts, std::string("oom") + spec[0] + ".txt");
    EXPECT_EQ(outcome.exit_code, 4) << spec << ": " << outcome.output;
    EXPECT_NE(outcome.output.find("out of memory"), std::string::npos) << spec << ": " << outcome.output;
    EXPECT_FALSE(fs::exists(folder_ / "out" / "results.h5")) << spec;
    EXPECT_FALSE(fs::exists(folder_ / "out" / "subspaces.txt")) << spec;
  }
}

TEST_F(ClusterRun, PlanSaysHowTheWorkIsSplit) {
  const fs::path config =
      generated("plan", "-n 600 -d 8 -c 'random:3:2-4:60-100:0.02-0.04'", "epsilon: 0.01\nmin_points: 4\n");
  const auto spread = mpirun(2, "plan " + config.string() + " -q", "plan.txt");
  ASSERT_EQ(spread.exit_code, 0) << spread.output;
  EXPECT_NE(spread.output.find("cluster: 2 process(es)"), std::string::npos) << spread.output;
  EXPECT_NE(spread.output.find("memory per process"), std::string::npos) << spread.output;
  const auto planned = run("plan " + config.string() + " -q mode=signature --processes 4");
  ASSERT_EQ(planned.exit_code, 0) << planned.output;
  EXPECT_NE(planned.output.find("cluster: 4 process(es)"), std::string::npos) << planned.output;
  EXPECT_NE(planned.output.find("per process"), std::string::npos) << planned.output;
}

}  // namespace
