// Times the merge stage on the input the core would give it for a real file (by default
// OpenSubspace's S1500 with m = 4, epsilon = 0.005, docs/method.md §3-§8 computed exactly by
// exact_subspaces.hpp), then scores the clusters against the file's ground truth.
//
//   merge_bench [--arff FILE] [--truth FILE] [--epsilon E] [--min-points M]
//               [--merge-epsilon E] [--merge-min-points M] [--repeat R] [--threads T]
//               [--synthetic] [--json FILE] [--subspaces FILE] [--write-subspaces FILE]
//
// --subspaces reads the (S, P_S) list in the SUBSCALE text form ({dims}-[points], one a line;
// e.g. the core's maximaldense output) instead of computing it; --write-subspaces saves it.
// Without --arff it looks for S1500.arff under $SUBSCALE_SHARED_DIR (else ../shared next to the
// source tree); --synthetic (or no file found) generates OpenSubspace-like data instead.
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench/merge/bench_input.hpp"
#include "bench/merge/exact_subspaces.hpp"
#include "common/phase_timer.hpp"
#include "io/ground_truth.hpp"
#include "stages/evaluate/cluster_text.hpp"
#include "stages/evaluate/quality_measures.hpp"
#include "stages/merge/merge.hpp"

namespace fs = std::filesystem;
using namespace subscale;

namespace {

struct Options {
  std::string arff, truth, json, subspaces, write_subspaces;
  double epsilon = 0.005;
  std::size_t min_points = 4;
  std::optional<double> merge_epsilon;
  std::optional<std::size_t> merge_min_points;
  int repeat = 5;
  int threads = 0;
  bool synthetic = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--arff")
      o.arff = next();
    else if (a == "--truth")
      o.truth = next();
    else if (a == "--json")
      o.json = next();
    else if (a == "--subspaces")
      o.subspaces = next();
    else if (a == "--write-subspaces")
      o.write_subspaces = next();
    else if (a == "--epsilon")
      o.epsilon = std::stod(next());
    else if (a == "--min-points")
      o.min_points = std::stoul(next());
    else if (a == "--merge-epsilon")
      o.merge_epsilon = std::stod(next());
    else if (a == "--merge-min-points")
      o.merge_min_points = std::stoul(next());
    else if (a == "--repeat")
      o.repeat = std::max(1, std::stoi(next()));
    else if (a == "--threads")
      o.threads = std::stoi(next());
    else if (a == "--synthetic")
      o.synthetic = true;
    else
      throw std::runtime_error("unknown option " + a + " (see the comment at the top of merge_bench.cpp)");
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) try {
  Options o = parse(argc, argv);
  std::optional<tbb::global_control> limit;
  if (o.threads > 0) limit.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(o.threads));

  if (o.arff.empty() && !o.synthetic) {
    const char* shared = std::getenv("SUBSCALE_SHARED_DIR");
    const fs::path base = shared ? fs::path(shared) : fs::path(SUBSCALE_SOURCE_DIR) / ".." / "shared";
    const fs::path s1500 = base / "datasets" / "opensubspace" / "synth_dbsizescale" / "S1500.arff";
    if (fs::exists(s1500))
      o.arff = s1500.string();
    else
      std::cerr << "no " << s1500 << "; using synthetic data\n";
  }
  Matrix x;
  std::vector<SubspaceCluster> hidden;
  std::string input;
  if (!o.arff.empty()) {
    x = bench::read_arff_numeric(o.arff);
    input = fs::path(o.arff).filename().string();
    if (o.truth.empty()) o.truth = fs::path(o.arff).replace_extension(".true").string();
    if (fs::exists(o.truth)) {
      hidden = io::read_ground_truth(o.truth, {static_cast<std::size_t>(x.cols()), static_cast<std::size_t>(x.rows())})
                   .clusters;
    }
  } else {
    x = bench::synthetic_subspace_data(20, 10, 150, 100, 0.004, 42, hidden);
    input = "synthetic(n=1600,d=20,10 clusters)";
  }
  bench::normalise_minmax(x);

  const auto build_start = std::chrono::steady_clock::now();
  bench::ExactSubspaces core;
  if (!o.subspaces.empty()) {
    core.subspaces = evaluate::read_cluster_text(o.subspaces);
  } else {
    core = bench::exact_subspaces(x, o.epsilon, o.min_points);
  }
  const double build_seconds = seconds_since(build_start);
  if (!o.write_subspaces.empty()) {
    std::ofstream out(o.write_subspaces);
    for (const auto& s : core.subspaces) out << s << '\n';
  }
  std::uint64_t subspace_points = 0;
  std::size_t largest = 0;
  for (const auto& s : core.subspaces) {
    subspace_points += s.points.size();
    largest = std::max(largest, s.points.size());
  }

  merge::MergeParams params{o.merge_epsilon.value_or(o.epsilon), o.merge_min_points.value_or(o.min_points), 4096};
  merge::MergeResult result = merge::merge_subspaces(x, core.subspaces, params);  // warm-up
  std::vector<double> times;
  for (int r = 0; r < o.repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    result = merge::merge_subspaces(x, core.subspaces, params);
    times.push_back(seconds_since(start));
  }
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];

  std::printf("input            %s: n = %lld, d = %lld\n", input.c_str(), static_cast<long long>(x.rows()),
              static_cast<long long>(x.cols()));
  if (!o.subspaces.empty()) std::printf("subspaces from  %s\n", o.subspaces.c_str());
  std::printf("core (exact, bench-only) m = %zu, epsilon = %g: %llu dense units, %llu in 2+ dims, %.2f s\n",
              o.min_points, o.epsilon, static_cast<unsigned long long>(core.dense_units),
              static_cast<unsigned long long>(core.multi_dimensional_units), build_seconds);
  std::printf("merge input      %zu subspaces, %llu points in all, largest |P_S| = %zu\n", core.subspaces.size(),
              static_cast<unsigned long long>(subspace_points), largest);
  std::printf("merge            epsilon = %g, min_points = %zu, threads = %d\n", params.epsilon, params.min_points,
              tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism) > 0
                  ? static_cast<int>(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism))
                  : tbb::info::default_concurrency());
  std::printf("merge time       median %.6f s, min %.6f s, max %.6f s over %d runs\n", median, times.front(),
              times.back(), o.repeat);
  std::printf("merge rate       %.0f subspaces/s, %.3g points/s, %.3g distance computations/s\n",
              static_cast<double>(core.subspaces.size()) / median, static_cast<double>(subspace_points) / median,
              static_cast<double>(result.stats.distance_computations) / median);
  std::printf("merge output     %llu clusters; %llu core, %llu border, %llu noise points; %llu distance computations\n",
              static_cast<unsigned long long>(result.stats.clusters),
              static_cast<unsigned long long>(result.stats.core_points),
              static_cast<unsigned long long>(result.stats.border_points),
              static_cast<unsigned long long>(result.stats.noise_points),
              static_cast<unsigned long long>(result.stats.distance_computations));

  nlohmann::json summary{{"input", input},
                         {"n", x.rows()},
                         {"d", x.cols()},
                         {"core_min_points", o.min_points},
                         {"core_epsilon", o.epsilon},
                         {"dense_units", core.dense_units},
                         {"subspaces", core.subspaces.size()},
                         {"subspace_points", subspace_points},
                         {"merge_epsilon", params.epsilon},
                         {"merge_min_points", params.min_points},
                         {"merge_seconds_median", median},
                         {"merge_seconds_min", times.front()},
                         {"subspaces_per_second", static_cast<double>(core.subspaces.size()) / median},
                         {"clusters", result.stats.clusters},
                         {"distance_computations", result.stats.distance_computations}};
  if (!hidden.empty()) {
    const evaluate::QualityMeasures q = evaluate::evaluate(result.clusters, hidden, static_cast<std::size_t>(x.rows()),
                                                           static_cast<std::size_t>(x.cols()));
    evaluate::print_quality_table(std::cout, q);
    summary["quality"] = {{"f1", q.f1}, {"f1_recall", q.f1_recall}, {"e4sc", q.e4sc}, {"rnia", q.rnia},
                          {"ce", q.ce}, {"coverage", q.coverage}};
  }
  if (!o.json.empty()) std::ofstream(o.json) << summary.dump(2) << '\n';
  return 0;
} catch (const std::exception& e) {
  std::cerr << "merge_bench: " << e.what() << '\n';
  return 1;
}
