// Times a cluster run's combining of subspaces (the all-to-all to the owners, their combining, the
// gather of the ordered lists on the root) on generated maps shaped like a large direct walk's:
// run it under `mpirun -n P`, one map a process. This is the step of a cluster run that does not
// shrink with more GPUs, so its time at P processes bounds the run's parallel efficiency at P GPUs
// without needing P GPUs. The maps are made before the clock starts.
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "common/phase_timer.hpp"
#include "distributed/communicator.hpp"
#include "distributed/mpi_session.hpp"
#include "distributed/subspace_exchange.hpp"
#include "gpu/hash/hash_functions.hpp"

namespace {

using namespace subscale;

// A small counter-based generator (the maps hold millions of subspaces; seeding a Mersenne twister
// for each took most of the set-up).
struct SplitMix {
  std::uint64_t state;
  std::uint64_t operator()() { return hash::fmix64(state += 0x9e3779b97f4a7c15ULL); }
  double uniform() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }
};

struct Shape {
  std::uint64_t subspaces = 6'800'000;  // distinct, over all processes
  double share = 0.7;                   // chance that a process's walk met a given subspace
  std::uint32_t dimensions = 500, points = 1800, dense_dimensions = 25, mean_points = 15;
};

// Process `rank`'s map: subspace s (drawn from its own seed, so every process agrees on its mask)
// is in the map with probability `share`, with points drawn from the process's seed. Masks: 2 to 6
// dimensions, half of them among the first `dense_dimensions` (ties concentrate in few features).
dense_units::direct::DirectSubspaceMap make_map(const Shape& shape, int rank) {
  const std::uint32_t key_words = (shape.dimensions + 63) / 64, point_words = (shape.points + 63) / 64;
  dense_units::direct::DirectSubspaceMap map(key_words, point_words);
  map.reserve(static_cast<std::uint64_t>(static_cast<double>(shape.subspaces) * shape.share * 1.1));
  std::vector<std::uint64_t> key(key_words), bitmap(point_words);
  for (std::uint64_t s = 0; s < shape.subspaces; ++s) {
    SplitMix mine{hash::fmix64(s * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(rank) + 1)};
    if (mine.uniform() >= shape.share) continue;
    SplitMix shared{hash::fmix64(s + 0x5bd1e995)};
    std::fill(key.begin(), key.end(), 0);
    const std::uint32_t size = 2 + static_cast<std::uint32_t>(shared() % 5);
    for (std::uint32_t d = 0; d < size; ++d) {
      const std::uint32_t dim = shared() % 2 == 0 ? static_cast<std::uint32_t>(shared() % shape.dimensions)
                                                  : static_cast<std::uint32_t>(shared() % shape.dense_dimensions);
      key[dim / 64] |= std::uint64_t{1} << (dim % 64);
    }
    key[0] |= std::uint64_t{1} << 63;  // keeps masks of one draw distinct from a shorter draw's
    std::fill(bitmap.begin(), bitmap.end(), 0);
    // Geometric counts of mean mean_points, at least 4 (m = 4).
    const double draw = std::max(mine.uniform(), 1e-12);
    const auto extra = static_cast<std::uint32_t>(std::log(draw) / std::log(1.0 - 1.0 / shape.mean_points));
    for (std::uint32_t p = 0, points = 4 + extra; p < points; ++p) {
      const auto point = static_cast<std::uint32_t>(mine() % shape.points);
      bitmap[point / 64] |= std::uint64_t{1} << (point % 64);
    }
    map.add(key.data(), bitmap.data());
  }
  return map;
}

}  // namespace

int main(int argc, char** argv) {
  distributed::MpiSession session(argc, argv);
  const distributed::Communicator comm = distributed::Communicator::world();
  Shape shape;
  int threads = 0, repeats = 3;
  CLI::App app{"Times the combining of subspaces of a cluster run (run under mpirun -n P)"};
  app.add_option("--subspaces", shape.subspaces, "Distinct subspaces over all processes");
  app.add_option("--share", shape.share, "Chance that a process holds a given subspace, in (0, 1]");
  app.add_option("--mean-points", shape.mean_points, "Mean points a subspace holds in one process");
  app.add_option("--threads", threads, "Threads a process (0: the node's cores shared among its processes)");
  app.add_option("--repeats", repeats, "Timed repeats");
  CLI11_PARSE(app, argc, argv);
  if (threads == 0)
    threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / std::max(1, comm.local_size()));
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));

  const dense_units::direct::DirectSubspaceMap mine = make_map(shape, comm.rank());
  const std::uint64_t held = comm.sum(mine.size());
  if (comm.is_root())
    std::printf("%d process(es) x %d thread(s); %llu subspaces drawn, %llu held over all maps\n", comm.size(), threads,
                static_cast<unsigned long long>(shape.subspaces), static_cast<unsigned long long>(held));
  for (int r = 0; r < repeats; ++r) {
    comm.barrier();
    const auto start = std::chrono::steady_clock::now();
    const distributed::OwnedSubspaces owned = distributed::exchange_by_owner(comm, mine);
    const distributed::GatheredSubspaces gathered = distributed::gather_subspaces(comm, owned.subspaces);
    const double total = comm.max(seconds_since(start));
    if (comm.is_root())
      std::printf(
          "combined %zu subspaces in %.3f s: encoding %.3f, all-to-all %.3f (%.2f GB out), combining %.3f (%zu "
          "owned), gather %.3f (%.2f GB), lists %.3f\n",
          gathered.subspaces.size(), total, owned.encode_seconds, owned.transfer_seconds,
          static_cast<double>(owned.bytes_sent) / 1e9, owned.combine_seconds, owned.subspaces.size(),
          gathered.transfer_seconds, static_cast<double>(gathered.bytes) / 1e9, gathered.list_seconds);
  }
  return 0;
}
