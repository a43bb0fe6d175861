#pragma once
// The CUDA part of membership (membership.hpp): the same members, bit for bit. One thread tests a
// (point, cluster) pair: the widened box in double, a binary search of the cluster's first
// coordinates, and merge's distance test in T with rounded (unfused) multiply and add, as the
// CPU computes it. Points go up in blocks of rows of the dimensions the clusters use, sized
// from the device budget; only a flag per pair comes back. Runs on context.stream.
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "gpu/execution_context.hpp"
#include "stages/sample/membership.hpp"

namespace subscale::sample {

// Throws ResourceError (exit 4) when the build has no CUDA backend or no device is usable, and
// std::invalid_argument as members_near does.
template <class T>
std::vector<std::vector<std::uint32_t>> members_near_cuda(const ColumnMatrix<T>& points,
                                                          const ColumnMatrix<T>& reference,
                                                          const std::vector<SubspaceCluster>& clusters,
                                                          const MembershipParams& params,
                                                          const gpu::ExecutionContext& context = {});

}  // namespace subscale::sample
