#include "cluster/subspace_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "cluster/subspace_pairs.hpp"
#include "gpu/hash/hash_functions.hpp"
#include "stages/subspaces/subspaces.hpp"

namespace subscale::cluster {

int owner_of(const std::uint64_t* key, std::uint32_t key_words, int processes) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::uint32_t w = 0; w < key_words; ++w) h = hash::fmix64(h ^ key[w]);
  return static_cast<int>(h % static_cast<std::uint64_t>(processes));
}

direct::DirectSubspaceMap exchange_by_owner(const Communicator& comm, const direct::DirectSubspaceMap& mine) {
  const std::uint32_t key_words = mine.key_words();
  const std::vector<Bytes> outgoing = encode_pairs_by_group(
      mine, static_cast<std::size_t>(comm.size()),
      [&](const std::uint64_t* key) { return static_cast<std::size_t>(owner_of(key, key_words, comm.size())); });
  const std::vector<Bytes> incoming = comm.all_to_all(outgoing);
  direct::DirectSubspaceMap owned(key_words, mine.point_words());
  // Room for every incoming entry (at most that many are distinct), so the map never regrows
  // while millions of subspaces are ORed in.
  std::uint64_t most = 0;
  for (const Bytes& part : incoming) {
    std::uint64_t count = 0;
    if (part.size() >= sizeof count) std::memcpy(&count, part.data(), sizeof count);
    most += std::min<std::uint64_t>(count, part.size() / 8);
  }
  owned.reserve(most);
  for (int r = 0; r < comm.size(); ++r)
    decode_pairs_into(incoming[r].data(), incoming[r].size(), owned, "subspaces from process " + std::to_string(r));
  return owned;
}

std::vector<SubspaceCluster> gather_subspaces(const Communicator& comm, const std::vector<SubspaceCluster>& owned) {
  const std::vector<Bytes> parts = comm.gather(encode_clusters(owned));
  if (!comm.is_root()) return {};
  std::vector<SubspaceCluster> all;
  for (const Bytes& part : parts) {
    std::vector<SubspaceCluster> theirs = decode_clusters(part);
    const auto middle = static_cast<std::ptrdiff_t>(all.size());
    all.insert(all.end(), std::make_move_iterator(theirs.begin()), std::make_move_iterator(theirs.end()));
    std::inplace_merge(
        all.begin(), all.begin() + middle, all.end(),
        [](const SubspaceCluster& a, const SubspaceCluster& b) { return subspace_order(a.dimensions, b.dimensions); });
  }
  return all;
}

}  // namespace subscale::cluster
