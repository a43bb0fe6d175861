#pragma once
// The merge stage spread over the processes: each clusters the subspaces it owns after the
// exchange, and the root gathers the clusters into merge's order (dimensions, then points) and sums
// the counters, which is what one process clustering every subspace would have produced.
#include <optional>
#include <vector>

#include "distributed/communicator.hpp"
#include "stages/merge/merge.hpp"

namespace subscale::distributed {

// The whole merge result on the root; nothing elsewhere.
template <class T>
std::optional<merge::MergeResult> merge_across_processes(const Communicator& comm, const ColumnMatrix<T>& values,
                                                         const std::vector<SubspaceCluster>& owned,
                                                         const merge::MergeParams& params,
                                                         merge::ClusterSieve* sieve = nullptr);

// The root's list dealt out to the processes: process r receives the entries i with
// i % processes == r, in their order (nothing is read from `on_root` elsewhere). Merging the shares
// with merge_across_processes gives the merge of the whole list, as one process would.
std::vector<SubspaceCluster> deal_out_from_root(const Communicator& comm, const std::vector<SubspaceCluster>& on_root);

}  // namespace subscale::distributed
