#include "distributed/distributed_merge.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>

#include "distributed/subspace_pairs.hpp"

namespace subscale::distributed {
namespace {

constexpr std::size_t kCounters = 8;

std::array<std::uint64_t, kCounters> counters_of(const merge::MergeStats& s) {
  return {s.subspaces,   s.points_visited, s.distance_computations, s.clusters,
          s.core_points, s.border_points,  s.noise_points,          s.clusters_set_aside};
}

}  // namespace

template <class T>
std::optional<merge::MergeResult> merge_across_processes(const Communicator& comm, const ColumnMatrix<T>& values,
                                                         const std::vector<SubspaceCluster>& owned,
                                                         const merge::MergeParams& params, merge::ClusterSieve* sieve) {
  merge::FoundClusters found;
  std::exception_ptr failure;
  try {
    // This process's count is at most the count of all, so the sieve's early answer holds.
    found = merge::find_clusters(values, owned, params, {}, sieve);
  } catch (...) {
    failure = std::current_exception();
  }
  comm.agree(failure);
  // The sieve sees the number found by all processes, as in a single process.
  const std::uint64_t found_in_all = comm.sum(found.stats.clusters);
  merge::MergeResult mine = merge::assemble_clusters(std::move(found), owned, sieve, found_in_all);
  std::array<std::uint64_t, kCounters> totals{};
  const auto counters = counters_of(mine.stats);
  for (std::size_t c = 0; c < kCounters; ++c) totals[c] = comm.sum(counters[c]);
  const std::vector<Bytes> parts = comm.gather(encode_clusters(mine.clusters));
  if (!comm.is_root()) return std::nullopt;
  merge::MergeResult all;
  for (const Bytes& part : parts) {
    std::vector<SubspaceCluster> clusters = decode_clusters(part);
    std::move(clusters.begin(), clusters.end(), std::back_inserter(all.clusters));
  }
  std::sort(all.clusters.begin(), all.clusters.end(), [](const SubspaceCluster& a, const SubspaceCluster& b) {
    return a.dimensions != b.dimensions ? a.dimensions < b.dimensions : a.points < b.points;
  });
  all.sizes.reserve(all.clusters.size());
  for (const auto& cluster : all.clusters) all.sizes.push_back(cluster.points.size());
  merge::MergeStats& s = all.stats;
  s.subspaces = totals[0];
  s.points_visited = totals[1];
  s.distance_computations = totals[2];
  s.clusters = totals[3];
  s.core_points = totals[4];
  s.border_points = totals[5];
  s.noise_points = totals[6];
  s.clusters_set_aside = totals[7];
  return all;
}

std::vector<SubspaceCluster> deal_out_from_root(const Communicator& comm, const std::vector<SubspaceCluster>& on_root) {
  const auto processes = static_cast<std::size_t>(comm.size());
  std::vector<Bytes> to_each(processes);
  if (comm.is_root()) {
    std::vector<std::vector<SubspaceCluster>> shares(processes);
    for (std::size_t i = 0; i < on_root.size(); ++i) shares[i % processes].push_back(on_root[i]);
    for (std::size_t r = 0; r < processes; ++r) to_each[r] = encode_clusters(shares[r]);
  }
  std::vector<Bytes> received = comm.all_to_all(std::move(to_each));
  return decode_clusters(received.at(0));
}

template std::optional<merge::MergeResult> merge_across_processes(const Communicator&, const Matrix32&,
                                                                  const std::vector<SubspaceCluster>&,
                                                                  const merge::MergeParams&, merge::ClusterSieve*);
template std::optional<merge::MergeResult> merge_across_processes(const Communicator&, const Matrix&,
                                                                  const std::vector<SubspaceCluster>&,
                                                                  const merge::MergeParams&, merge::ClusterSieve*);

}  // namespace subscale::distributed
