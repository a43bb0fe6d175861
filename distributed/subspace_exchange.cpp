#include "distributed/subspace_exchange.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "common/page_population.hpp"
#include "common/phase_timer.hpp"
#include "distributed/subspace_combining.hpp"
#include "distributed/subspace_pairs.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/subspaces/subspaces.hpp"

namespace subscale::distributed {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t bytes_from_others(const std::vector<Bytes>& parts, int me) {
  std::uint64_t bytes = 0;
  for (std::size_t r = 0; r < parts.size(); ++r)
    if (static_cast<int>(r) != me) bytes += parts[r].size();
  return bytes;
}

bool view_before(const ClusterView& a, const ClusterView& b) { return subspace_order(a.dimensions, b.dimensions); }

// Where the sorted lists are cut so that the merged output falls into `chunks` pieces of about one
// size: splitters drawn from every list's quantiles; cut k of list p is the first element of p not
// before splitter k, so equal elements fall into one piece whatever list holds them.
std::vector<std::vector<std::size_t>> cut_points(const std::vector<std::vector<ClusterView>>& lists,
                                                 std::size_t chunks) {
  std::vector<ClusterView> candidates;
  for (const auto& list : lists)
    for (std::size_t k = 1; k < chunks && !list.empty(); ++k) candidates.push_back(list[k * list.size() / chunks]);
  std::sort(candidates.begin(), candidates.end(), view_before);
  std::vector<std::vector<std::size_t>> cuts(chunks + 1, std::vector<std::size_t>(lists.size(), 0));
  for (std::size_t p = 0; p < lists.size(); ++p) cuts[chunks][p] = lists[p].size();
  tbb::parallel_for(std::size_t{1}, chunks, [&](std::size_t k) {
    if (candidates.empty()) return;
    const ClusterView& splitter = candidates[k * candidates.size() / chunks];
    for (std::size_t p = 0; p < lists.size(); ++p)
      cuts[k][p] = static_cast<std::size_t>(std::lower_bound(lists[p].begin(), lists[p].end(), splitter, view_before) -
                                            lists[p].begin());
  });
  return cuts;
}

// Sorted lists merged into one sorted list: cut into pieces, each piece merged on its own thread
// by walking the lists' heads in order (on ties, the lower list first).
std::vector<ClusterView> merge_views(const std::vector<std::vector<ClusterView>>& lists) {
  std::size_t total = 0;
  for (const auto& list : lists) total += list.size();
  const std::size_t chunks = std::clamp<std::size_t>(total / 16384, 1, 256);
  const auto cuts = cut_points(lists, chunks);
  std::vector<std::size_t> first(chunks + 1, 0);
  for (std::size_t k = 0; k < chunks; ++k)
    for (std::size_t p = 0; p < lists.size(); ++p) first[k + 1] += cuts[k + 1][p] - cuts[k][p];
  for (std::size_t k = 0; k < chunks; ++k) first[k + 1] += first[k];
  std::vector<ClusterView> merged;
  resize_populated(merged, total);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t k) {
    std::vector<std::size_t> at = cuts[k];
    for (std::size_t out = first[k]; out < first[k + 1]; ++out) {
      std::size_t best = lists.size();
      for (std::size_t p = 0; p < lists.size(); ++p)
        if (at[p] < cuts[k + 1][p] && (best == lists.size() || view_before(lists[p][at[p]], lists[best][at[best]])))
          best = p;
      merged[out] = lists[best][at[best]++];
    }
  });
  return merged;
}

}  // namespace

std::vector<SubspaceCluster> merge_cluster_lists(const std::vector<Bytes>& parts) {
  std::vector<std::vector<ClusterView>> lists(parts.size());
  tbb::parallel_for(std::size_t{0}, parts.size(), [&](std::size_t p) { lists[p] = view_clusters(parts[p]); });
  return clusters_of(merge_views(lists));
}

int owner_of(const std::uint64_t* key, std::uint32_t key_words, int processes) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::uint32_t w = 0; w < key_words; ++w) h = hash::fmix64(h ^ key[w]);
  return static_cast<int>(h % static_cast<std::uint64_t>(processes));
}

OwnedSubspaces exchange_by_owner(const Communicator& comm, const dense_units::direct::DirectSubspaceMap& mine) {
  OwnedSubspaces owned;
  const std::uint32_t key_words = mine.key_words();
  auto start = Clock::now();
  std::vector<Bytes> outgoing = encode_pairs_by_group(
      mine, static_cast<std::size_t>(comm.size()),
      [&](const std::uint64_t* key) { return static_cast<std::size_t>(owner_of(key, key_words, comm.size())); });
  owned.bytes_sent = bytes_from_others(outgoing, comm.rank());
  owned.encode_seconds = seconds_since(start);
  start = Clock::now();
  const std::vector<Bytes> incoming = comm.all_to_all(std::move(outgoing));
  owned.bytes_received = bytes_from_others(incoming, comm.rank());
  owned.transfer_seconds = seconds_since(start);
  start = Clock::now();
  std::vector<std::string> names;
  for (int r = 0; r < comm.size(); ++r) names.push_back("subspaces from process " + std::to_string(r));
  owned.subspaces = combine_pairs(incoming, key_words, mine.point_words(), names);
  owned.combine_seconds = seconds_since(start);
  return owned;
}

GatheredSubspaces gather_subspaces(const Communicator& comm, const std::vector<SubspaceCluster>& owned) {
  GatheredSubspaces gathered;
  auto start = Clock::now();
  std::vector<Bytes> parts = comm.gather(encode_clusters(owned));
  gathered.transfer_seconds = seconds_since(start);
  if (!comm.is_root()) return gathered;
  start = Clock::now();
  gathered.bytes = bytes_from_others(parts, comm.rank());
  gathered.subspaces = merge_cluster_lists(parts);
  gathered.list_seconds = seconds_since(start);
  return gathered;
}

}  // namespace subscale::distributed
