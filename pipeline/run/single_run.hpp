#pragma once
// One run of one configuration, on every process of the job: settings, input, stages, run folder.
#include <cstdint>
#include <filesystem>
#include <optional>

#include "distributed/communicator.hpp"
#include "pipeline/output/run_report.hpp"
#include "pipeline/run/run_folder.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/run_options.hpp"

namespace subscale::pipeline {

// What a sweep's table needs of one run; the run's lists are released once its folder is written,
// so a sweep holds one run's results at a time.
struct SweepRow {
  std::uint64_t dense_units = 0, subspaces = 0;
  std::optional<std::size_t> clusters, raw_clusters;  // raw_clusters: merge's, when consolidate ran
  std::optional<evaluate::QualityMeasures> quality, raw_quality;
  double seconds = 0;
};

struct SingleRun {
  SweepRow row;
  std::filesystem::path folder;
};

// Every process loads the input (errors agreed, so all leave together); only the root begins the
// destination (once the input is accepted) and writes it. A checkpoint that cannot serve the run is
// refused before the input is read. The caller finishes the claimed folder.
SingleRun run_one(Config config, const RunDestination& destination, const RunOptions& options,
                  const distributed::Communicator& comm);

}  // namespace subscale::pipeline
