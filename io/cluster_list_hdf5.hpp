#pragma once
// A list of subspace clusters (the subspaces stage's (S, P_S), merge's or consolidate's clusters)
// in an HDF5 group as compressed sparse rows, so any reader can slice it without parsing text:
//   points              uint32, every list's point ids, one list after another
//   point_offsets       uint64, count + 1: list i is points[point_offsets[i] : point_offsets[i+1]]
//   dimensions          uint32, every list's dimensions, likewise
//   dimension_offsets   uint64, count + 1: list i lives in dimensions[dimension_offsets[i] : ...[i+1]]
// and the group's attributes `count` (lists) and `layout` (the two lines above in words). The
// large datasets are written in blocks of 4 MiB (chunks of that size when gzip_level > 0,
// compressed on every core), so writing needs no copy of the whole list.
#include <string>
#include <vector>

#include "common/subspace_cluster.hpp"
#include "io/hdf5_file.hpp"

namespace subscale::io {

void write_cluster_list(Hdf5File& file, const std::string& group, const std::vector<SubspaceCluster>& clusters,
                        int gzip_level);

// Reads a group written by write_cluster_list; throws InputError naming the file and group when a
// dataset is missing or the offsets do not fit the ids.
std::vector<SubspaceCluster> read_cluster_list(const Hdf5File& file, const std::string& group);

}  // namespace subscale::io
