// Times the join stage: tuples per second = (|R| + |S|) / (partitioning + build/probe), the
// issue's figure, with the phases reported separately, plus the host<->device copies (cuda) as
// their own columns. The pairs are counted by the sink, not gathered, so the host side of the
// output does not enter the numbers; on cuda the device->host copy of the pairs is reported as
// transfer_out. Each case runs `repeats` times after one untimed warm-up; the best and the
// median of the join time are printed, and all runs go to the JSON file when --json is given.
//
//   join_bench [--log2-rows 27] [--dist uniform|zipf|both] [--alpha 1.0] [--overlap 1.0]
//              [--backend cpu|cuda|both] [--repeats 5] [--radix-bits 0] [--passes 0]
//              [--probe-chunk 4096] [--threads 0] [--json FILE]
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "datasets/generators/join_generators.hpp"
#include "gpu/device_info.hpp"
#include "stages/join/hash_join.hpp"

namespace sj = subscale::join;

namespace {

struct Args {
  int log2_rows = 27;
  std::string dist = "both";
  double alpha = 1.0;
  double overlap = 1.0;
  std::string backend = "both";
  int repeats = 5;
  int radix_bits = 0;
  int passes = 0;
  std::uint32_t probe_chunk = 4096;
  int threads = 0;
  std::string json;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw subscale::UsageError(flag + " needs a value");
      return argv[++i];
    };
    if (flag == "--log2-rows")
      a.log2_rows = std::stoi(value());
    else if (flag == "--dist")
      a.dist = value();
    else if (flag == "--alpha")
      a.alpha = std::stod(value());
    else if (flag == "--overlap")
      a.overlap = std::stod(value());
    else if (flag == "--backend")
      a.backend = value();
    else if (flag == "--repeats")
      a.repeats = std::stoi(value());
    else if (flag == "--radix-bits")
      a.radix_bits = std::stoi(value());
    else if (flag == "--passes")
      a.passes = std::stoi(value());
    else if (flag == "--probe-chunk")
      a.probe_chunk = static_cast<std::uint32_t>(std::stoul(value()));
    else if (flag == "--threads")
      a.threads = std::stoi(value());
    else if (flag == "--json")
      a.json = value();
    else
      throw subscale::UsageError("unknown option " + flag + " (see the comment at the top of join_bench.cpp)");
  }
  if (a.log2_rows < 1 || a.log2_rows > 31) throw subscale::UsageError("--log2-rows must be 1..31");
  if (a.repeats < 1) throw subscale::UsageError("--repeats must be >= 1");
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse(argc, argv);
    std::unique_ptr<tbb::global_control> threads;
    if (args.threads > 0)
      threads = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                      static_cast<std::size_t>(args.threads));
    const std::uint64_t rows = 1ULL << args.log2_rows;
    std::vector<std::string> dists, backends;
    if (args.dist == "both")
      dists = {"uniform", "zipf"};
    else
      dists = {args.dist};
    if (args.backend == "both")
      backends = {"cuda", "cpu"};
    else
      backends = {args.backend};
    const auto device = subscale::gpu::query_device();
    std::printf("join_bench: |R| = |S| = 2^%d = %llu, device: %s, host threads: %d\n", args.log2_rows,
                static_cast<unsigned long long>(rows), device.available ? device.name.c_str() : device.reason.c_str(),
                static_cast<int>(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
    std::printf("%-8s %-5s %-22s %9s %9s %9s %9s %9s %12s %12s %12s\n", "dist", "back", "layout", "h2d_ms", "part_ms",
                "probe_ms", "d2h_ms", "join_ms", "pairs", "Gtuple/s", "best_Gt/s");
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& dist : dists) {
      const sj::JoinRelations input =
          dist == "uniform"
              ? sj::generate_uniform({.r_rows = rows, .s_rows = rows, .overlap = args.overlap, .seed = 42})
              : sj::generate_zipf({.r_rows = rows, .s_rows = rows, .alpha = args.alpha, .seed = 42});
      for (const auto& backend_name : backends) {
        sj::JoinOptions options;
        options.backend = sj::parse_backend(backend_name);
        if (options.backend == subscale::Backend::cuda && !device.available) {
          std::printf("%-8s %-5s skipped: %s\n", dist.c_str(), backend_name.c_str(), device.reason.c_str());
          continue;
        }
        options.radix_bits = args.radix_bits;
        options.passes = args.passes;
        options.probe_chunk = args.probe_chunk;
        const sj::JoinSettings settings = sj::resolve_settings(options, rows);
        std::string layout;
        for (int bits : settings.layout.pass_bits) {
          if (!layout.empty()) layout += '+';
          layout += std::to_string(bits);
        }
        layout += " bits, chunk " + std::to_string(options.probe_chunk);
        std::uint64_t pairs = 0;
        sj::PairSink sink;
        sink.on_total = [&](std::uint64_t total) { pairs = total; };
        sink.on_batch = [](std::span<const std::uint32_t>, std::span<const std::uint32_t>) {};
        std::vector<double> join_seconds, wall_seconds;
        sj::JoinTimings last;
        for (int run = -1; run < args.repeats; ++run) {  // run -1: warm-up (device context, pages)
          sj::JoinTimings t;
          const auto start = std::chrono::steady_clock::now();
          sj::hash_join_batches(input.r_keys, input.s_keys, options, sink, &t);
          const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          if (run < 0) continue;
          join_seconds.push_back(t.join_seconds());
          wall_seconds.push_back(wall);
          last = t;
          runs.push_back({{"dist", dist},
                          {"alpha", dist == "zipf" ? args.alpha : 0.0},
                          {"backend", backend_name},
                          {"log2_rows", args.log2_rows},
                          {"pass_bits", settings.layout.pass_bits},
                          {"probe_chunk", options.probe_chunk},
                          {"transfer_in_s", t.transfer_in_seconds},
                          {"partition_s", t.partition_seconds},
                          {"probe_s", t.probe_seconds},
                          {"transfer_out_s", t.transfer_out_seconds},
                          {"join_s", t.join_seconds()},
                          {"with_copies_s", wall},
                          {"pairs", t.output_pairs},
                          {"work_items", t.work_items},
                          {"prebuilt_tables", t.prebuilt_tables},
                          {"tuples_per_s", 2.0 * static_cast<double>(rows) / t.join_seconds()}});
        }
        const double tuples = 2.0 * static_cast<double>(rows);
        std::printf("%-8s %-5s %-22s %9.2f %9.2f %9.2f %9.2f %9.2f %12llu %12.3f %12.3f\n", dist.c_str(),
                    backend_name.c_str(), layout.c_str(), 1e3 * last.transfer_in_seconds, 1e3 * last.partition_seconds,
                    1e3 * last.probe_seconds, 1e3 * last.transfer_out_seconds, 1e3 * median(join_seconds),
                    static_cast<unsigned long long>(pairs), tuples / median(join_seconds) / 1e9,
                    tuples / *std::min_element(join_seconds.begin(), join_seconds.end()) / 1e9);
        std::printf(
            "%-8s %-5s with its copies (keys in from pageable memory, pairs out to the sink): %.2f ms "
            "(median wall time of the whole call)\n",
            dist.c_str(), backend_name.c_str(), 1e3 * median(wall_seconds));
      }
    }
    if (!args.json.empty()) {
      std::ofstream out(args.json);
      out << runs.dump(2) << "\n";
      if (!out) throw subscale::Error(subscale::ExitCode::other, "cannot write " + args.json);
    }
    return 0;
  } catch (const subscale::Error& error) {
    std::cerr << "join_bench: " << error.what() << "\n";
    return static_cast<int>(error.code());
  } catch (const std::exception& error) {
    std::cerr << "join_bench: " << error.what() << "\n";
    return 1;
  }
}
