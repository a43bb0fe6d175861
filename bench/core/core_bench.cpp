// Whole-core timing on a real dataset: load + normalise (untimed), then density1d, plan,
// dense_units and subspaces, each timed, in one process per configuration so that the peak
// resident memory belongs to that configuration alone. Prints one Markdown table row.
//
//   core_bench FILE --epsilon 0.005 --min-points 4 [--mode direct|signature|exact] [--bits 128]
//              [--keys uniform|subscale] [--scheme adaptive|equal] [--partitions N]
//              [--backend cpu|cuda] [--threads T] [--header]
//              [--units-per-run N] [--walk-lanes 1|32] [--resolve-chunk N]   (GPU tuning; 0 = automatic)
#include <sys/resource.h>
#include <tbb/task_arena.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "common/error.hpp"
#include "common/held_values.hpp"
#include "gpu/device_info.hpp"
#include "stages/core/core.hpp"
#include "stages/load/load.hpp"
#include "stages/load/normalize.hpp"

using namespace subscale;

// FNV-1a over every subspace's dimension count, dimensions, point count and points, in order.
std::uint64_t subspaces_digest(const std::vector<SubspaceCluster>& subspaces) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  auto add = [&](std::uint64_t value) {
    for (int byte = 0; byte < 8; ++byte, value >>= 8) hash = (hash ^ (value & 0xff)) * 0x100000001b3ULL;
  };
  for (const SubspaceCluster& s : subspaces) {
    add(s.dimensions.size());
    for (const std::uint32_t d : s.dimensions) add(d);
    add(s.points.size());
    for (const std::uint32_t p : s.points) add(p);
  }
  return hash;
}

int main(int argc, char** argv) {
  CLI::App app{"Times the SUBSCALE core (density1d -> subspaces) on one dataset"};
  std::string file, mode = "signature", keys = "uniform", scheme = "adaptive", backend = "cpu", precision = "float64";
  double epsilon = 0.005;
  std::uint32_t min_points = 4, bits = 128;
  std::size_t partitions = 0;
  int threads = 0;
  bool header = false;
  std::uint32_t units_per_run = 0, walk_lanes = 0;
  std::uint64_t resolve_chunk = 0, subspace_capacity = 0, pair_table_bytes = 0, list_chunk_ids = 0;
  app.add_option("file", file, "ARFF, CSV or HDF5 dataset")->required();
  app.add_option("--epsilon", epsilon);
  app.add_option("--min-points", min_points);
  app.add_option("--mode", mode);
  app.add_option("--bits", bits);
  app.add_option("--keys", keys);
  app.add_option("--scheme", scheme);
  app.add_option("--partitions", partitions, "0 = from the memory budget");
  app.add_option("--backend", backend);
  app.add_option("--precision", precision, "float64 or float32: the precision the values are held in");
  app.add_option("--threads", threads, "0 = all cores");
  app.add_flag("--header", header, "print the table header first");
  app.add_option("--units-per-run", units_per_run, "GPU: units a thread walks per search and unrank (0 = auto)");
  app.add_option("--walk-lanes", walk_lanes, "GPU: 1 (thread walks) or 32 (warp walks); 0 = by window size");
  app.add_option("--resolve-chunk", resolve_chunk, "GPU: duplicates resolved per chunk (0 = auto)");
  app.add_option("--subspace-capacity", subspace_capacity, "GPU: subspaces the device table holds (0 = budget)");
  app.add_option("--list-chunk-ids", list_chunk_ids,
                 "GPU, direct mode: ids a chunk of the subspace lists takes to the host (0 = automatic)");
  app.add_option("--device-pair-table-bytes", pair_table_bytes,
                 "GPU, direct mode: bytes the device pair table may take (0 = automatic, 1 = none)");
  bool count_units = false;
  app.add_flag("--count-units", count_units,
               "direct mode on the CPU: walk every unit, passing over no covered subtree, so that all units in "
               "two or more dimensions are counted");
  bool digest = false;
  app.add_flag("--digest", digest,
               "print a 64-bit digest of the subspaces (their order, dimensions and points), to check that two "
               "builds or backends give the same subspaces without writing them out");
  CLI11_PARSE(app, argc, argv);
  try {
    load::LoadOptions load_options;
    load_options.path = file;
    Dataset data = load::load_dataset(load_options);
    load::normalize(data, load::Normalization::minmax);
    const HeldValues held = HeldValues::hold(std::move(data.values), parse_precision(precision, "--precision"), file);
    CoreParams params;
    params.epsilon = epsilon;
    params.min_points = min_points;
    params.units.mode = parse_table_mode(mode);
    params.units.signature_bits = bits;
    params.units.keys = parse_key_scheme(keys);
    params.units.scheme = parse_partition_scheme(scheme);
    params.units.partitions = partitions;
    params.units.seed = 1;
    params.units.device_units_per_run = units_per_run;
    params.units.device_resolve_chunk = resolve_chunk;
    params.units.device_walk_lanes = walk_lanes;
    params.units.device_subspace_capacity = subspace_capacity;
    params.units.device_pair_table_bytes = pair_table_bytes;
    params.units.device_list_chunk_ids = list_chunk_ids;
    params.units.direct_count_units = count_units;
    params.backend = backend == "cuda" ? subscale::Backend::cuda : subscale::Backend::cpu;
    if (params.backend == subscale::Backend::cuda) {
      // Create the CUDA context before the clock starts: a once-per-process cost, reported apart.
      const auto start = std::chrono::steady_clock::now();
      const auto device = gpu::query_device();
      std::fprintf(stderr, "device: %s, context start %.3f s\n",
                   device.available ? device.name.c_str() : device.reason.c_str(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
    CoreResult result;
    arena.execute([&] { held.visit([&](const auto& values) { result = core::run_core(values, params); }); });
    std::fprintf(stderr, "values held as %s (%zu bytes)\n", to_string(held.precision()), held.bytes());
    const auto& t = result.timings;
    const double core = t.density1d_seconds + t.plan_seconds + t.dense_units_seconds + t.subspaces_seconds;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::uint64_t fullest = 0, sum = 0;
    for (const auto& p : result.dense_units.partitions) fullest = std::max(fullest, p.units), sum += p.units;
    const double mean = result.dense_units.partitions.empty()
                            ? 0.0
                            : static_cast<double>(sum) / static_cast<double>(result.dense_units.partitions.size());
    std::fprintf(stderr, "phases (%s):", backend.c_str());
    for (const auto& [phase, seconds] : result.dense_units.phase_seconds)
      std::fprintf(stderr, " %s %.3f s;", phase.c_str(), seconds);
    const auto& du = result.dense_units;
    std::fprintf(
        stderr,
        " passes %.0f, splits %u, multi-dimension units %zu, device memory %.0f MiB, subspaces on device "
        "%zu, resolved members %zu\n",
        result.total_units ? static_cast<double>(du.enumerated_units) / static_cast<double>(result.total_units) : 0.0,
        du.partition_splits, static_cast<std::size_t>(du.distinct_multi_units),
        static_cast<double>(du.device_bytes) / 1048576.0, static_cast<std::size_t>(du.device_subspaces),
        static_cast<std::size_t>(du.resolved_members));
    for (const auto& note : du.notes) std::fprintf(stderr, "note: %s\n", note.c_str());
    if (digest)
      std::fprintf(stderr, "subspaces digest: %016llx\n",
                   static_cast<unsigned long long>(subspaces_digest(result.subspaces)));
    if (params.units.mode == TableMode::direct)
      std::fprintf(
          stderr,
          "direct: %llu nodes for %llu units (%.4f a unit), %llu items, %llu covered subtrees passed over, %.3g "
          "multi-dimension units/s in dense_units, %zu subspaces, peak device memory %.0f MiB\n",
          static_cast<unsigned long long>(du.walk_nodes), static_cast<unsigned long long>(result.total_units),
          result.total_units ? static_cast<double>(du.walk_nodes) / static_cast<double>(result.total_units) : 0.0,
          static_cast<unsigned long long>(du.walk_items), static_cast<unsigned long long>(du.walk_covered),
          static_cast<double>(du.distinct_multi_units) / std::max(t.dense_units_seconds, 1e-9), result.subspaces.size(),
          static_cast<double>(du.device_bytes) / 1048576.0);
    if (header) {
      std::printf(
          "| file | eps | m | backend | threads | mode | bits | keys | scheme | partitions | dense units | "
          "density1d s | plan s | dense_units s | subspaces s | core s | units/s | fullest/mean | subspaces "
          "| peak RSS MiB |\n|");
      for (int i = 0; i < 20; ++i) std::printf("---|");
      std::printf("\n");
    }
    std::printf(
        "| %s | %g | %u | %s | %d | %s | %u | %s | %s | %zu | %llu | %.3f | %.3f | %.3f | %.3f | %.3f | %.3g | "
        "%.3f | %zu | %.0f |\n",
        file.substr(file.find_last_of('/') + 1).c_str(), epsilon, min_points, backend.c_str(),
        threads > 0 ? threads : tbb::this_task_arena::max_concurrency(), mode.c_str(), bits, keys.c_str(),
        scheme.c_str(), result.dense_units.partitions.size(), static_cast<unsigned long long>(result.total_units),
        t.density1d_seconds, t.plan_seconds, t.dense_units_seconds, t.subspaces_seconds, core,
        static_cast<double>(result.total_units) / core, mean > 0 ? static_cast<double>(fullest) / mean : 0.0,
        result.subspaces.size(), static_cast<double>(usage.ru_maxrss) / 1024.0);
    return 0;
  } catch (const Error& error) {
    std::cerr << "core_bench: " << error.what() << "\n";
    return static_cast<int>(error.code());
  }
}
