#include "cluster/subspace_exchange.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "cluster/subspace_combining.hpp"
#include "cluster/subspace_pairs.hpp"
#include "common/page_population.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/subspaces/subspaces.hpp"

namespace subscale::cluster {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::uint64_t bytes_from_others(const std::vector<Bytes>& parts, int me) {
  std::uint64_t bytes = 0;
  for (std::size_t r = 0; r < parts.size(); ++r)
    if (static_cast<int>(r) != me) bytes += parts[r].size();
  return bytes;
}

bool dimensions_before(const SubspaceCluster& a, const SubspaceCluster& b) {
  return subspace_order(a.dimensions, b.dimensions);
}

}  // namespace

std::vector<SubspaceCluster> merge_ordered(std::vector<std::vector<SubspaceCluster>> lists) {
  // Each subspace's place is its place in its own list plus the number of subspaces before it in
  // each other list, found by binary search on all threads; then every subspace moves once (only
  // after all places are known: a moved-from subspace would mislead the searches). Lists before a
  // subspace's own count their equal entries too, so places stay distinct even if two lists held
  // one subspace.
  std::size_t total = 0;
  for (const auto& list : lists) total += list.size();
  std::vector<std::vector<std::size_t>> places(lists.size());
  tbb::parallel_for(std::size_t{0}, lists.size(), [&](std::size_t p) {
    places[p].resize(lists[p].size());
    tbb::parallel_for(std::size_t{0}, lists[p].size(), [&](std::size_t i) {
      std::size_t place = i;
      for (std::size_t q = 0; q < lists.size(); ++q) {
        if (q == p) continue;
        const auto& other = lists[q];
        place += static_cast<std::size_t>(
            (q < p ? std::upper_bound(other.begin(), other.end(), lists[p][i], dimensions_before)
                   : std::lower_bound(other.begin(), other.end(), lists[p][i], dimensions_before)) -
            other.begin());
      }
      places[p][i] = place;
    });
  });
  std::vector<SubspaceCluster> all;
  resize_populated(all, total);
  tbb::parallel_for(std::size_t{0}, lists.size(), [&](std::size_t p) {
    tbb::parallel_for(std::size_t{0}, lists[p].size(),
                      [&](std::size_t i) { all[places[p][i]] = std::move(lists[p][i]); });
  });
  return all;
}

int owner_of(const std::uint64_t* key, std::uint32_t key_words, int processes) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::uint32_t w = 0; w < key_words; ++w) h = hash::fmix64(h ^ key[w]);
  return static_cast<int>(h % static_cast<std::uint64_t>(processes));
}

OwnedSubspaces exchange_by_owner(const Communicator& comm, const direct::DirectSubspaceMap& mine) {
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
  std::vector<std::vector<SubspaceCluster>> lists(parts.size());
  for (std::size_t p = 0; p < parts.size(); ++p) {
    lists[p] = decode_clusters(parts[p]);
    Bytes().swap(parts[p]);
  }
  gathered.subspaces = merge_ordered(std::move(lists));
  gathered.list_seconds = seconds_since(start);
  return gathered;
}

}  // namespace subscale::cluster
