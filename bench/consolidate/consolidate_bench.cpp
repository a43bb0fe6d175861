// Times the consolidate stage alone on merge's clusters of a real run, so that its time can be
// measured apart from the core's (whose run-to-run noise on a shared machine is larger than the
// stage's whole time on the small files).
//
//   consolidate_bench --data FILE --clusters RUN/clusters_raw.txt [--truth FILE.true]
//                     [--repeat R] [--threads T] [--pairwise] [--out FILE]
//
// The data are loaded and min-max normalised as a run does; the clusters file is merge's output
// in the SUBSCALE text form (a run's clusters_raw.txt). Prints the fastest and the median of R
// runs, the stage's counters and, with --truth, F1 and E4SC of its output. --pairwise tries every
// pair of the input without gathering first (the stage before gathering, for comparisons);
// --out writes the consolidated clusters in the same text form.
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "io/ground_truth.hpp"
#include "stages/consolidate/consolidate.hpp"
#include "stages/evaluate/cluster_text.hpp"
#include "stages/evaluate/quality_measures.hpp"
#include "stages/load/load.hpp"
#include "stages/load/normalize.hpp"

using namespace subscale;

namespace {

struct Options {
  std::string data, clusters, truth, out;
  bool pairwise = false;
  int repeat = 5;
  int threads = 0;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "consolidate_bench: %s\nusage: consolidate_bench --data FILE --clusters FILE [--truth FILE] "
               "[--repeat R] [--threads T] [--pairwise] [--out FILE]\n",
               why);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--pairwise") {
      o.pairwise = true;
      continue;
    }
    if (i + 1 >= argc) usage(("missing the value of " + arg).c_str());
    const std::string value = argv[++i];
    if (arg == "--data")
      o.data = value;
    else if (arg == "--clusters")
      o.clusters = value;
    else if (arg == "--truth")
      o.truth = value;
    else if (arg == "--repeat")
      o.repeat = std::max(1, std::atoi(value.c_str()));
    else if (arg == "--out")
      o.out = value;
    else if (arg == "--threads")
      o.threads = std::atoi(value.c_str());
    else
      usage(("unknown option " + arg).c_str());
  }
  if (o.data.empty() || o.clusters.empty()) usage("--data and --clusters are required");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  try {
    load::LoadOptions load_options;
    load_options.path = options.data;
    Dataset data = load::load_dataset(load_options);
    load::normalize(data, load::Normalization::minmax);
    const std::vector<SubspaceCluster> raw = evaluate::read_cluster_text(options.clusters);

    std::vector<double> seconds;
    consolidate::ConsolidateResult result;
    for (int r = 0; r < options.repeat; ++r) {
      const auto start = std::chrono::steady_clock::now();
      consolidate::ConsolidateParams params;
      params.gather = !options.pairwise;
      result = consolidate::consolidate_clusters(data.values, raw, params);
      seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(seconds.begin(), seconds.end());
    const auto& s = result.stats;
    std::printf("%s: %zu points x %zu dims, %zu clusters in, %llu out, %d threads\n", options.data.c_str(),
                data.points(), data.dimensions(), raw.size(), static_cast<unsigned long long>(s.clusters), threads);
    std::printf("consolidate: fastest %.4f s, median %.4f s of %d\n", seconds.front(), seconds[seconds.size() / 2],
                options.repeat);
    std::printf("candidate pairs %llu, joins %llu, refused %llu, dimensions added %llu, redundant %llu, passes %llu\n",
                static_cast<unsigned long long>(s.candidate_pairs), static_cast<unsigned long long>(s.joins),
                static_cast<unsigned long long>(s.rejected_joins),
                static_cast<unsigned long long>(s.extended_dimensions), static_cast<unsigned long long>(s.redundant),
                static_cast<unsigned long long>(s.passes));
    if (!options.out.empty()) {
      std::ofstream out(options.out);
      for (const SubspaceCluster& c : result.clusters) out << c << '\n';
      if (!out.flush()) throw std::runtime_error("cannot write " + options.out);
    }
    if (!options.truth.empty()) {
      io::GroundTruthOptions truth_options;
      truth_options.dimensions = data.dimensions();
      truth_options.points = data.points();
      const auto truth = io::read_ground_truth(options.truth, truth_options);
      const auto q = evaluate::evaluate(result.clusters, truth.clusters, data.points(), data.dimensions());
      std::printf("F1 %.4f, E4SC %.4f\n", q.f1, q.e4sc);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "consolidate_bench: %s\n", error.what());
    return 1;
  }
  return 0;
}
