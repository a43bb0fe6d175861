#pragma once
// The run report's sections about the clusters themselves: a table of the strongest (rank,
// dimensions by name, size, score), a map of the dimensions each lives in, and scatters of every
// point in two of a cluster's dimensions with its members marked. The clusters come from
// results.h5's /clusters; the points from the run's input, read again through the run's own
// loader and normalisation as its config.yaml says (a run whose input is gone still gets the table
// and the map, and the scatter section says why it is empty).
#include <array>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "io/hdf5_file.hpp"

namespace subscale::pipeline {

inline constexpr std::array<const char*, 3> kClusterSections = {"clusters", "cluster-map", "cluster-scatter"};

inline constexpr std::size_t kTableClusters = 50;      // rows of the table and of the map
inline constexpr std::size_t kScatterClusters = 4;     // the strongest clusters get a scatter each
inline constexpr std::size_t kScatterPointCap = 5000;  // per group (members, others); beyond, a sample

// The three sections, each a <section id="..."> with an id of kClusterSections. `summary` is the
// run's summary.json: where the run reported no cluster, its near misses fill the first section.
std::string cluster_sections(const std::filesystem::path& run_folder, const io::Hdf5File& results,
                             const nlohmann::json& summary);

}  // namespace subscale::pipeline
