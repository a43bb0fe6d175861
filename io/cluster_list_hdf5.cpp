#include "io/cluster_list_hdf5.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>

#include "io/host_memory.hpp"

namespace subscale::io {
namespace {

using Member = std::vector<std::uint32_t> SubspaceCluster::*;

// offsets[i] = the ids of lists before i (count + 1 entries).
std::vector<std::uint64_t> offsets_of(const std::vector<SubspaceCluster>& clusters, Member member) {
  std::vector<std::uint64_t> offsets(clusters.size() + 1, 0);
  for (std::size_t c = 0; c < clusters.size(); ++c) offsets[c + 1] = offsets[c] + (clusters[c].*member).size();
  return offsets;
}

// Writes the ids of every list flat, each block gathered from the lists it overlaps.
void write_flat_ids(Hdf5File& file, const std::string& path, const std::vector<SubspaceCluster>& clusters,
                    const std::vector<std::uint64_t>& offsets, Member member, int gzip_level) {
  file.write_in_blocks<std::uint32_t>(
      path, offsets.back(), gzip_level, [&](std::uint64_t begin, std::uint64_t end, std::uint32_t* out) {
        // The list holding element `begin`: the last one whose offset is <= begin.
        std::size_t c =
            static_cast<std::size_t>(std::upper_bound(offsets.begin(), offsets.end(), begin) - offsets.begin()) - 1;
        for (std::uint64_t at = begin; at < end; ++c) {
          const auto& ids = clusters[c].*member;
          const std::uint64_t from = at - offsets[c], to = std::min<std::uint64_t>(ids.size(), end - offsets[c]);
          out = std::copy(ids.begin() + static_cast<std::ptrdiff_t>(from),
                          ids.begin() + static_cast<std::ptrdiff_t>(to), out);
          at = offsets[c] + to;
        }
      });
}

void write_offsets(Hdf5File& file, const std::string& path, const std::vector<std::uint64_t>& offsets, int gzip_level) {
  file.write_in_blocks<std::uint64_t>(path, offsets.size(), gzip_level,
                                      [&](std::uint64_t begin, std::uint64_t end, std::uint64_t* out) {
                                        std::copy(offsets.begin() + static_cast<std::ptrdiff_t>(begin),
                                                  offsets.begin() + static_cast<std::ptrdiff_t>(end), out);
                                      });
}

}  // namespace

void write_cluster_list(Hdf5File& file, const std::string& group, const std::vector<SubspaceCluster>& clusters,
                        int gzip_level) {
  file.create_group(group);
  for (Member member : {&SubspaceCluster::points, &SubspaceCluster::dimensions}) {
    const std::string name = member == &SubspaceCluster::points ? "point" : "dimension";
    const std::vector<std::uint64_t> offsets = offsets_of(clusters, member);
    write_flat_ids(file, group + "/" + name + "s", clusters, offsets, member, gzip_level);
    write_offsets(file, group + "/" + name + "_offsets", offsets, gzip_level);
  }
  file.write_int_attribute(group, "count", static_cast<std::int64_t>(clusters.size()));
  file.write_string_attribute(group, "layout",
                              "cluster i: dimensions[dimension_offsets[i]:dimension_offsets[i+1]], "
                              "points[point_offsets[i]:point_offsets[i+1]]");
}

std::vector<SubspaceCluster> read_cluster_list(const Hdf5File& file, const std::string& group) {
  for (const char* name : {"points", "point_offsets", "dimensions", "dimension_offsets"})
    if (!file.exists(group + "/" + name))
      throw InputError(file.path() + ": no dataset '" + group + "/" + name +
                       "' (is this the results.h5 of a run? its lists are /subspaces, /clusters and /raw_clusters)");
  const auto point_offsets = file.read<std::uint64_t>(group + "/point_offsets").data;
  const auto dimension_offsets = file.read<std::uint64_t>(group + "/dimension_offsets").data;
  const auto points = file.read<std::uint32_t>(group + "/points").data;
  const auto dimensions = file.read<std::uint32_t>(group + "/dimensions").data;
  const auto check = [&](const std::vector<std::uint64_t>& offsets, std::size_t ids, const char* name) {
    const bool ascending = std::is_sorted(offsets.begin(), offsets.end());
    if (offsets.empty() || offsets.front() != 0 || offsets.back() != ids || !ascending ||
        offsets.size() != point_offsets.size())
      throw InputError(file.path() + ": '" + group + "/" + name + "_offsets' does not describe '" + group + "/" + name +
                       "s' (" + std::to_string(ids) + " ids): it must start at 0, ascend and end at the id count, " +
                       "one entry more than there are lists; the file is damaged or not a run's results");
  };
  check(point_offsets, points.size(), "point");
  check(dimension_offsets, dimensions.size(), "dimension");
  // The list count comes from the file: a few compressed bytes can claim a billion empty lists.
  check_host_allocation(
      checked_bytes({point_offsets.size() - 1}, sizeof(SubspaceCluster)),
      file.path() + ", the " + std::to_string(point_offsets.size() - 1) + " lists of '" + group + "'");
  std::vector<SubspaceCluster> clusters(point_offsets.size() - 1);
  tbb::parallel_for(std::size_t{0}, clusters.size(), [&](std::size_t c) {
    clusters[c].points.assign(points.begin() + static_cast<std::ptrdiff_t>(point_offsets[c]),
                              points.begin() + static_cast<std::ptrdiff_t>(point_offsets[c + 1]));
    clusters[c].dimensions.assign(dimensions.begin() + static_cast<std::ptrdiff_t>(dimension_offsets[c]),
                                  dimensions.begin() + static_cast<std::ptrdiff_t>(dimension_offsets[c + 1]));
  });
  return clusters;
}

}  // namespace subscale::io
